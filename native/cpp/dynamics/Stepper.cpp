#include "dynamics/Stepper.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "core/Error.h"
#include "dynamics/StateParts.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

Stepper::Stepper(Backend& backend, ComputeFn compute, std::unique_ptr<Integrator> integrator, std::int32_t exitStatus)
    : backend_(backend),
      compute_(std::move(compute)),
      smallPath_(backend),
      residentPath_(backend),
      integrator_(std::move(integrator)),
      exitStatus_(exitStatus),
      layout_(backend.generation()) {}

void Stepper::addHook(std::unique_ptr<NativeHook> hook) {
  const bool counts = hook->frozenAtoms() != nullptr || hook->holdsCentre();
  hooks_.push_back(std::move(hook));
  if (counts) recountFrozen();
}

void Stepper::recountFrozen() {
  // Without such hooks there is nothing to count, and no reason to bring the offsets to the host.
  const bool counted = std::any_of(hooks_.begin(), hooks_.end(), [](const auto& hook) { return hook->frozenAtoms() != nullptr || hook->holdsCentre(); });
  if (!counted) return;
  const BatchStorage& host = backend_.host({Field::Ptr});
  const std::int64_t numSystems = host.numSystems();
  const std::int32_t* ptr = host.i32(Field::Ptr);
  frozenAtoms_.clear();
  frozenCount_.clear();
  ++frozenVersion_;
  for (const auto& hook : hooks_) {
    const std::vector<std::uint8_t>* frozen = hook->frozenAtoms();
    // A mask of another size names no atom of this batch; the hook refuses it when it runs.
    if (frozen == nullptr || static_cast<std::int64_t>(frozen->size()) != host.numAtoms()) continue;
    frozenAtoms_.resize(frozen->size(), 0);
    for (std::size_t i = 0; i < frozen->size(); ++i) frozenAtoms_[i] = frozenAtoms_[i] || (*frozen)[i];
  }
  for (const auto& hook : hooks_) hook->useFrozen(frozenAtoms_.empty() ? nullptr : &frozenAtoms_);
  if (frozenAtoms_.empty()) return;
  const bool centre = std::any_of(hooks_.begin(), hooks_.end(), [](const auto& hook) { return hook->holdsCentre(); });
  frozenCount_.assign(static_cast<std::size_t>(numSystems), 0);
  for (std::int64_t s = 0; s < numSystems; ++s) {
    for (std::int32_t i = ptr[s]; i < ptr[s + 1]; ++i) frozenCount_[s] += frozenAtoms_[i];
    // A held centre beside frozen atoms takes 3 degrees of freedom more, one atom's worth: every
    // 3·(N − frozen) then reads 3·N_mobile − 3 (math/DegreesOfFreedom.h). Without frozen atoms 3N − 3 holds.
    if (centre && frozenCount_[s] > 0) frozenCount_[s] += 1;
  }
}

void Stepper::requireLayout() const {
  if (backend_.generation() == layout_) return;
  fail("BATCH_RESIZED", "the batch was resized during a run (systems appended or removed, for instance by a hook); " +
                            std::string("per-system state no longer matches it. Change a batch between runs, or stream systems ") +
                            "through runStream, which refills in flight");
}

void Stepper::beginStep() {
  const BatchStorage& host = backend_.host({Field::Status});
  const std::int64_t numSystems = host.numSystems();
  const std::int32_t* status = host.i32(Field::Status);
  active_.resize(static_cast<std::size_t>(numSystems));
  for (std::int64_t s = 0; s < numSystems; ++s) active_[s] = status[s] < exitStatus_ ? 1 : 0;
  activeAtStart_ = active_;
  if (jsWalk_) {
    // Hooks may finish a system mid-step; keep what step 5 must put back, on the side the CPU integrators
    // update (on cuda, whose integrators are kernels, these are host copies). Native chunks skip this copy.
    const FieldSet kept{Field::Positions, Field::Velocities, Field::Cell};
    const BatchStorage& arrays = arraysFor(backend_, Kernel::Integrator, kept);
    const auto copy = [&](Field field, std::vector<double>& out) {
      const double* values = arrays.f64(field);
      out.assign(values, values + arrays.length(field));
    };
    copy(Field::Positions, startPositions_);
    copy(Field::Velocities, startVelocities_);
    copy(Field::Cell, startCells_);
  }
  newly_.assign(static_cast<std::size_t>(numSystems), 0);
  newlyFrom_.assign(static_cast<std::size_t>(numSystems), -1);
  newlyCount_ = 0;
}

void Stepper::refreshActive() {
  const std::int32_t* status = backend_.host({Field::Status}).i32(Field::Status);
  for (std::size_t s = 0; s < active_.size(); ++s) {
    if (status[s] >= exitStatus_) active_[s] = 0;
  }
}

