// Nosé–Hoover chain thermostat (Martyna, Tuckerman & Klein, Mol. Phys. 87, 1117 (1996)) for one system,
// written as LAMMPS fix nvt integrates it (fix_nh.cpp, nhc_temp_integrate with one loop and no
// Suzuki–Yoshida weights). One half step advances the chain by dt/2 and returns the factor by which the
// system's velocities are scaled.
#pragma once

#include <cmath>

#include "core/HostDevice.h"

namespace hookmd {

/** The chain's fixed quantities for one system and step. */
struct ChainConstants {
  /** dof·kB·T: the target of 2·KE. */
  double targetTwoKE;
  /** kB·T, the target of each higher link's Q·v_ξ². */
  double kT;
  /** Q1 = dof·kB·T·tdamp² and Qk = kB·T·tdamp² (k ≥ 2). */
  double q1;
  double q;
  double dt;
};

HD ChainConstants chainConstants(double dof, double kT, double tdamp, double dt) {
  const double tdamp2 = tdamp * tdamp;
  return ChainConstants{dof * kT, kT, dof * kT * tdamp2, kT * tdamp2, dt};
}

/**
 * The force on link k (the time derivative of v_ξk). Link 0 is driven by the system's 2·KE, link k ≥ 1 by
 * link k−1. A link with no mass (no degrees of freedom, or T = 0) feels no force, which leaves the
 * thermostat inert rather than dividing by zero.
 */
HD double chainForce(int k, const double* velocity, double twoKE, const ChainConstants& constants) {
  if (k == 0) return constants.q1 > 0.0 ? (twoKE - constants.targetTwoKE) / constants.q1 : 0.0;
  const double previousMass = k == 1 ? constants.q1 : constants.q;
  return constants.q > 0.0 ? (previousMass * velocity[k - 1] * velocity[k - 1] - constants.kT) / constants.q : 0.0;
}

/** v_ξk ← (v_ξk·e + G·dt/4)·e with e = exp(−v_ξ(k+1)·dt/8): one quarter-step of link k. */
HD void chainQuarterStep(int k, int length, double* velocity, double force, double dt) {
  const double damping = exp(-0.125 * dt * (k + 1 < length ? velocity[k + 1] : 0.0));
  velocity[k] = (velocity[k] * damping + 0.25 * dt * force) * damping;
}

/**
 * Advances the chain positions ξ and velocities v_ξ (`length` links each) by dt/2 for a system whose
 * kinetic energy is twoKE/2, and returns the velocity scale factor exp(−v_ξ1·dt/2).
 */
HD double chainHalfStep(double* position, double* velocity, int length, double twoKE, const ChainConstants& constants) {
  const double dt = constants.dt;
  for (int k = length - 1; k >= 0; --k) {
    chainQuarterStep(k, length, velocity, chainForce(k, velocity, twoKE, constants), dt);
  }
  const double scale = exp(-0.5 * dt * velocity[0]);
  twoKE *= scale * scale;
  for (int k = 0; k < length; ++k) position[k] += 0.5 * dt * velocity[k];
  for (int k = 0; k < length; ++k) {
    chainQuarterStep(k, length, velocity, chainForce(k, velocity, twoKE, constants), dt);
  }
  return scale;
}

/** The thermostat's energy Σ ½Q_k v_ξk² + dof·kB·T·ξ1 + Σ_{k≥2} kB·T·ξk; added to E_pot + E_kin it is conserved. */
HD double chainEnergy(const double* position, const double* velocity, int length, const ChainConstants& constants) {
  double energy = 0.5 * constants.q1 * velocity[0] * velocity[0] + constants.targetTwoKE * position[0];
  for (int k = 1; k < length; ++k) {
    energy += 0.5 * constants.q * velocity[k] * velocity[k] + constants.kT * position[k];
  }
  return energy;
}

/** v ← scale·v for one atom. */
HD void scaleVelocity(double* velocity, double scale) {
  for (int c = 0; c < 3; ++c) velocity[c] *= scale;
}

}  // namespace hookmd
