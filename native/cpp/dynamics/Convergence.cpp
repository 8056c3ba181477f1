#include "dynamics/Convergence.h"

#include <cmath>
#include <limits>

#include "core/Error.h"
#include "cpu/CpuReductions.h"
#include "dynamics/StateParts.h"
#include "math/CriterionValue.h"
#include "math/DegreesOfFreedom.h"
#include "math/Reductions.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

bool convergenceKeyFromName(const std::string& name, ConvergenceKey& out) {
  static const char* const names[] = {"forces", "velocities", "energy", "energyChange", "kineticEnergy", "temperature", "stress", "stressDeviation"};
  for (int i = 0; i < 8; ++i) {
    if (name == names[i]) {
      out = static_cast<ConvergenceKey>(i);
      return true;
    }
  }
  if (name == "fmax") {
    out = ConvergenceKey::Forces;
    return true;
  }
  return false;
}

bool entryOpFromName(const std::string& name, EntryOp& out) {
  static const char* const names[] = {"sum", "mean", "min", "max", "norm", "none", "systemNorm"};
  for (int i = 0; i < 7; ++i) {
    if (name == names[i]) {
      out = static_cast<EntryOp>(i);
      return true;
    }
  }
  return false;
}

Convergence::Convergence(std::vector<Criterion> criteria, HookSchedule schedule, std::optional<std::int32_t> sourceStatus,
                         std::int32_t targetStatus, bool detectOnly)
    : criteria_(std::move(criteria)),
      schedule_(schedule),
      sourceStatus_(sourceStatus),
      targetStatus_(targetStatus),
      detectOnly_(detectOnly) {}

bool Convergence::due(std::int64_t step) const {
  return step >= schedule_.phase && (step - schedule_.phase) % schedule_.frequency == 0;
}

bool Convergence::needsStress(std::int64_t step) const {
  if (!due(step)) return false;
  for (const Criterion& criterion : criteria_) {
    if (criterion.key == ConvergenceKey::Stress || criterion.key == ConvergenceKey::StressDeviation) return true;
  }
  return false;
}

namespace {
/** A per-atom field reduced per system: on the device where the reduction kernel serves, else the CPU reference. */
void reduceAtoms(Backend& backend, Field field, EntryOp op, double* out) {
  // The norm of each atom's vector, then the largest (fmax), and the whole-system norm are the backend's
  // own reductions; the other entry ops run the CPU reference over the reduction kernel's arrays.
  if (op == EntryOp::Norm) return backend.reduce(field, ReduceOp::Max, out);
  if (op == EntryOp::SystemNorm) return backend.reduce(field, ReduceOp::Norm, out);
  const ReduceOp entry = op == EntryOp::None ? ReduceOp::Max : static_cast<ReduceOp>(static_cast<int>(op));
  entryMaxOnHost(arraysFor(backend, Kernel::Reductions, reductionReads(field)), field, entry, out);
}
}  // namespace

void Convergence::values(Backend& backend, const Criterion& criterion, const std::int32_t* frozenCount, std::vector<double>& out) {
  const std::int64_t numSystems = backend.numSystems();
  out.assign(static_cast<std::size_t>(numSystems), 0.0);
  const bool needsEnergy = criterion.key == ConvergenceKey::Energy || criterion.key == ConvergenceKey::EnergyChange;
  const double* energy = needsEnergy ? backend.host({Field::Energy}).f64(Field::Energy) : nullptr;
  switch (criterion.key) {
    case ConvergenceKey::Forces: reduceAtoms(backend, Field::Forces, criterion.op, out.data()); break;
    case ConvergenceKey::Velocities: reduceAtoms(backend, Field::Velocities, criterion.op, out.data()); break;
    case ConvergenceKey::Stress: {
      const double* stress = backend.host({Field::Stress}).f64(Field::Stress);
      const int op = criterion.op == EntryOp::None ? static_cast<int>(ReduceOp::Max)
                     : criterion.op == EntryOp::SystemNorm ? static_cast<int>(ReduceOp::Norm)
                                                           : static_cast<int>(criterion.op);
      for (std::int64_t s = 0; s < numSystems; ++s) out[s] = entryReduce(op, stress + 9 * s, 9);
      break;
    }
    case ConvergenceKey::StressDeviation: {
      const double* stress = backend.host({Field::Stress}).f64(Field::Stress);
      for (std::int64_t s = 0; s < numSystems; ++s) {
        double largest = 0.0;
        for (int k = 0; k < 9; ++k) largest = std::fmax(largest, std::fabs(stress[9 * s + k] + (k % 4 == 0 ? criterion.target : 0.0)));
        out[s] = largest;
      }
      break;
    }
    case ConvergenceKey::Energy:
      for (std::int64_t s = 0; s < numSystems; ++s) out[s] = energy[s];
      break;
    case ConvergenceKey::EnergyChange:
      previousEnergy_.resize(static_cast<std::size_t>(numSystems), std::numeric_limits<double>::infinity());
      for (std::int64_t s = 0; s < numSystems; ++s) {
        out[s] = std::fabs(energy[s] - previousEnergy_[s]);
        previousEnergy_[s] = energy[s];
      }
      break;
    case ConvergenceKey::KineticEnergy: backend.kineticEnergy(out.data()); break;
    case ConvergenceKey::Temperature: {
      backend.kineticEnergy(out.data());
      const std::int32_t* numAtoms = backend.host({Field::NumAtoms}).i32(Field::NumAtoms);
      const double kB = backend.units().kB;
      for (std::int64_t s = 0; s < numSystems; ++s) {
        const double dof = degreesOfFreedom(numAtoms[s], frozenCount == nullptr ? 0 : frozenCount[s]);
        out[s] = dof > 0.0 ? 2.0 * out[s] / (dof * kB) : 0.0;
      }
      break;
    }
  }
}