void Stepper::restoreFinished() {
  if (!jsWalk_) return;
  const std::int32_t* status = backend_.host({Field::Status}).i32(Field::Status);
  bool anyFinished = false;
  const auto undone = [&](std::size_t s) { return activeAtStart_[s] && status[s] >= exitStatus_; };
  for (std::size_t s = 0; s < activeAtStart_.size(); ++s) anyFinished = anyFinished || undone(s);
  if (!anyFinished) return;
  const FieldSet restoredFields{Field::Positions, Field::Velocities, Field::Cell};
  BatchStorage& arrays = arraysFor(backend_, Kernel::Integrator, restoredFields | FieldSet{Field::Ptr}, restoredFields);
  const std::int32_t* ptr = arrays.i32(Field::Ptr);
  double* x = arrays.f64(Field::Positions);
  double* v = arrays.f64(Field::Velocities);
  double* cell = arrays.f64(Field::Cell);
  std::vector<std::uint8_t> restored(activeAtStart_.size(), 0);
  for (std::size_t s = 0; s < activeAtStart_.size(); ++s) {
    if (!undone(s)) continue;
    restored[s] = 1;
    for (std::int64_t k = 3 * static_cast<std::int64_t>(ptr[s]); k < 3 * static_cast<std::int64_t>(ptr[s + 1]); ++k) {
      x[k] = startPositions_[k];
      v[k] = startVelocities_[k];
    }
    for (int k = 0; k < 9; ++k) cell[9 * s + k] = startCells_[9 * s + k];
  }
  // The forces of this step belong to the positions just undone; evaluate them again for those systems.
  if (compute_) compute_(backend_, restored.data(), stressComputed_, true);
}

void Stepper::compute(const std::uint8_t* systems) {
  bool stress = stressRequested_ || integrator_->needsStress();
  for (const auto& convergence : convergence_) stress = stress || convergence->needsStress(stepCount_);
  stressRequested_ = false;
  stressComputed_ = stress;
  if (!compute_) return;
  // The potential's own compute completes or supersedes the energies it left pending (Backend::defer).
  const Backend::DeferralScope scope(backend_, potential_.get());
  // A stress is asked for every system (finished ones included), so that every system's stress belongs
  // to the same positions as its forces.
  if (stress) {
    all_.assign(active_.size(), 1);
    compute_(backend_, all_.data(), true, true);
  } else {
    compute_(backend_, systems, false, !deferEnergies_);
  }
}

void Stepper::actionBefore(int point) {
  requireLayout();
  StepContext context{backend_, active_.data(), stepCount_, exitStatus_};
  if (!frozenCount_.empty()) {
    context.frozenCount = frozenCount_.data();
    context.frozenAtoms = frozenAtoms_.data();
    context.frozenVersion = frozenVersion_;
  }
  switch (static_cast<DynamicsStage>(point)) {
    case DynamicsStage::BeforeStep: beginStep(); break;
    case DynamicsStage::AfterPreUpdate:
      refreshActive();
      integrator_->preUpdate(context);
      break;
    case DynamicsStage::AfterCompute: compute(active_.data()); break;
    case DynamicsStage::AfterPostUpdate:
      refreshActive();
      integrator_->postUpdate(context);
      break;
    case DynamicsStage::AfterStep: restoreFinished(); break;
    case DynamicsStage::OnConverge:
      for (auto& convergence : convergence_) {
        newlyCount_ += convergence->evaluate(backend_, stepCount_, newly_, newlyFrom_, context.frozenCount);
      }
      if (newlyCount_ > 0) {
        convergedAt_.resize(newly_.size(), -1);
        for (std::size_t s = 0; s < newly_.size(); ++s) {
          if (newly_[s]) convergedAt_[s] = stepCount_;
        }
      }
      integrator_->afterConvergence(context);
      break;
    default: break;
  }
}

void Stepper::runNativeHooks(DynamicsStage stage) {
  if (stage == DynamicsStage::OnConverge && newlyCount_ == 0) return;
  for (auto& hook : hooks_) {
    if (hook->schedule().due(stage, stepCount_)) hook->apply(backend_, stage, stepCount_, active_.data());
  }
}

bool Stepper::runTo(DynamicsStage stage) {
  // JS can change a status between preUpdate and the restore point only if it gets control before
  // AFTER_STEP; a walk that goes straight there needs no start-of-step snapshot (and copies nothing).
  if (cursor_ == 0) jsWalk_ = stage < DynamicsStage::AfterStep;
  walkTo(stage);
  return stage == DynamicsStage::OnConverge && newlyCount_ > 0;
}

void Stepper::walkTo(DynamicsStage stage) {
  const int target = static_cast<int>(stage);
  while (cursor_ <= target) {
    actionBefore(cursor_);
    runNativeHooks(static_cast<DynamicsStage>(cursor_));
    ++cursor_;
  }
}

