// A displacement dr = scale·d applied to a whole system, shrunk so that the system's |dr| (the norm over
// all its atoms' components) is at most maxStep. FIRE, FIRE2 and gradient descent share it; the order of
// operations is ASE's (dr ← maxStep·dr/|dr|), so FIRE matches ase.optimize.FIRE step for step.
#pragma once

#include "core/HostDevice.h"

namespace hookmd {

/** One atom's share of |dr|²: Σ_c (scale·d_c)². */
HD double stepSquaredNorm(const double* direction, double scale) {
  double sum = 0.0;
  for (int c = 0; c < 3; ++c) {
    const double dr = scale * direction[c];
    sum += dr * dr;
  }
  return sum;
}

/** x += dr for one atom, with `stepNorm` the system's |dr|. */
HD void applyCappedStep(double* position, const double* direction, double scale, double stepNorm, double maxStep) {
  for (int c = 0; c < 3; ++c) {
    double dr = scale * direction[c];
    if (stepNorm > maxStep) dr = maxStep * dr / stepNorm;
    position[c] += dr;
  }
}

}  // namespace hookmd
