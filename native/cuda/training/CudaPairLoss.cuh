// Launchers of the force-matching loss on the GPU (docs/cuda.md): the forward pass (energy, forces, virial)
// and the backward pass (∂L/∂θ) over the static neighbor lists of a bound training set. Each pass runs one
// block per chunk of at most kLossChunkAtoms atoms of one listed system (a small system is one block), sums
// in a fixed order inside the block, then adds each system's chunks in chunk order. Declarations only: the
// kernels, templated on the evaluators of native/cpp/math, live in CudaPairLoss.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "math/SmoothSwitch.h"

namespace hookmd::kernel {

/** Atoms of one listed system that one block walks. */
constexpr std::int32_t kLossChunkAtoms = 1024;
/** Largest block; a set whose systems are all smaller gets the smallest power of two ≥ 32 that covers them. */
constexpr int kLossMaxThreads = 128;
/** Parameters one backward block accumulates (in shared memory, one column per thread). */
constexpr int kLossGroupParams = 32;

/** One system of the bound set. */
struct LossSystem {
  /** Its first atom, in the set's numbering. */
  std::int64_t atomBegin;
  /** Its first shift vector in LossSet::d_shifts. */
  std::int64_t shiftBegin;
  std::int32_t atomCount;
  /** An entry packs the partner's local index above imageBits bits of image index. */
  std::int32_t imageBits;
  std::uint32_t imageMask;
};

/**
 * The bound set, uploaded once. Atom a's row [d_rowStart[a], d_rowStart[a + 1]) first holds the pairs it
 * owns in the CPU's half list (d_rowOwned[a] of them), then the pairs owned by a partner, seen from the
 * partner's side: every pair appears in both rows, and both evaluate it with the CPU's d = x_j + shift − x_i.
 */
struct LossSet {
  const LossSystem* d_systems;
  /** Wrapped positions, 3 per atom. */
  const double* d_positions;
  /** Species type per atom, or null for one type. */
  const std::uint8_t* d_types;
  const std::int64_t* d_rowStart;
  const std::int32_t* d_rowOwned;
  /** (partner << imageBits) | image: the CPU list's packing. */
  const std::uint32_t* d_entries;
  /** The lattice shift of each image, 3 per image, each system's table from its shiftBegin. */
  const double* d_shifts;
};

/** The pair term at the current θ. */
struct LossParams {
  /** A PairEvaluator as int (kernels/PairForceKernel.h). */
  int evaluator;
  int numTypes;
  int numRows;
  int paramsPerPair;
  /** numTypes² evaluator parameter structs, (a, b) at a · numTypes + b. */
  const void* d_table;
  /** numTypes² switches, or null when no pair is switched. */
  const SwitchParams* d_switches;
  /** Row of each table slot. */
  const std::int32_t* d_rowOfSlot;
  /** θ, paramsPerPair values per row. */
  const double* d_theta;
  /** ∂e(r_c)/∂θ per row, or null when the potential is not shifted. */
  const double* d_shiftGradient;
};

/** Atoms [begin, end) (local numbering) of listed system `item`. */
struct LossChunk {
  /** Where the item's atom 0 sits in the forward's force layout, in atoms. */
  std::int64_t forceAtom;
  std::int32_t item;
  std::int32_t system;
  std::int32_t begin;
  std::int32_t end;
};

/** The listed systems of one forward, cut into chunks. */
struct LossBatch {
  const LossChunk* d_chunks;
  std::int64_t numChunks;
  /** count + 1 offsets: item k owns chunks [d_chunkOffset[k], d_chunkOffset[k + 1]). */
  const std::int32_t* d_chunkOffset;
  std::int64_t count;
  /** Threads per block: a power of two in [32, kLossMaxThreads]. */
  int threads;
};

struct LossForwardArgs {
  LossSet set;
  LossParams params;
  LossBatch batch;
  /** Forces of every listed system, in the forward's layout. */
  double* d_forces;
  /** 7 per chunk: energy, then virial xx, yy, zz, xy, xz, yz. */
  double* d_chunkSums;
  /** 7 per item, laid out as d_chunkSums. */
  double* d_results;
};

struct LossBackwardArgs {
  LossSet set;
  LossParams params;
  LossBatch batch;
  /** a_E, a_F, a_S per item. */
  const double* d_coefficients;
  /** ΔF in the forward's force layout, and Δσ, 9 per item. */
  const double* d_deltaForces;
  const double* d_deltaStress;
  /** numRows · paramsPerPair per chunk, then per item. */
  double* d_chunkGradients;
  double* d_gradients;
};

/** Energy, forces and virial of every listed system. */
cudaError_t lossForward(const LossForwardArgs& args);

/** Each listed system's ∂L/∂θ (zeros for an item whose three coefficients are 0). */
cudaError_t lossBackward(const LossBackwardArgs& args);

}  // namespace hookmd::kernel
