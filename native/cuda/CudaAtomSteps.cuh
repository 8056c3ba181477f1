// Launchers of the integrator phases that update each atom on its own (velocity Verlet and BAOAB
// Langevin): one thread per atom, the math of math/VelocityVerletUpdate.h and math/LangevinUpdate.h, and
// the Philox noise of math/CounterRandom.h, so cpu and cuda draw identical noise. Declarations only; the
// kernels live in CudaAtomSteps.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda/StepSelection.h"

namespace hookmd::kernel {

struct AtomStepArgs {
  std::int64_t numAtoms;
  const std::int32_t* d_systemIndex;
  SystemSelection selection;
  /** Written by the phases that drift; null for verletKick. */
  double* d_positions;
  double* d_velocities;
  const double* d_forces;
  const double* d_masses;
  double forceToAccel;
  /** The time step of each system. */
  const double* d_dt;
};

/** One system's Langevin thermostat: the O step's c1, c2 (math/LangevinUpdate.h), and the noise seed. */
struct LangevinSystem {
  double temperature;
  double c1;
  double c2;
  std::uint64_t seed;
};

struct LangevinStepArgs {
  AtomStepArgs atoms;
  const std::int32_t* d_ptr;
  const std::int32_t* d_systemId;
  const LangevinSystem* d_systems;
  double kB;
  /** The step being taken: part of the noise counter. */
  std::int64_t step;
};

/** v += dt/2·a, then x += dt·v (velocity Verlet's preUpdate). */
cudaError_t verletKickDrift(const AtomStepArgs& args);
/** v += dt/2·a (the postUpdate of velocity Verlet and of Langevin). */
cudaError_t verletKick(const AtomStepArgs& args);
/** B, A, O, A of BAOAB (Langevin's preUpdate). */
cudaError_t langevinBaoab(const LangevinStepArgs& args);

}  // namespace hookmd::kernel
