// One system's value of a native convergence criterion, for the small-system path, which checks convergence
// inside its chunk of steps (docs/dynamics.md, "Small systems"). The numbering is dynamics/Convergence.h's
// ConvergenceKey and EntryOp; the numbers are the ones Convergence computes through the backend's
// reductions, from the same per-system bodies (math/SystemReductions.h).
#pragma once

#include "core/HostDevice.h"
#include "math/DegreesOfFreedom.h"
#include "math/SystemReductions.h"

namespace hookmd {

/** The ConvergenceKey values the small-system path checks: forces, velocities, energy, kineticEnergy, temperature. */
HD bool smallPathKey(int key) { return key == 0 || key == 1 || key == 2 || key == 4 || key == 5; }

/**
 * Criterion `key` reduced by entry op `op` over one system of `count` atoms: forces `f`, velocities `v`,
 * masses `m` (3 values per atom for f and v), potential `energy`.
 */
HD double criterionValue(int key, int op, const double* f, const double* v, const double* m, long long count, double energy,
                         double forceToAccel, double kB) {
  if (key == 0 || key == 1) {
    const double* values = key == 0 ? f : v;
    // Norm: the largest atom norm (fmax); SystemNorm: √Σ|x_i|²; None: the largest component.
    if (op == 4) return reduceSystem(3, values, count, 3);
    if (op == 6) return reduceSystem(4, values, count, 3);
    return entryMaxSystem(op == 5 ? 3 : op, values, count, 3);
  }
  if (key == 2) return energy;
  const double kinetic = systemKineticEnergy(m, v, count, forceToAccel);
  if (key == 4) return kinetic;
  // The small-system path runs no native hook, so no atom is frozen.
  const double dof = degreesOfFreedom(count, 0);
  return dof > 0.0 ? 2.0 * kinetic / (dof * kB) : 0.0;
}

}  // namespace hookmd
