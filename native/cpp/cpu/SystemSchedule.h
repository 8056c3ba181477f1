// How the CPU force kernels (pair potentials, EAM) spread a batch over the thread pool, written once: small
// systems one per task; a system with at least kParallelAtoms atoms and more than a thread's share of the
// batch alone, with every thread, its owners cut into one group per thread with equal pair counts (a group
// may begin inside a neighbor chunk). Each group accumulates into its own buffer over the atoms its chunks
// touch, and the buffers are added in group order: results depend on the thread count only in the last
// bits of a large system's forces (docs/performance.md). The kernels also share the last steps of a
// system: energy, virial and stress, and the positions their lists run on.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/BatchStorage.h"
#include "core/ThreadPool.h"
#include "kernels/PairForceKernel.h"
#include "neighbor/NeighborCache.h"
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

/**
 * One system's owners in one group per thread: contiguous runs of owner slots with equal pair counts, up to
 * one owner's pairs. Cut at whole chunks instead, in.lj's 32,000 atoms (31¼ chunks) gave one of 2 threads
 * 2.4% more pairs than the other, and the step waited for it.
 */
struct ChunkGroups {
  /** Group g takes owner slots [firstSlot[g], firstSlot[g + 1]), which begin in chunk firstChunk[g]. */
  std::vector<std::size_t> firstChunk;
  std::vector<std::int32_t> firstSlot;
  /** The atoms group g's chunks touch, as atom blocks (NeighborChunk::atomBlocks). */
  std::vector<std::uint64_t> blocks;
  /** Atoms per block, as a shift (SystemNeighborList::atomBlockShift), and the system's atom count. */
  int blockShift = 0;
  std::int64_t atoms = 0;

  int count() const { return static_cast<int>(blocks.size()); }

  /** Calls fn(from, to) for each run of atoms in [lo, hi) that the blocks of `mask` cover. */
  template <class Fn>
  void forEachRun(std::uint64_t mask, std::int64_t lo, std::int64_t hi, Fn&& fn) const {
    while (mask != 0) {
      const int first = __builtin_ctzll(mask);
      const std::uint64_t rest = mask >> first;
      const int length = rest == ~std::uint64_t{0} ? 64 - first : __builtin_ctzll(~rest);
      const std::int64_t from = std::max(lo, static_cast<std::int64_t>(first) << blockShift);
      const std::int64_t to = std::min({hi, atoms, static_cast<std::int64_t>(first + length) << blockShift});
      if (from < to) fn(from, to);
      mask = first + length >= 64 ? 0 : mask & (~std::uint64_t{0} << (first + length));
    }
  }
};

/** The groups of `list` for `groups` threads; fixed for a given list. */
ChunkGroups groupChunks(const SystemNeighborList& list, int groups);

/** Calls fn(chunk index, slotBegin, slotEnd) for each chunk of group g, with the part of its owner slots in g. */
template <class Fn>
void forEachGroupPiece(const SystemNeighborList& list, const ChunkGroups& groups, int g, Fn&& fn) {
  for (std::size_t c = groups.firstChunk[g]; c < list.chunks.size(); ++c) {
    const NeighborChunk& chunk = list.chunks[c];
    if (chunk.ownerBegin >= groups.firstSlot[g + 1]) break;
    const std::int32_t begin = std::max(chunk.ownerBegin, groups.firstSlot[g]);
    const std::int32_t end = std::min(chunk.ownerEnd, groups.firstSlot[g + 1]);
    if (begin < end) fn(c, begin, end);
  }
}

/**
 * Zeroes the part of `buffer` (`stride` values per atom) that group g's chunks touch. Each group zeroes its
 * own part inside its task, so the thread that then accumulates there already holds those cache lines.
 */
inline void zeroGroupRange(const ChunkGroups& groups, int g, double* buffer, int stride) {
  groups.forEachRun(groups.blocks[g], 0, groups.atoms,
                    [&](std::int64_t from, std::int64_t to) { std::fill(buffer + stride * from, buffer + stride * to, 0.0); });
}

/**
 * Completes `out` (`stride` values per atom), into which group 0 accumulated over the atoms it touched after
 * zeroing only those (zeroGroupRange): the other atoms start from zero, and each group g > 0's buffer
 * (bufferOf(g)) is added over the atoms it touched, in group order, on the pool's threads.
 */
template <class BufferOf>
void addGroupBuffers(const ChunkGroups& groups, std::int64_t count, double* out, int stride, BufferOf&& bufferOf) {
  ThreadPool::global().parallelFor(0, count, kAtomsPerTask, [&](std::int64_t lo, std::int64_t hi, int) {
    groups.forEachRun(~groups.blocks[0], lo, hi,
                      [&](std::int64_t from, std::int64_t to) { std::fill(out + stride * from, out + stride * to, 0.0); });
    for (int g = 1; g < groups.count(); ++g) {
      const double* buffer = bufferOf(g);
      groups.forEachRun(groups.blocks[g], lo, hi, [&](std::int64_t from, std::int64_t to) {
        for (std::int64_t k = stride * from; k < stride * to; ++k) out[k] += buffer[k];
      });
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

/**
 * Brings system s's list up to date (NeighborCache::update) and returns the positions it runs on: the
 * system's own, or wrapped into its cell in `wrapped` when it needs that. When the list stays, its skin check
 * writes the wrapped positions on the way.
 */
const double* updateListPositions(NeighborCache& neighbors, std::int64_t s, const BatchStorage& storage, NeighborScratch& scratch,
                                  std::vector<double>& wrapped);

}  // namespace hookmd
