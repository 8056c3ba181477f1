// The degrees of freedom a system's temperature counts, T = 2·KE/(dof·k_B), written once for the thermostats
// (CPU and CUDA) and mirrored by lib/dynamics/degrees-of-freedom.ts for what JS reports (docs/dynamics.md,
// "Temperature"):
// - no frozen atoms: dof = 3N − 3. The dynamics conserve the total momentum (the Langevin noise too), which
//   initial velocities start at zero, so the centre of mass holds no thermal energy: LAMMPS's `compute temp`;
// - frozen atoms: dof = 3·(N − frozen). Frozen atoms exchange momentum with the mobile ones, so every mobile
//   coordinate is thermal: ASE's get_temperature with FixAtoms. FixCom beside them holds the mobile centre,
//   3 more: the stepper counts it as one more frozen atom, so this reads 3·N_mobile − 3 (ASE's FixAtoms +
//   FixCom).
// A system left with no degree of freedom (one atom, or all frozen) has temperature 0, as in LAMMPS.
#pragma once

#include <cstdint>

#include "core/HostDevice.h"

namespace hookmd {

HD double degreesOfFreedom(std::int64_t atoms, std::int64_t frozen) {
  const double dof = frozen > 0 ? 3.0 * static_cast<double>(atoms - frozen) : 3.0 * static_cast<double>(atoms) - 3.0;
  return dof > 0.0 ? dof : 0.0;
}

}  // namespace hookmd
