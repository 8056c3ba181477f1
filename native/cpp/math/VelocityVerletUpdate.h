// Per-atom velocity Verlet updates, shared by CPU loops and CUDA kernels. `accel` = forceToAccel / mass
// converts a force into an acceleration in the batch's units.
#pragma once

#include "core/HostDevice.h"

namespace hookmd {

/** v += (dt/2) · F · accel */
HD void halfKick(double* velocity, const double* force, double accel, double halfDt) {
  for (int c = 0; c < 3; ++c) velocity[c] += halfDt * force[c] * accel;
}

/** x += dt · v */
HD void drift(double* position, const double* velocity, double dt) {
  for (int c = 0; c < 3; ++c) position[c] += dt * velocity[c];
}

}  // namespace hookmd
