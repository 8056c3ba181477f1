// Kernels of a resident chunk (cuda/kernels/CudaResidentChunk.h; docs/cuda.md, "Resident chunks"): the status
// reset, the fused kick + drift + skin check that raises the step's rebuild condition, and the flag reset
// that closes a rebuild of the stale systems. The force + closing kick is the pair loop with a ClosingKick
// (CudaPairForces.cuh); the rebuild's bins and search are CudaNeighborList.cuh's with SystemArrays::staleOnly.
// Declarations only: the kernels live in CudaResidentSteps.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda/neighbor/CudaNeighborList.cuh"

namespace hookmd::kernel {

/** The block a chunk reads back once (kResidentStatusBytes): the neighbor status, then the rebuild counts. */
struct ResidentStatus {
  NeighborStatus neighbor;
  /** Rebuilds the chunk ran (each step whose check found a stale system), and the systems they rebuilt. */
  unsigned long long passes;
  unsigned long long systemsRebuilt;
};

struct ResidentStepArgs {
  /** Every system (no selection); d_status is the chunk's ResidentStatus::neighbor. */
  SystemArrays systems;
  const std::int32_t* d_slotAtom;
  const std::int32_t* d_wrap;
  /** Species type per atom, or null (one type). */
  const std::uint8_t* d_types;
  SlotPosition* d_slotPositions;
  const SlotPosition* d_reference;
  double* d_positions;
  double* d_velocities;
  const double* d_forces;
  const double* d_masses;
  /** The time step per system. */
  const double* d_dt;
  double forceToAccel;
  /** (skin / 2)². */
  double limitSq;
};

/** Writes the chunk's initial status (no error, no rebuild, no non-finite system). */
cudaError_t residentReset(ResidentStatus* d_status);

/**
 * Per slot: VelocityVerlet's half kick and drift of its atom, its slot position, and the skin check: a
 * displacement beyond skin/2 marks the system stale, and the first such slot sets `rebuild` to 1.
 */
cudaError_t residentKickDriftCheck(const ResidentStepArgs& args, cudaGraphConditionalHandle rebuild);

/** After a rebuild of the stale systems: counts them and the pass, clears their marks and the step's rebuild guard. */
cudaError_t residentRebuilt(const SystemArrays& systems, ResidentStatus* d_status);

}  // namespace hookmd::kernel
