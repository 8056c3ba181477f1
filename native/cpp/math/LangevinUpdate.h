// The O step of BAOAB Langevin dynamics (Leimkuhler & Matthews, 2013): an exact Ornstein–Uhlenbeck update of
// the velocities over one time step. The B and A steps are halfKick and drift from VelocityVerletUpdate.h.
#pragma once

#include <cmath>

#include "core/HostDevice.h"

namespace hookmd {

/** v ← c1·v + c2·σ·ξ with c1 = exp(−γ·dt) and c2 = √(1 − c1²). */
struct LangevinCoefficients {
  double c1;
  double c2;
};

/**
 * Coefficients for friction γ (1/time) over a step dt (time). c2 uses expm1 so that small γ·dt keeps full
 * precision instead of cancelling in 1 − c1².
 */
HD LangevinCoefficients langevinCoefficients(double friction, double dt) {
  return LangevinCoefficients{exp(-friction * dt), sqrt(-expm1(-2.0 * friction * dt))};
}

/**
 * σ = √(kB·T/m) in velocity units: kB·T is an energy, and forceToAccel turns energy/(length·mass) into
 * length/time², so kB·T·forceToAccel/m is a squared velocity.
 */
HD double thermalSpeed(double kT, double forceToAccel, double mass) { return sqrt(kT * forceToAccel / mass); }

/** The O step for one atom: `noise` holds three standard normals; `kick` = c2·σ. */
HD void ornsteinUhlenbeck(double* velocity, double c1, double kick, const double* noise) {
  for (int c = 0; c < 3; ++c) velocity[c] = c1 * velocity[c] + kick * noise[c];
}

}  // namespace hookmd
