// How the CPU force kernels (pair potentials, EAM) spread a batch over the thread pool, written once: small
// systems one per task; a system with at least kParallelAtoms atoms and more than a thread's share of the
// batch alone, with every thread, its neighbor chunks cut into one group per thread. Each group accumulates
// into its own buffer over the atoms its chunks touch, and the buffers are added in group order, so results
// never depend on the thread count. The kernels also share the last steps of a system: energy, virial and
// stress, and the positions their lists run on.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/BatchStorage.h"
#include "core/ThreadPool.h"
#include "kernels/PairForceKernel.h"
#include "neighbor/NeighborList.h"

namespace hookmd {

/**
 * A system runs alone, parallel over its atoms, when it has at least this many atoms (below it the
 * threads' overhead exceeds the gain; measured, bench/RESULTS.md) and more than a thread's share of the
 * batch (otherwise the per-system schedule already keeps every thread busy).
 */
constexpr std::int32_t kParallelAtoms = 1024;

/** Atoms per task of the per-atom loops that add group buffers. */
constexpr std::int64_t kAtomsPerTask = 4096;

/**
 * Calls small(s, thread) for every wanted system (all when `wanted` is null) that does not run alone, on the
 * pool's threads, then large(s) for each one that does, one after another.
 */
template <class Small, class Large>
void scheduleSystems(const BatchStorage& storage, const std::uint8_t* wanted, Small&& small, Large&& large) {
  ThreadPool& pool = ThreadPool::global();
  const int threads = pool.threads();
  const std::int32_t* ptr = storage.i32(Field::Ptr);
  const std::int64_t share = storage.numAtoms() / threads;
  auto alone = [&](std::int64_t s) {
    const std::int64_t count = ptr[s + 1] - ptr[s];
    return threads > 1 && count >= kParallelAtoms && count > share;
  };
  auto isWanted = [&](std::int64_t s) { return wanted == nullptr || wanted[s] != 0; };
  const std::int64_t systems = storage.numSystems();
  pool.parallelFor(0, systems, 1, [&](std::int64_t lo, std::int64_t hi, int thread) {
    for (std::int64_t s = lo; s < hi; ++s) {
      if (isWanted(s) && !alone(s)) small(s, thread);
    }
  });
  for (std::int64_t s = 0; s < systems; ++s) {
    if (isWanted(s) && alone(s)) large(s);
  }
}

/** One system's neighbor chunks in one group per thread: contiguous runs with about equal pair counts. */
struct ChunkGroups {
  /** Group g takes chunks [firstChunk[g], firstChunk[g + 1]). */
  std::vector<std::size_t> firstChunk;
  /** The atoms [low[g], high[g]) that group g's chunks touch (a slab, when atoms are numbered in space). */
  std::vector<std::int64_t> low;
  std::vector<std::int64_t> high;

  int count() const { return static_cast<int>(low.size()); }
};

/** The groups of `list` for `groups` threads; fixed for a given list. */
ChunkGroups groupChunks(const SystemNeighborList& list, int groups);

/**
 * Adds each group g > 0's buffer (`stride` values per atom, bufferOf(g)) into `out` over the atoms it
 * touched, in group order, on the pool's threads.
 */
template <class BufferOf>
void addGroupBuffers(const ChunkGroups& groups, std::int64_t count, double* out, int stride, BufferOf&& bufferOf) {
  ThreadPool::global().parallelFor(0, count, kAtomsPerTask, [&](std::int64_t lo, std::int64_t hi, int) {
    for (int g = 1; g < groups.count(); ++g) {
      const double* buffer = bufferOf(g);
      const std::int64_t to = stride * std::min(hi, groups.high[g]);
      for (std::int64_t k = stride * std::max(lo, groups.low[g]); k < to; ++k) out[k] += buffer[k];
    }
  });
}

/** What one compute of a force kernel works on, handed to each system's evaluation. */
struct ForcePass {
  BatchStorage& storage;
  const ComputeRequest& request;
  /** Species type of each atom of the batch (null when the kernel needs none). */
  const std::uint8_t* types;
  /** 9 virial values per system, filled when request.stress. */
  std::vector<double>& virial;
};

/** Energy and virial sums of one system, or of one group of its chunks. */
struct SystemSums {
  double energy = 0.0;
  /** xx, yy, zz, xy, xz, yz of W = Σ d⊗F. */
  double virial[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};

  void add(const SystemSums& other);
};

/**
 * Writes system s's energy and, when `stress`, its virial W (9 values into `virialOut`) and stress
 * σ = −W/V (zeros for a cell without volume: a cluster has no stress).
 */
void finishSystem(BatchStorage& storage, std::int64_t s, const SystemSums& sums, bool stress, std::vector<double>& virialOut);

/** The positions `list` runs on: the system's own, or wrapped into its cell in `wrapped` when it needs that. */
const double* listPositions(const SystemNeighborList& list, const BatchStorage& storage, std::vector<double>& wrapped);

}  // namespace hookmd