void Stepper::finishStep() {
  walkTo(DynamicsStage::OnConverge);
  ++stepCount_;
  cursor_ = 0;
  jsWalk_ = false;
}

void Stepper::runComputeHooks(DynamicsStage stage) {
  if (cursor_ != 0) fail("INVALID_ARGUMENT", "runComputeHooks: a step is in progress; finish it first");
  if (stage != DynamicsStage::BeforeCompute && stage != DynamicsStage::AfterCompute) {
    fail("INVALID_ARGUMENT", "runComputeHooks: stage must be BEFORE_COMPUTE or AFTER_COMPUTE");
  }
  requireLayout();
  const BatchStorage& host = backend_.host({Field::Status});
  const std::int32_t* status = host.i32(Field::Status);
  active_.resize(static_cast<std::size_t>(host.numSystems()));
  for (std::size_t s = 0; s < active_.size(); ++s) active_[s] = status[s] < exitStatus_ ? 1 : 0;
  runNativeHooks(stage);
}

bool Stepper::allConverged() {
  // A small-system chunk reported how many systems are left; nothing has written a status since.
  if (knownActive_ >= 0 && knownStatusVersion_ == backend_.version(Field::Status)) return knownActive_ == 0;
  const BatchStorage& host = backend_.host({Field::Status});
  const std::int32_t* status = host.i32(Field::Status);
  for (std::int64_t s = 0; s < host.numSystems(); ++s) {
    if (status[s] < exitStatus_) return false;
  }
  return true;
}

Stepper::AdvanceResult Stepper::advance(std::int64_t maxSteps, double budgetSeconds, bool pauseOnConverge) {
  using Clock = std::chrono::steady_clock;
  // Budgets beyond a day mean "no deadline" (runSync passes Infinity, which no duration can hold).
  const bool timed = budgetSeconds < 86400.0;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(timed ? budgetSeconds : 0.0));
  AdvanceResult result;
  requireLayout();
  if (smallPath_.ready(*integrator_, potential_.get(), !hooks_.empty(), convergence_, stressRequested_, pauseOnConverge, exitStatus_)) {
    const bool recorded = !convergedAt_.empty();
    convergedAt_.resize(static_cast<std::size_t>(backend_.numSystems()), -1);
    const SmallSystemPath::Outcome outcome = smallPath_.run(*integrator_, stepCount_, maxSteps, exitStatus_, timed, deadline, convergedAt_);
    // The general path keeps no record until a system converges (OnConverge); convergedAt() must not tell the
    // two paths apart, so an MD run or an unconverged relaxation still reports none.
    if (!recorded && std::none_of(convergedAt_.begin(), convergedAt_.end(), [](std::int64_t step) { return step >= 0; })) {
      convergedAt_.clear();
    }
    stepCount_ += outcome.steps;
    stressComputed_ = false;
    if (outcome.firstNonFinite >= 0) {
      stepCount_ = outcome.nonFiniteStep;
      failNonFinite(outcome.firstNonFinite);
    }
    knownActive_ = outcome.active;
    knownStatusVersion_ = backend_.version(Field::Status);
    result.steps = outcome.steps;
    return result;
  }
  // Between JS hooks nothing reads the energies unless a native hook, a convergence check or the update
  // does. Then a device leaves their sums until something does: a hook, the caller, another kernel (one
  // memory has nothing to leave, and the deferral would only keep the potential alive).
  const bool energiesUnread = hooks_.empty() && convergence_.empty() && !integrator_->readsEnergy();
  if (potential_ && !backend_.unified() && energiesUnread) {
    backend_.defer(Field::Energy, potential_.get(), [potential = potential_, &backend = backend_] { potential->finishEnergies(backend); });
    deferEnergies_ = true;
  }
  try {
    const bool resident = deferEnergies_ && cursor_ == 0 && everySystemActive() &&
                          residentPath_.ready(*integrator_, potential_.get(), energiesUnread, stressRequested_);
    result = resident ? residentSteps(maxSteps, timed, deadline) : walkSteps(maxSteps, timed, deadline, pauseOnConverge);
  } catch (...) {
    deferEnergies_ = false;
    throw;
  }
  deferEnergies_ = false;
  return result;
}

bool Stepper::everySystemActive() {
  const BatchStorage& host = backend_.host({Field::Status});
  const std::int32_t* status = host.i32(Field::Status);
  for (std::int64_t s = 0; s < host.numSystems(); ++s) {
    if (status[s] >= exitStatus_) return false;
  }
  return host.numSystems() > 0;
}

