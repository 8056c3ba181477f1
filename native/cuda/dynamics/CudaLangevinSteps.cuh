// Launcher of the Langevin preUpdate (B, A, O, A of BAOAB) on the device, as dynamics/Langevin.cpp takes it
// on the host: the O step's noise is made momentum-free per system (a sum over the system's atoms), so the
// step is a per-system program (CudaSystemProgram.cuh) around math/LangevinUpdate.h and the Philox noise of
// math/CounterRandom.h, which cpu and cuda draw identically. Declarations only; the program lives in
// CudaLangevinSteps.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda/dynamics/CudaSystemProgram.cuh"
#include "cuda/dynamics/StepSelection.h"

namespace hookmd::kernel {

/** One system's Langevin thermostat: the O step's c1, c2 (math/LangevinUpdate.h), and the noise seed. */
struct LangevinSystem {
  double temperature;
  double c1;
  double c2;
  std::uint64_t seed;
};

struct LangevinArgs {
  SystemLayout layout;
  SystemSelection selection;
  double* d_positions;
  double* d_velocities;
  const double* d_forces;
  const double* d_masses;
  /** The time step of each system. */
  const double* d_dt;
  const std::int32_t* d_systemId;
  const LangevinSystem* d_systems;
  /** Frozen atoms per system, or null when none is frozen: a system with frozen atoms keeps its noise as drawn. */
  const std::int32_t* d_frozen;
  double kB;
  double forceToAccel;
  /** The step being taken: part of the noise counter. */
  std::int64_t step;
};

/** B, A, O (with momentum-free noise), A of BAOAB: Langevin's preUpdate. */
cudaError_t langevinBaoab(const LangevinArgs& args);

}  // namespace hookmd::kernel
