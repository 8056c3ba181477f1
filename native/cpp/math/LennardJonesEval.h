// The 12-6 Lennard-Jones pair term, written once for the CPU loops and the CUDA kernels (docs/ARCHITECTURE.md, math/).
// E(r) = 4ε[(σ/r)¹² − (σ/r)⁶] − E_shift for r < r_c, with the prefactors folded into the parameters so the
// hot loop does one division and no powers.
#pragma once

#include "core/HostDevice.h"

namespace hookmd {

/** One species pair's coefficients, precomputed from ε (energy), σ and r_c (length). */
struct LennardJonesParams {
  double force12;      // 48 ε σ¹²
  double force6;       // 24 ε σ⁶
  double energy12;     // 4 ε σ¹²
  double energy6;      // 4 ε σ⁶
  double cutoffSq;     // r_c²
  double energyShift;  // E(r_c) when the potential is shifted, else 0
};

/** Fills the coefficients; `shift` makes E(r_c) = 0. */
inline LennardJonesParams makeLennardJonesParams(double epsilon, double sigma, double cutoff, bool shift) {
  const double s6 = sigma * sigma * sigma * sigma * sigma * sigma;
  LennardJonesParams p{48.0 * epsilon * s6 * s6, 24.0 * epsilon * s6, 4.0 * epsilon * s6 * s6, 4.0 * epsilon * s6,
                       cutoff * cutoff, 0.0};
  if (shift) {
    const double rc6 = 1.0 / (p.cutoffSq * p.cutoffSq * p.cutoffSq);
    p.energyShift = rc6 * (p.energy12 * rc6 - p.energy6);
  }
  return p;
}

struct LennardJonesEval {
  using Params = LennardJonesParams;

  /**
   * For r² < r_c²: sets `energy` and `fOverR` = −(dE/dr)/r (so the force on j is fOverR·(r_j − r_i)) and
   * returns true; returns false, leaving both untouched, at or beyond the cutoff.
   */
  HD static bool evaluate(const LennardJonesParams& p, double r2, double& fOverR, double& energy) {
    if (r2 >= p.cutoffSq) return false;
    const double r2inv = 1.0 / r2;
    const double r6inv = r2inv * r2inv * r2inv;
    fOverR = r6inv * (p.force12 * r6inv - p.force6) * r2inv;
    energy = r6inv * (p.energy12 * r6inv - p.energy6) - p.energyShift;
    return true;
  }
};

}  // namespace hookmd
