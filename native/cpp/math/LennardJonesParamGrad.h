// Derivatives of the 12-6 Lennard-Jones pair term with respect to its parameters θ = (ε, σ), for force
// matching (native/cpp/training). LennardJonesEval gives the values; this header gives their slopes, with
// the same conventions: E(r) and g(r) = −(dE/dr)/r, so that the force on j is g·(r_j − r_i).
// With s⁶ = (σ/r)⁶:
//   E = 4ε(s¹² − s⁶)                    g = (48ε s¹² − 24ε s⁶)/r²
//   ∂E/∂ε = 4(s¹² − s⁶)                 ∂E/∂σ = (48ε s¹² − 24ε s⁶)/σ
//   ∂g/∂ε = (48 s¹² − 24 s⁶)/r²         ∂g/∂σ = (576ε s¹² − 144ε s⁶)/(σ r²)
// The shift and the switch are applied by the caller (they act on E and g the same way for every pair term).
#pragma once

#include "core/HostDevice.h"
#include "math/LennardJonesEval.h"

namespace hookmd {

struct LennardJonesParamGrad {
  using Eval = LennardJonesEval;
  /** θ = {ε (energy), σ (length)}. */
  static constexpr int kParams = 2;

  /** The evaluator's coefficients for θ, so values and slopes come from the same parameters. */
  static LennardJonesParams params(const double* theta, double cutoff, bool shift) {
    return makeLennardJonesParams(theta[0], theta[1], cutoff, shift);
  }

  /** ∂E/∂θ and ∂g/∂θ of the bare term at r² (no shift, no switch, no cutoff test). */
  HD static void gradient(const double* theta, double r2, double* dEnergy, double* dFOverR) {
    const double epsilon = theta[0];
    const double sigma = theta[1];
    const double r2inv = 1.0 / r2;
    const double sr2 = sigma * sigma * r2inv;
    const double s6 = sr2 * sr2 * sr2;
    const double s12 = s6 * s6;
    const double byEpsilon = 48.0 * s12 - 24.0 * s6;
    const double epsilonOverSigma = epsilon / sigma;
    dEnergy[0] = 4.0 * (s12 - s6);
    dEnergy[1] = epsilonOverSigma * byEpsilon;
    dFOverR[0] = byEpsilon * r2inv;
    dFOverR[1] = epsilonOverSigma * (576.0 * s12 - 144.0 * s6) * r2inv;
  }
};

}  // namespace hookmd
