// ConvergenceHook, evaluated natively (docs/dynamics.md): per-system criteria on built-in keys, ANDed. Systems
// whose status equals sourceStatus and meet every criterion move to targetStatus.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Backend.h"
#include "dynamics/NativeHook.h"

namespace hookmd {

enum class ConvergenceKey : int { Forces = 0, Velocities, Energy, EnergyChange, KineticEnergy, Temperature };

/** Returns false when `name` is not a built-in convergence key. */
bool convergenceKeyFromName(const std::string& name, ConvergenceKey& out);

struct Criterion {
  ConvergenceKey key;
  double threshold;
  ReduceOp op;
};

class Convergence {
 public:
  Convergence(std::vector<Criterion> criteria, HookSchedule schedule, std::int32_t sourceStatus, std::int32_t targetStatus);

  /**
   * Checks every system with status == sourceStatus when the check is due at `step`; sets their status to
   * targetStatus and flags them in `newly`. Returns the number of systems that moved.
   */
  std::int64_t evaluate(Backend& backend, std::int64_t step, std::vector<std::uint8_t>& newly);
  /** Keeps per-system memory (previous energies) for the systems at `keep` and appends `added`. */
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added);

 private:
  void values(Backend& backend, const Criterion& criterion, std::vector<double>& out);

  std::vector<Criterion> criteria_;
  HookSchedule schedule_;
  std::int32_t sourceStatus_;
  std::int32_t targetStatus_;
  std::vector<double> previousEnergy_;
  std::vector<double> scratch_;
};

}  // namespace hookmd
