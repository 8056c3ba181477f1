// The launch layout of the per-system integrator programs (FIRE, FIRE2, gradient descent, the Nosé–Hoover
// chain): steps that alternate per-atom work with sums over a system's atoms and a per-system update.
// Declarations only; the engine that runs a program lives in CudaSystemProgram.cu.inc.
//
// Two paths, chosen by the largest system of the batch:
// - one block per system (every system ≤ kSingleBlockAtoms atoms): the whole step in one launch, the
//   per-system values in shared memory;
// - chunks of kChunkAtoms atoms, each a block (some system is larger): per-atom passes over chunks write
//   per-chunk partial sums, and one block per system folds them and updates the system, so a 1M-atom system
//   uses the whole GPU.
// Both fold fixed-order trees (no floating-point atomics), so a step gives the same bits on every run.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hookmd::kernel {

/** The largest system the one-block-per-system path takes. */
constexpr std::int64_t kSingleBlockAtoms = 4096;
/** Atoms per chunk on the chunked path (a system's last chunk may be shorter). */
constexpr int kChunkAtoms = 2048;
/** Sums a program takes per pass, at most. */
constexpr int kMaxSums = 3;
/** Device bytes per system for the chunked path's per-system values (a program's System plus a flag). */
constexpr std::size_t kScratchBytes = 128;

struct SystemLayout {
  /** System s owns atoms [d_ptr[s], d_ptr[s + 1]). */
  const std::int32_t* d_ptr;
  std::int64_t numSystems;
  /** The largest system's atom count: picks the path and the block size. */
  std::int64_t maxAtoms;
  // Chunked path only (maxAtoms > kSingleBlockAtoms), else null / 0:
  std::int64_t numChunks;
  /** numChunks entries: the system of each chunk. */
  const std::int32_t* d_chunkSystem;
  /** numSystems + 1 entries: system s owns chunks [d_firstChunk[s], d_firstChunk[s + 1]). */
  const std::int32_t* d_firstChunk;
  /** numSystems × kScratchBytes. */
  void* d_scratch;
  /** numChunks × kMaxSums. */
  double* d_partials;
};

}  // namespace hookmd::kernel
