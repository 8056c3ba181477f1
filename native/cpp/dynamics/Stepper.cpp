#include "dynamics/Stepper.h"

#include <algorithm>
#include <chrono>

namespace hookmd {

namespace {
// Every field an action may read or write; non-CPU backends mirror them around native walks.
constexpr Field kSteppedFields[] = {Field::Positions, Field::Velocities, Field::Forces, Field::Energy,
                                     Field::Stress,    Field::Status,     Field::Cell};

// The engine's host-side actions see current data on any backend: pull mirrors before a walk, push after.
class HostSession {
 public:
  explicit HostSession(Backend& backend) : backend_(backend), mirrored_(std::string(backend.name()) != "cpu") {
    if (mirrored_) {
      for (Field field : kSteppedFields) backend_.syncToHost(field);
    }
  }
  ~HostSession() {
    if (mirrored_) {
      for (Field field : kSteppedFields) backend_.syncToDevice(field);
    }
  }

 private:
  Backend& backend_;
  bool mirrored_;
};
}  // namespace

Stepper::Stepper(Backend& backend, ComputeFn compute, std::unique_ptr<Integrator> integrator, std::int32_t exitStatus)
    : backend_(backend), compute_(std::move(compute)), integrator_(std::move(integrator)), exitStatus_(exitStatus) {}

void Stepper::beginStep() {
  const BatchStorage& host = backend_.host();
  const std::int64_t numSystems = host.numSystems();
  const std::int32_t* status = host.i32(Field::Status);
  active_.resize(static_cast<std::size_t>(numSystems));
  for (std::int64_t s = 0; s < numSystems; ++s) active_[s] = status[s] < exitStatus_ ? 1 : 0;
  activeAtStart_ = active_;
  if (jsWalk_) {
    // Hooks may finish a system mid-step; keep what step 5 must put back. Native chunks skip this copy.
    const auto copy = [&](Field field, std::vector<double>& out) {
      const double* values = host.f64(field);
      out.assign(values, values + host.length(field));
    };
    copy(Field::Positions, startPositions_);
    copy(Field::Velocities, startVelocities_);
    copy(Field::Cell, startCells_);
  }
  newly_.assign(static_cast<std::size_t>(numSystems), 0);
  newlyCount_ = 0;
}

void Stepper::refreshActive() {
  const std::int32_t* status = backend_.host().i32(Field::Status);
  for (std::size_t s = 0; s < active_.size(); ++s) {
    if (status[s] >= exitStatus_) active_[s] = 0;
  }
}

void Stepper::restoreFinished() {
  if (!jsWalk_) return;
  BatchStorage& host = backend_.host();
  const std::int32_t* status = host.i32(Field::Status);
  const std::int32_t* ptr = host.i32(Field::Ptr);
  double* x = host.f64(Field::Positions);
  double* v = host.f64(Field::Velocities);
  double* cell = host.f64(Field::Cell);
  std::vector<std::uint8_t> restored(activeAtStart_.size(), 0);
  bool any = false;
  for (std::size_t s = 0; s < activeAtStart_.size(); ++s) {
    if (!activeAtStart_[s] || status[s] < exitStatus_) continue;
    restored[s] = 1;
    any = true;
    for (std::int64_t k = 3 * static_cast<std::int64_t>(ptr[s]); k < 3 * static_cast<std::int64_t>(ptr[s + 1]); ++k) {
      x[k] = startPositions_[k];
      v[k] = startVelocities_[k];
    }
    for (int k = 0; k < 9; ++k) cell[9 * s + k] = startCells_[9 * s + k];
  }
  // The forces of this step belong to the positions just undone; evaluate them again for those systems.
  if (any && compute_) compute_(backend_, restored.data());
}

void Stepper::actionBefore(int point) {
  const StepContext context{backend_, active_.data(), stepCount_};
  switch (static_cast<DynamicsStage>(point)) {
    case DynamicsStage::BeforeStep: beginStep(); break;
    case DynamicsStage::AfterPreUpdate:
      refreshActive();
      integrator_->preUpdate(context);
      break;
    case DynamicsStage::AfterCompute:
      if (compute_) compute_(backend_, active_.data());
      break;
    case DynamicsStage::AfterPostUpdate:
      refreshActive();
      integrator_->postUpdate(context);
      break;
    case DynamicsStage::AfterStep: restoreFinished(); break;
    case DynamicsStage::OnConverge:
      for (auto& convergence : convergence_) newlyCount_ += convergence->evaluate(backend_, stepCount_, newly_);
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
  HostSession session(backend_);
  if (cursor_ == 0) jsWalk_ = true;
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

bool Stepper::allConverged() const {
  const BatchStorage& host = backend_.host();
  const std::int32_t* status = host.i32(Field::Status);
  for (std::int64_t s = 0; s < host.numSystems(); ++s) {
    if (status[s] < exitStatus_) return false;
  }
  return true;
}

Stepper::AdvanceResult Stepper::advance(std::int64_t maxSteps, double budgetSeconds, bool pauseOnConverge) {
  HostSession session(backend_);
  using Clock = std::chrono::steady_clock;
  // Budgets beyond a day mean "no deadline" (runSync passes Infinity, which no duration can hold).
  const bool timed = budgetSeconds < 86400.0;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(timed ? budgetSeconds : 0.0));
  AdvanceResult result;
  while (result.steps < maxSteps) {
    walkTo(DynamicsStage::OnConverge);
    if (pauseOnConverge && newlyCount_ > 0) {
      result.pausedOnConverge = true;
      return result;
    }
    finishStep();
    ++result.steps;
    if (allConverged() || (timed && Clock::now() >= deadline)) break;
  }
  return result;
}

void Stepper::remap(const std::vector<std::int64_t>& keep, std::int64_t added) {
  integrator_->remap(keep, added);
  for (auto& hook : hooks_) hook->remap(keep, added);
  for (auto& convergence : convergence_) convergence->remap(keep, added);
}

}  // namespace hookmd
