// Stochastic cell rescaling (Bernetti & Bussi, J. Chem. Phys. 153, 114107 (2020)), isotropic, for one system:
// the logarithm of the volume, ε = ln V, takes one Euler–Maruyama step of
//   dε = −(β_T/τ_p)·(P₀ − P − k_B·T/V)·dt + √(2·k_B·T·β_T·dt/(V·τ_p))·R,
// and the system is scaled by μ = exp(dε/3): positions and cell by μ, velocities by 1/μ.
#pragma once

#include <cmath>

#include "core/HostDevice.h"

namespace hookmd {

/** The barostat's fixed quantities for one system. */
struct CRescaleConstants {
  /** Target pressure P₀ (energy/volume). */
  double pressure;
  /** Isothermal compressibility β_T (volume/energy). */
  double compressibility;
  /** Relaxation time τ_p. */
  double tau;
  double kT;
  double dt;
};

/** μ for a system of volume V at pressure P, with the standard normal deviate `noise`. */
HD double cRescaleFactor(double pressure, double volume, double noise, const CRescaleConstants& c) {
  const double rate = c.compressibility / c.tau;
  const double drift = -rate * (c.pressure - pressure - c.kT / volume) * c.dt;
  const double diffusion = sqrt(2.0 * c.kT * rate * c.dt / volume) * noise;
  return exp((drift + diffusion) / 3.0);
}

}  // namespace hookmd
