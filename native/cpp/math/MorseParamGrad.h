// Derivatives of the Morse pair term with respect to its parameters θ = (D, α, r₀), for force matching
// (native/cpp/training). MorseEval gives the values; this header gives their slopes, with its conventions
// (E(r), and g(r) = −(dE/dr)/r). With x = e^{−α(r−r₀)}:
//   E = D(x² − 2x)                       g = 2αD(x² − x)/r
//   ∂E/∂D = x² − 2x                      ∂g/∂D = 2α(x² − x)/r
//   ∂E/∂α = −2D(x − 1)(r − r₀)x          ∂g/∂α = 2D[(x² − x) − α(r − r₀)x(2x − 1)]/r
//   ∂E/∂r₀ = 2αD(x − 1)x                 ∂g/∂r₀ = 2α²D x(2x − 1)/r
#pragma once

#include <cmath>

#include "core/HostDevice.h"
#include "math/MorseEval.h"

namespace hookmd {

struct MorseParamGrad {
  using Eval = MorseEval;
  /** θ = {D (energy), α (1/length), r₀ (length)}. */
  static constexpr int kParams = 3;

  static MorseParams params(const double* theta, double cutoff, bool shift) {
    return makeMorseParams(theta[0], theta[1], theta[2], cutoff, shift);
  }

  /** ∂E/∂θ and ∂g/∂θ of the bare term at r² (no shift, no switch, no cutoff test). */
  HD static void gradient(const double* theta, double r2, double* dEnergy, double* dFOverR) {
    const double depth = theta[0];
    const double alpha = theta[1];
    const double r = sqrt(r2);
    const double dr = r - theta[2];
    const double x = exp(-alpha * dr);
    const double rinv = 1.0 / r;
    dEnergy[0] = x * x - 2.0 * x;
    dEnergy[1] = -2.0 * depth * (x - 1.0) * dr * x;
    dEnergy[2] = 2.0 * alpha * depth * (x - 1.0) * x;
    dFOverR[0] = 2.0 * alpha * (x * x - x) * rinv;
    dFOverR[1] = 2.0 * depth * ((x * x - x) - alpha * dr * x * (2.0 * x - 1.0)) * rinv;
    dFOverR[2] = 2.0 * alpha * alpha * depth * x * (2.0 * x - 1.0) * rinv;
  }
};

}  // namespace hookmd
