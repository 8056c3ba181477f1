// Maxwell–Boltzmann velocities drawn from the counter-based noise of math/CounterRandom.h, so that a system's
// draw depends only on the seed, its system id and its atoms' order within it: never on the thread count or
// on where the system sits in the batch.
#pragma once

#include <cstdint>

#include "core/HostDevice.h"
#include "math/CounterRandom.h"

namespace hookmd {

/**
 * The counter step of the initial draw. Thermostats count steps from 0 upwards, so no thermostat ever draws
 * these numbers, even with the same seed.
 */
constexpr std::int64_t kInitialVelocityStep = -1;

/**
 * One atom's velocity: each component normal with variance kB·T·forceToAccel/m (length²/time² in the batch's
 * units). `atom` is the atom's index within its system.
 */
HD void maxwellBoltzmannVelocity(std::uint64_t seed, std::uint32_t systemId, std::uint32_t atom, double kT, double forceToAccel,
                                 double mass, double* velocity) {
  double normals[3];
  atomGaussian3(seed, systemId, kInitialVelocityStep, atom, normals);
  const double sigma = sqrt(kT * forceToAccel / mass);
  for (int c = 0; c < 3; ++c) velocity[c] = sigma * normals[c];
}

}  // namespace hookmd
