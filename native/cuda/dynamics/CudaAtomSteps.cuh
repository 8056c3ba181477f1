// Launchers of the integrator phases that update each atom on its own (velocity Verlet, and the final kick of
// Langevin): one thread per atom, the math of math/VelocityVerletUpdate.h. Declarations only; the kernels
// live in CudaAtomSteps.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda/dynamics/StepSelection.h"

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

/** v += dt/2·a, then x += dt·v (velocity Verlet's preUpdate). */
cudaError_t verletKickDrift(const AtomStepArgs& args);
/** v += dt/2·a (the postUpdate of velocity Verlet and of Langevin). */
cudaError_t verletKick(const AtomStepArgs& args);

}  // namespace hookmd::kernel
