// The Martyna–Tobias–Klein barostat (J. Chem. Phys. 101, 4177 (1994)) for one system with an orthorhombic
// cell, written as LAMMPS fix npt integrates it (fix_nh.cpp: nh_omega_dot, nh_v_press, remap; iso and aniso,
// mtk yes, no drag). ω̇_i is the strain rate of axis i; its mass is W = (N + 1)·kB·T·pdamp².
#pragma once

#include <cmath>

#include "core/HostDevice.h"

namespace hookmd {

/** The barostat's fixed quantities for one system and step. */
struct BarostatConstants {
  /** Target pressure (energy/volume). */
  double pressure;
  /** W = (N + 1)·kB·T·pdamp². */
  double mass;
  /** The number of atoms N. */
  double atoms;
  double dt;
};

/**
 * Current pressure per axis, P_i = (Σ m v_i² + W_ii)/V, from the kinetic tensor's diagonal (energy units) and
 * the stress σ = −W/V; `iso` uses the mean of the three for every axis, as LAMMPS couples xyz.
 */
HD void axisPressures(const double* twiceKineticDiagonal, const double* stress, double volume, bool iso, double* out) {
  for (int i = 0; i < 3; ++i) out[i] = twiceKineticDiagonal[i] / volume - stress[4 * i];
  if (iso) {
    const double mean = (out[0] + out[1] + out[2]) / 3.0;
    for (int i = 0; i < 3; ++i) out[i] = mean;
  }
}

/**
 * nh_omega_dot: ω̇_i += dt/2·((P_i − P_target)·V + 2·KE/(3N)) / W for each axis; returns LAMMPS's mtk_term2,
 * Σ ω̇_i/(3N), which couples the strain rate back into the particle velocities.
 */
HD double barostatKick(double* omegaDot, const double* pressure, double volume, double twoKE, const BarostatConstants& c) {
  const double mtk1 = twoKE / (3.0 * c.atoms);
  double sum = 0.0;
  for (int i = 0; i < 3; ++i) {
    omegaDot[i] += 0.5 * c.dt * ((pressure[i] - c.pressure) * volume + mtk1) / c.mass;
    sum += omegaDot[i];
  }
  return sum / (3.0 * c.atoms);
}

/** nh_v_press's factor for axis i: v_i ← v_i·exp(−dt/2·(ω̇_i + mtk2)). */
HD double barostatVelocityScale(double omegaDot, double mtk2, double dt) {
  return exp(-0.5 * dt * (omegaDot + mtk2));
}

/** remap's factor for axis i over half a step: the box length and the atoms' coordinates grow by exp(dt/2·ω̇_i). */
HD double barostatBoxScale(double omegaDot, double dt) {
  return exp(0.5 * dt * omegaDot);
}

}  // namespace hookmd
