// Launchers of the Nosé–Hoover chain phases on the device, as dynamics/NoseHooverChain.cpp takes them on
// the host: the chain half step needs each system's kinetic energy, so each phase is a per-system program
// (CudaSystemProgram.cuh) around math/NoseHooverChainUpdate.h. Declarations only; the programs live in
// CudaNoseHooverSteps.cu.
#pragma once

#include <cuda_runtime_api.h>

#include "cuda/dynamics/CudaSystemProgram.cuh"
#include "cuda/dynamics/StepSelection.h"

namespace hookmd::kernel {

/** One system's thermostat parameters. */
struct ChainSystem {
  double dt;
  double temperature;
  double tdamp;
};

struct NoseHooverArgs {
  SystemLayout layout;
  SystemSelection selection;
  /** Written by the preUpdate only (null in the postUpdate). */
  double* d_positions;
  double* d_velocities;
  const double* d_forces;
  const double* d_masses;
  const ChainSystem* d_systems;
  /** numSystems rows of 2·chainLength + 1: ξ1..ξM, v_ξ1..v_ξM, E_thermostat (NoseHooverChain.h). */
  double* d_rows;
  int chainLength;
  double kB;
  double forceToAccel;
  /** Frozen atoms per system (math/DegreesOfFreedom.h), or null when none is frozen. */
  const std::int32_t* d_frozen;
};

/** Chain half step, velocity scaling, half kick and drift. */
cudaError_t noseHooverPre(const NoseHooverArgs& args);
/** Half kick with the new forces, chain half step, velocity scaling. */
cudaError_t noseHooverPost(const NoseHooverArgs& args);

}  // namespace hookmd::kernel
