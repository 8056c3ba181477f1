// ConvergenceHook, evaluated natively (docs/dynamics.md): per-system criteria on built-in keys, ANDed. Systems
// whose status equals sourceStatus and meet every criterion converge: they move to targetStatus, or, for a
// detect-only check, keep their status and are only reported.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Backend.h"
#include "dynamics/NativeHook.h"

namespace hookmd {

/**
 * StressDeviation is max_ij |σ_ij + P·δ_ij|: how far the stress is from the hydrostatic target −P·I of a
 * criterion's `target` pressure P (a cell filter's scalarPressure).
 */
enum class ConvergenceKey : int { Forces = 0, Velocities, Energy, EnergyChange, KineticEnergy, Temperature, Stress, StressDeviation };

/** Returns false when `name` is not a built-in convergence key. */
bool convergenceKeyFromName(const std::string& name, ConvergenceKey& out);

/**
 * How a criterion reduces a key to one value per system (docs/dynamics.md, nvalchemi's semantics): each entry
 * (an atom's vector, a system's stress row-major 3×3) is reduced by the entry op, then the system takes the
 * largest over its atoms. `None` reduces an entry to its largest component. `SystemNorm` is the norm over
 * the whole system, √Σ|v_i|².
 */
enum class EntryOp : int { Sum = 0, Mean, Min, Max, Norm, None, SystemNorm };

/** Returns false when `name` is not one of sum, mean, min, max, norm, none, systemNorm. */
bool entryOpFromName(const std::string& name, EntryOp& out);

struct Criterion {
  ConvergenceKey key;
  double threshold;
  EntryOp op;
  /** StressDeviation's target pressure P. */
  double target = 0.0;
};

class Convergence {
 public:
  /** `detectOnly`: converged systems keep their status (targetStatus is ignored). */
  Convergence(std::vector<Criterion> criteria, HookSchedule schedule, std::int32_t sourceStatus, std::int32_t targetStatus,
              bool detectOnly);

  /**
   * Checks every system with status == sourceStatus when the check is due at `step`; flags those that meet
   * every criterion in `newly`, records sourceStatus for them in `from`, and (unless detect-only) sets their
   * status to targetStatus. Returns the number of systems flagged. `frozenCount` (per system, or null)
   * gives the temperature key its degrees of freedom (math/DegreesOfFreedom.h).
   */
  std::int64_t evaluate(Backend& backend, std::int64_t step, std::vector<std::uint8_t>& newly, std::vector<std::int32_t>& from,
                        const std::int32_t* frozenCount);
  /** Whether the check at `step` reads the stress, which the step's compute must then provide. */
  bool needsStress(std::int64_t step) const;
  /** Keeps per-system memory (previous energies) for the systems at `keep` and appends `added`. */
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added);

 private:
  bool due(std::int64_t step) const;
  void values(Backend& backend, const Criterion& criterion, const std::int32_t* frozenCount, std::vector<double>& out);

  std::vector<Criterion> criteria_;
  HookSchedule schedule_;
  std::int32_t sourceStatus_;
  std::int32_t targetStatus_;
  bool detectOnly_;
  std::vector<double> previousEnergy_;
  /** Detect-only: systems already reported. */
  std::vector<std::uint8_t> detected_;
  std::vector<double> scratch_;
};

}  // namespace hookmd