std::int64_t Convergence::evaluate(Backend& backend, std::int64_t step, std::vector<std::uint8_t>& newly,
                                   std::vector<std::int32_t>& from, const std::int32_t* frozenCount) {
  if (!due(step)) return 0;
  const std::int64_t numSystems = backend.numSystems();
  std::vector<std::uint8_t> meets(static_cast<std::size_t>(numSystems), 1);
  for (const Criterion& criterion : criteria_) {
    values(backend, criterion, frozenCount, scratch_);
    for (std::int64_t s = 0; s < numSystems; ++s) {
      if (!(scratch_[s] <= criterion.threshold)) meets[s] = 0;
    }
  }
  newly.resize(static_cast<std::size_t>(numSystems), 0);
  from.resize(static_cast<std::size_t>(numSystems), -1);
  const std::int32_t* current = backend.host({Field::Status}).i32(Field::Status);
  const auto checked = [&](std::int64_t s) { return meets[s] && (!sourceStatus_ || current[s] == *sourceStatus_); };
  std::int64_t moved = 0;
  for (std::int64_t s = 0; s < numSystems; ++s) moved += checked(s);
  // Status is written only when some system moves, so a check that changes nothing leaves it coherent.
  if (moved == 0) return 0;
  if (detectOnly_) {
    // A detected system keeps its status, so it would meet the criteria again at every check: it is
    // reported once.
    detected_.resize(static_cast<std::size_t>(numSystems), 0);
    std::int64_t reported = 0;
    for (std::int64_t s = 0; s < numSystems; ++s) {
      if (!checked(s) || detected_[s]) continue;
      detected_[s] = 1;
      newly[s] = 1;
      if (from[s] < 0) from[s] = current[s];
      ++reported;
    }
    return reported;
  }
  std::int32_t* status = backend.host({Field::Status}, {Field::Status}).i32(Field::Status);
  for (std::int64_t s = 0; s < numSystems; ++s) {
    if (checked(s)) {
      if (from[s] < 0) from[s] = status[s];
      status[s] = targetStatus_;
      newly[s] = 1;
    }
  }
  return moved;
}

bool Convergence::appendSmallForm(SmallConvergence& out, std::int32_t exitStatus) const {
  // A check of any status (no sourceStatus) is detect-only by construction; the path runs only a named source.
  if (detectOnly_ || !sourceStatus_ || *sourceStatus_ >= exitStatus) return false;
  for (const Criterion& criterion : criteria_) {
    if (!smallPathKey(static_cast<int>(criterion.key))) return false;
  }
  out.checks.push_back(SmallCheck{schedule_.frequency, schedule_.phase, *sourceStatus_, targetStatus_,
                                  static_cast<int>(out.criteria.size()), static_cast<int>(criteria_.size())});
  for (const Criterion& criterion : criteria_) {
    out.criteria.push_back(SmallCriterion{static_cast<int>(criterion.key), static_cast<int>(criterion.op), criterion.threshold});
  }
  return true;
}

std::vector<double> Convergence::state() const {
  return joinState({std::vector<double>(detected_.begin(), detected_.end()), previousEnergy_});
}

void Convergence::loadState(const std::vector<double>& state) {
  const std::vector<std::vector<double>> parts = splitState(state, 2, "ConvergenceHook");
  for (const double flag : parts[0]) {
    if (flag != 0.0 && flag != 1.0) fail("INVALID_STATE", "ConvergenceHook: the saved state is malformed (reported flags must be 0 or 1)");
  }
  detected_.assign(parts[0].begin(), parts[0].end());
  previousEnergy_ = parts[1];
}

void Convergence::remap(const std::vector<std::int64_t>& keep, std::int64_t added) {
  if (!detected_.empty()) {
    std::vector<std::uint8_t> next;
    for (std::int64_t s : keep) next.push_back(detected_[static_cast<std::size_t>(s)]);
    next.resize(keep.size() + static_cast<std::size_t>(added), 0);
    detected_ = std::move(next);
  }
  if (previousEnergy_.empty()) return;
  std::vector<double> next;
  next.reserve(keep.size() + static_cast<std::size_t>(added));
  for (std::int64_t s : keep) next.push_back(previousEnergy_[static_cast<std::size_t>(s)]);
  next.resize(keep.size() + static_cast<std::size_t>(added), std::numeric_limits<double>::infinity());
  previousEnergy_ = std::move(next);
}

}  // namespace hookmd
