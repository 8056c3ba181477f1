// The Morse pair term, shared by the CPU loops and the CUDA kernels (docs/ARCHITECTURE.md, math/).
// E(r) = D[e^{−2α(r−r₀)} − 2e^{−α(r−r₀)}] − E_shift for r < r_c: the minimum −D sits at r₀ (LAMMPS's
// `pair_style morse` and ASE's MorsePotential use the same form).
#pragma once

#include <cmath>

#include "core/HostDevice.h"

namespace hookmd {

/** One species pair's coefficients: D (energy), α (1/length), r₀ and r_c (length). */
struct MorseParams {
  double depth;        // D
  double alpha;        // α
  double r0;           // r₀
  double cutoffSq;     // r_c²
  double energyShift;  // E(r_c) when the potential is shifted, else 0
};

/** E(r) without the shift, for the shift itself and for tests of the formula. */
HD double morseEnergy(double depth, double alpha, double r0, double r) {
  const double e = exp(-alpha * (r - r0));
  return depth * (e * e - 2.0 * e);
}

inline MorseParams makeMorseParams(double depth, double alpha, double r0, double cutoff, bool shift) {
  return MorseParams{depth, alpha, r0, cutoff * cutoff, shift ? morseEnergy(depth, alpha, r0, cutoff) : 0.0};
}

struct MorseEval {
  using Params = MorseParams;

  /** As LennardJonesEval::evaluate: fOverR = −(dE/dr)/r, false at or beyond the cutoff. */
  HD static bool evaluate(const MorseParams& p, double r2, double& fOverR, double& energy) {
    if (r2 >= p.cutoffSq) return false;
    const double r = sqrt(r2);
    const double e = exp(-p.alpha * (r - p.r0));
    // dE/dr = 2αD(e − e²); the force points along −dE/dr.
    fOverR = 2.0 * p.alpha * p.depth * (e * e - e) / r;
    energy = p.depth * (e * e - 2.0 * e) - p.energyShift;
    return true;
  }
};

}  // namespace hookmd
