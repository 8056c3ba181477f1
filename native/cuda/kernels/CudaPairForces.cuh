// Launchers of the GPU pair loop and its per-system sums (docs/cuda.md). Declarations only: the kernels,
// templated on the evaluators of native/cpp/math, live in CudaPairForces.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda/neighbor/CudaNeighborList.cuh"
#include "math/SmoothSwitch.h"

namespace hookmd::kernel {

/** The closing half kick of a resident chunk's step (cuda/kernels/CudaResidentChunk.h), given by the thread that owns the atom's force. */
struct ClosingKick {
  /** Velocities[N×3]; null: no kick. */
  double* d_velocities = nullptr;
  const double* d_masses = nullptr;
  /** The time step per system. */
  const double* d_dt = nullptr;
  double forceToAccel = 0.0;
};

struct PairForceArgs {
  SystemArrays systems;
  const SlotPosition* d_slotPositions;
  const std::int32_t* d_slotAtom;
  /** The full list of searchNeighbors: entry k of slot p at k · numAtoms + p. */
  const std::uint32_t* d_neighbors;
  const std::int32_t* d_neighborCount;
  /** A PairEvaluator as int (kernels/PairForceKernel.h). */
  int evaluator;
  int numTypes;
  /** numTypes² evaluator parameter structs, (a, b) at a · numTypes + b. */
  const void* d_params;
  /** numTypes² switches, or null when no pair is switched. */
  const SwitchParams* d_switches;
  bool virial;
  /** Forces[N×3] in atom order, or null when forces are not requested. */
  double* d_forces;
  /**
   * Per slot, half its pair energy and (with virial) half its pair virial xx, yy, zz, xy, xz, yz: component
   * c of slot p at c · numAtoms + p. Halves, because the full list holds every pair twice.
   */
  double* d_slotSums;
  /**
   * The per-system sums are deferred (DevicePairSchedule::defersSums): the loop itself marks a system whose
   * slot energy is not finite in the status block, as the sums would (a sum of finite slot energies that
   * overflows is the one case only the sums would catch).
   */
  bool flagNonFinite;
  /** With velocities, each thread kicks its atom by the force it just wrote (d_forces must be set). */
  ClosingKick kick = {};
};

/** At most this many slots of one system per first-level sum. */
constexpr std::int32_t kSumSegmentSlots = 512;

/** A run of one system's slots, summed by one warp. */
struct SumSegment {
  std::int32_t begin;
  std::int32_t end;
  std::int32_t system;
};

struct SystemSumArgs {
  SystemArrays systems;
  const double* d_slotSums;
  bool virial;
  const SumSegment* d_segments;
  std::int64_t numSegments;
  /** numSystems + 1 offsets: system s owns segments [d_segmentOffset[s], d_segmentOffset[s + 1]). */
  const std::int32_t* d_segmentOffset;
  /** numSegments × 7 partial sums. */
  double* d_segmentSums;
  const double* d_cell;
  double* d_energy;
  /** Stress[B×9] and the virial W (B×9; zeros for systems not evaluated), or null without virial. */
  double* d_stress;
  double* d_virial;
};

/** Forces of every wanted slot's atom and its halves of energy and virial. */
cudaError_t pairForces(const PairForceArgs& args);

/**
 * Energy, virial and stress of every wanted system (σ = (0 − W)/V where the cell has volume, else 0), as
 * fixed-order sums: the same bits on every run.
 */
cudaError_t systemSums(const SystemSumArgs& args);

}  // namespace hookmd::kernel
