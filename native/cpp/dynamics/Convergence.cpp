#include "dynamics/Convergence.h"

#include <cmath>
#include <limits>

namespace hookmd {

bool convergenceKeyFromName(const std::string& name, ConvergenceKey& out) {
  static const char* const names[] = {"forces", "velocities", "energy", "energyChange", "kineticEnergy", "temperature"};
  for (int i = 0; i < 6; ++i) {
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

Convergence::Convergence(std::vector<Criterion> criteria, HookSchedule schedule, std::int32_t sourceStatus,
                         std::int32_t targetStatus)
    : criteria_(std::move(criteria)), schedule_(schedule), sourceStatus_(sourceStatus), targetStatus_(targetStatus) {}

void Convergence::values(Backend& backend, const Criterion& criterion, std::vector<double>& out) {
  const std::int64_t numSystems = backend.numSystems();
  out.assign(static_cast<std::size_t>(numSystems), 0.0);
  const bool needsEnergy = criterion.key == ConvergenceKey::Energy || criterion.key == ConvergenceKey::EnergyChange;
  const double* energy = needsEnergy ? backend.host({Field::Energy}).f64(Field::Energy) : nullptr;
  switch (criterion.key) {
    case ConvergenceKey::Forces: backend.reduce(Field::Forces, criterion.op, out.data()); break;
    case ConvergenceKey::Velocities: backend.reduce(Field::Velocities, criterion.op, out.data()); break;
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
        out[s] = numAtoms[s] > 0 ? 2.0 * out[s] / (3.0 * numAtoms[s] * kB) : 0.0;
      }
      break;
    }
  }
}

std::int64_t Convergence::evaluate(Backend& backend, std::int64_t step, std::vector<std::uint8_t>& newly) {
  if (!(step >= schedule_.phase && (step - schedule_.phase) % schedule_.frequency == 0)) return 0;
  const std::int64_t numSystems = backend.numSystems();
  std::vector<std::uint8_t> meets(static_cast<std::size_t>(numSystems), 1);
  for (const Criterion& criterion : criteria_) {
    values(backend, criterion, scratch_);
    for (std::int64_t s = 0; s < numSystems; ++s) {
      if (!(scratch_[s] <= criterion.threshold)) meets[s] = 0;
    }
  }
  newly.resize(static_cast<std::size_t>(numSystems), 0);
  const std::int32_t* current = backend.host({Field::Status}).i32(Field::Status);
  std::int64_t moved = 0;
  for (std::int64_t s = 0; s < numSystems; ++s) moved += current[s] == sourceStatus_ && meets[s];
  // Status is written only when some system moves, so a check that changes nothing leaves it coherent.
  if (moved == 0) return 0;
  std::int32_t* status = backend.host({Field::Status}, {Field::Status}).i32(Field::Status);
  for (std::int64_t s = 0; s < numSystems; ++s) {
    if (status[s] == sourceStatus_ && meets[s]) {
      status[s] = targetStatus_;
      newly[s] = 1;
    }
  }
  return moved;
}

void Convergence::remap(const std::vector<std::int64_t>& keep, std::int64_t added) {
  if (previousEnergy_.empty()) return;
  std::vector<double> next;
  next.reserve(keep.size() + static_cast<std::size_t>(added));
  for (std::int64_t s : keep) next.push_back(previousEnergy_[static_cast<std::size_t>(s)]);
  next.resize(keep.size() + static_cast<std::size_t>(added), std::numeric_limits<double>::infinity());
  previousEnergy_ = std::move(next);
}

}  // namespace hookmd