Stepper::AdvanceResult Stepper::residentSteps(std::int64_t maxSteps, bool timed, std::chrono::steady_clock::time_point deadline) {
  AdvanceResult result;
  int regrowths = 0;
  while (result.steps < maxSteps) {
    const std::int64_t steps = std::min(maxSteps - result.steps, kLongestResidentChunk);
    const std::int64_t first = stepCount_;
    // How mirror computes the chunk's numbers: the general step's CPU code, charged nothing (the chunk is
    // charged what cuda's graph costs).
    const auto referenceStep = [this] {
      const Backend::LedgerMute mute(backend_);
      finishStep();
    };
    ResidentChunkResult chunk;
    {
      // The chunk's pair loops supersede the energies the potential left pending, as its own compute does
      // (Backend::defer): outside this scope the chunk's writes would finish the deferral and drop it, and
      // nothing would sum the chunk's own energies when they are read.
      const Backend::DeferralScope scope(backend_, potential_.get());
      chunk = residentPath_.run(*integrator_, steps, referenceStep);
    }
    // A reference step that failed midway left the walk there; the replay starts the step again.
    cursor_ = 0;
    jsWalk_ = false;
    stepCount_ = first;
    if (chunk.replay && residentPath_.regrows(chunk) && regrowths < kResidentRegrowths) {
      // Rows alone overflowed: the same chunk runs again on the device, from its start, with longer rows.
      residentPath_.restore();
      residentPath_.regrow(chunk.longestRow);
      ++regrowths;
      stressComputed_ = false;
      continue;
    }
    regrowths = 0;
    if (chunk.replay) {
      // A non-finite energy or a failed build (or rows that kept overflowing): the general path takes the same
      // steps again from the chunk's start, growing the rows or raising the error at its step.
      residentPath_.restore();
      result.steps += walkSteps(steps, false, deadline, false).steps;
    } else {
      stepCount_ = first + steps;
      result.steps += steps;
    }
    stressComputed_ = false;
    if (timed && std::chrono::steady_clock::now() >= deadline) break;
  }
  return result;
}

Stepper::AdvanceResult Stepper::walkSteps(std::int64_t maxSteps, bool timed, std::chrono::steady_clock::time_point deadline,
                                          bool pauseOnConverge) {
  AdvanceResult result;
  while (result.steps < maxSteps) {
    walkTo(DynamicsStage::OnConverge);
    if (pauseOnConverge && newlyCount_ > 0) {
      result.pausedOnConverge = true;
      return result;
    }
    finishStep();
    ++result.steps;
    if (allConverged() || (timed && std::chrono::steady_clock::now() >= deadline)) break;
  }
  return result;
}

void Stepper::failNonFinite(std::int64_t system) {
  if (compute_) compute_(backend_, nullptr, false, true);
  fail("NON_FINITE_ENERGY", "system " + std::to_string(system) + ": the energy is not finite at step " + std::to_string(stepCount_));
}

std::vector<double> Stepper::state() const {
  std::vector<std::vector<double>> parts{integrator_->state()};
  for (const auto& convergence : convergence_) parts.push_back(convergence->state());
  return joinState(parts);
}

void Stepper::loadState(const std::vector<double>& state) {
  if (cursor_ != 0) fail("INVALID_ARGUMENT", "loadState: a step is in progress; finish it first");
  const std::vector<std::vector<double>> parts = splitState(state, 1 + convergence_.size(), "engine state");
  // Convergence memory first: it can only fail on a malformed part, and the integrator is the last to change.
  for (std::size_t k = 0; k < convergence_.size(); ++k) convergence_[k]->loadState(parts[1 + k]);
  integrator_->loadState(parts[0]);
}

void Stepper::remap(const std::vector<std::int64_t>& keep, std::int64_t added, const std::vector<const HookArrivals*>& arrivals) {
  if (!arrivals.empty() && arrivals.size() != hooks_.size()) {
    fail("INVALID_ARGUMENT", "remap: arrivals has " + std::to_string(arrivals.size()) + " entries for " + std::to_string(hooks_.size()) + " hooks");
  }
  layout_ = backend_.generation();
  std::vector<std::int64_t> convergedAt;
  convergedAt.reserve(keep.size() + static_cast<std::size_t>(added));
  for (std::int64_t s : keep) convergedAt.push_back(static_cast<std::size_t>(s) < convergedAt_.size() ? convergedAt_[s] : -1);
  convergedAt.resize(keep.size() + static_cast<std::size_t>(added), -1);
  convergedAt_ = std::move(convergedAt);
  integrator_->remap(keep, added);
  for (std::size_t k = 0; k < hooks_.size(); ++k) {
    const HookArrivals* brought = arrivals.empty() ? nullptr : arrivals[k];
    if (brought == nullptr) hooks_[k]->remap(keep, added);
    else hooks_[k]->remapWith(keep, added, *brought);
  }
  for (auto& convergence : convergence_) convergence->remap(keep, added);
  recountFrozen();
}

}  // namespace hookmd
