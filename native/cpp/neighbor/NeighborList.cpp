#include "neighbor/NeighborList.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>
#include <utility>

#include "core/CpuFeatures.h"
#include "core/Error.h"
#include "core/ThreadPool.h"
#include "neighbor/BinGrid.h"
#include "neighbor/CandidateScan.h"

namespace hookmd {

namespace {
constexpr std::int64_t kAtomsPerTask = 4096;
/**
 * Blocks of atoms the counting sort of a build counts and places in parallel, at most: each has a count per
 * bin in scratch (4 bytes × bins: about 1.5 bytes per atom in a dense liquid, at most 8 where bins are
 * sparse), so more blocks would cost memory for little.
 */
constexpr std::int64_t kSortBlocks = 4;
/** Owner slots the skin check measures between two looks at whether another thread already found a mover. */
constexpr std::int64_t kSkinCheckBlock = 256;

/** A run of consecutive slots (neighbor bins of the current bin) and the lattice image they stand for. */
struct Target {
  std::int32_t slotBegin;
  std::int32_t slotEnd;
  std::uint32_t image;
  const double* shift;
};

/** ⌊a / b⌋ for b > 0; bin offsets are mostly within one period, which needs no division. */
int floorDiv(int a, int b) {
  if (a >= 0 && a < b) return 0;
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/** The bin of the atom at x, and the lattice translation `wrap` that brings it into the cell. */
std::int64_t locate(const BinGrid& grid, const double* x, int* wrap) {
  int bin[3];
  for (int k = 0; k < 3; ++k) {
    double s = x[0] * grid.inverse[k] + x[1] * grid.inverse[3 + k] + x[2] * grid.inverse[6 + k];
    wrap[k] = 0;
    if (grid.periodic[k]) {
      const double whole = std::floor(s);
      if (!(std::fabs(whole) < 1e9)) fail("INVALID_POSITIONS", "neighbor list: an atom lies more than 1e9 cells away from its cell");
      wrap[k] = -static_cast<int>(whole);
      s -= whole;
    } else {
      s -= grid.lower[k];
    }
    bin[k] = std::min(std::max(static_cast<int>(s / grid.binFraction[k]), 0), grid.bins[k] - 1);
  }
  return (static_cast<std::int64_t>(bin[0]) * grid.bins[1] + bin[1]) * grid.bins[2] + bin[2];
}

/**
 * list.owners: the atoms in bin order (scratch.binOf), by a counting sort, and scratch.binStart, each bin's
 * first slot. A large system is counted and placed in up to kSortBlocks blocks of atoms on the pool, each
 * with its own counts; only the prefix over bins × blocks is serial (before, the count and the placement
 * were too: at 32,000 atoms 0.1 ms of every 2-thread build with one thread idle). Block b's atoms go after
 * those of blocks before it in each bin, so within a bin atoms keep their index order, and the order is the
 * same for any thread count.
 */
void sortByBin(SystemNeighborList& list, std::int64_t bins, std::int32_t n, NeighborScratch& scratch) {
  const std::vector<std::int32_t>& binOf = scratch.binOf;
  std::vector<std::int32_t>& start = scratch.binStart;
  start.resize(static_cast<std::size_t>(bins) + 1);
  list.owners.resize(n);
  const int blocks = static_cast<int>(std::clamp<std::int64_t>(
      std::min<std::int64_t>(ThreadPool::global().threads(), n / kAtomsPerTask), 1, kSortBlocks));
  std::vector<std::int32_t>& next = scratch.blockNext;
  next.resize(static_cast<std::size_t>(blocks * bins));
  auto blockAtoms = [&](int b) {
    return std::pair<std::int32_t, std::int32_t>(static_cast<std::int32_t>(static_cast<std::int64_t>(n) * b / blocks),
                                                 static_cast<std::int32_t>(static_cast<std::int64_t>(n) * (b + 1) / blocks));
  };
  ThreadPool::global().parallelFor(0, blocks, 1, [&](std::int64_t lo, std::int64_t hi, int) {
    for (std::int64_t b = lo; b < hi; ++b) {
      std::int32_t* count = next.data() + b * bins;
      std::fill(count, count + bins, 0);
      const auto [first, last] = blockAtoms(static_cast<int>(b));
      for (std::int32_t i = first; i < last; ++i) ++count[binOf[i]];
    }
  });
  std::int32_t slot = 0;
  for (std::int64_t bin = 0; bin < bins; ++bin) {
    start[bin] = slot;
    for (int b = 0; b < blocks; ++b) {
      std::int32_t& entry = next[b * bins + bin];
      const std::int32_t count = entry;
      entry = slot;
      slot += count;
    }
  }
  start[bins] = slot;
  ThreadPool::global().parallelFor(0, blocks, 1, [&](std::int64_t lo, std::int64_t hi, int) {
    for (std::int64_t b = lo; b < hi; ++b) {
      std::int32_t* place = next.data() + b * bins;
      const auto [first, last] = blockAtoms(static_cast<int>(b));
      for (std::int32_t i = first; i < last; ++i) list.owners[place[binOf[i]]++] = i;
    }
  });
}

/**
 * Counting sort of the atoms by bin into list.owners and list.positions (wrapped into the cell, one block
 * per coordinate). The binning runs in parallel, and so does most of the sort (sortByBin): each atom's bin
 * is kept in scratch (4 bytes per atom), and its wrap is computed again in the second parallel pass rather
 * than kept (12 bytes). Within a bin, atoms keep their index order, whatever the thread count.
 */
void binAtoms(SystemNeighborList& list, const BinGrid& grid, const double* x, std::int32_t n, NeighborScratch& scratch) {
  ThreadPool& pool = ThreadPool::global();
  std::vector<std::int32_t>& binOf = scratch.binOf;
  binOf.resize(static_cast<std::size_t>(n));
  std::atomic<bool> anyWrapped{false};
  pool.parallelFor(0, n, kAtomsPerTask, [&](std::int64_t lo, std::int64_t hi, int) {
    bool wrapped = false;
    int wrap[3];
    for (std::int64_t i = lo; i < hi; ++i) {
      binOf[i] = static_cast<std::int32_t>(locate(grid, x + 3 * i, wrap));
      wrapped = wrapped || wrap[0] != 0 || wrap[1] != 0 || wrap[2] != 0;
    }
    if (wrapped) anyWrapped.store(true, std::memory_order_relaxed);
  });

  sortByBin(list, grid.binCount(), n, scratch);

  list.positions.resize(3 * static_cast<std::size_t>(n));
  if (anyWrapped.load()) {
    // No fill: the pass below writes every atom's wrap (a serial fill of 12 bytes per atom was the largest
    // serial part of a 2-thread build).
    list.wrap.resize(3 * static_cast<std::size_t>(n));
  } else {
    std::vector<std::int32_t>().swap(list.wrap);
  }
  const std::size_t count = static_cast<std::size_t>(n);
  pool.parallelFor(0, n, kAtomsPerTask, [&](std::int64_t lo, std::int64_t hi, int) {
    int wrap[3];
    for (std::int64_t slot = lo; slot < hi; ++slot) {
      const std::int64_t i = list.owners[slot];
      const double* xi = x + 3 * i;
      locate(grid, xi, wrap);
      if (!list.wrap.empty()) std::copy(wrap, wrap + 3, &list.wrap[3 * static_cast<std::size_t>(i)]);
      for (int c = 0; c < 3; ++c) {
        list.positions[c * count + slot] = xi[c] + wrap[0] * grid.basis[c] + wrap[1] * grid.basis[3 + c] + wrap[2] * grid.basis[6 + c];
      }
    }
  });
}

/** Cuts the bins into chunks of about kChunkAtoms owners; returns each chunk's first bin (plus the end). */
std::vector<std::int64_t> chunkBins(const std::vector<std::int32_t>& binStart, std::int64_t bins) {
  std::vector<std::int64_t> firstBin{0};
  std::int32_t owners = 0;
  for (std::int64_t b = 0; b < bins; ++b) {
    owners += binStart[b + 1] - binStart[b];
    if (owners >= kChunkAtoms && b + 1 < bins) {
      firstBin.push_back(b + 1);
      owners = 0;
    }
  }
  firstBin.push_back(bins);
  return firstBin;
}

/**
 * The runs of slots that one stencil row covers from bin (b₀, b₁, b₂): wrapping a periodic third direction
 * splits the row where the image changes, and a non-periodic one clips it. Appends them to `targets` and
 * returns how many atoms they hold.
 */
std::size_t addRowTargets(const SystemNeighborList& list, const BinGrid& grid, const std::vector<std::int32_t>& binStart,
                          const int* b, const StencilRow& row, std::vector<Target>& targets) {
  const int o[2] = {row.o0, row.o1};
  int t[2];
  int n[3] = {0, 0, 0};
  for (int k = 0; k < 2; ++k) {
    t[k] = b[k] + o[k];
    if (grid.periodic[k]) {
      n[k] = floorDiv(t[k], grid.bins[k]);
      t[k] -= n[k] * grid.bins[k];
    } else if (t[k] < 0 || t[k] >= grid.bins[k]) {
      return 0;
    }
  }
  const int bins2 = grid.bins[2];
  const std::int64_t rowBase = (static_cast<std::int64_t>(t[0]) * grid.bins[1] + t[1]) * bins2;
  int low = b[2] + row.o2Low;
  int high = b[2] + row.o2High;
  if (!grid.periodic[2]) {
    low = std::max(low, 0);
    high = std::min(high, bins2 - 1);
  }
  std::size_t atoms = 0;
  while (low <= high) {
    // One image of the third direction at a time: bins low..end of this period, all under image n₂.
    n[2] = grid.periodic[2] ? floorDiv(low, bins2) : 0;
    const int first = low - n[2] * bins2;
    const int last = std::min(high - n[2] * bins2, bins2 - 1);
    const std::int32_t slotBegin = binStart[rowBase + first];
    const std::int32_t slotEnd = binStart[rowBase + last + 1];
    if (slotBegin < slotEnd) {
      const std::uint32_t image = grid.imageIndex(n[0], n[1], n[2]);
      targets.push_back(Target{slotBegin, slotEnd, image, &list.shifts[3 * static_cast<std::size_t>(image)]});
      atoms += static_cast<std::size_t>(slotEnd - slotBegin);
    }
    low += last - first + 1;
  }
  return atoms;
}

// Always inlined, so that each wrapper below compiles the whole chunk build for its own target.
template <class Scan>
HOOKMD_ALWAYS_INLINE void buildChunkWith(SystemNeighborList& list, NeighborChunk& chunk, std::int64_t binBegin,
                                         std::int64_t binEnd, const BinGrid& grid, const std::vector<StencilRow>& rows,
                                         const NeighborScratch& scratch, double cutoffSq, double rlistSq) {
  const std::vector<std::int32_t>& binStart = scratch.binStart;
  const std::size_t n = static_cast<std::size_t>(list.atomCount);
  const SortedAtoms atoms{list.positions.data(), list.positions.data() + n, list.positions.data() + 2 * n,
                          list.owners.data(), list.imageBits};
  const std::uint32_t self = grid.imageIndex(0, 0, 0);
  chunk.ownerBegin = binStart[binBegin];
  chunk.ownerEnd = binStart[binEnd];
  chunk.start.resize(static_cast<std::size_t>(chunk.ownerEnd - chunk.ownerBegin) + 1);
  // Entries are overwritten in place: the vector only grows during a build (a resize zero-fills what it
  // adds, so growing by each owner's candidates would clear ~4× the pairs) and is cut to the pairs at the
  // end. ~10% headroom over the last build means rebuilds rarely reallocate, without doubling's slack.
  std::vector<std::uint32_t>& entries = chunk.entries;
  entries.reserve(entries.size() + entries.size() / 10);
  std::size_t used = 0;

  std::vector<Target> targets;
  std::vector<std::uint32_t> shell;
  for (std::int64_t bin = binBegin; bin < binEnd; ++bin) {
    if (binStart[bin] == binStart[bin + 1]) continue;
    const int b[3] = {static_cast<int>(bin / (static_cast<std::int64_t>(grid.bins[1]) * grid.bins[2])),
                      static_cast<int>((bin / grid.bins[2]) % grid.bins[1]), static_cast<int>(bin % grid.bins[2])};
    targets.clear();
    std::size_t candidates = static_cast<std::size_t>(binStart[bin + 1] - binStart[bin]);
    for (const StencilRow& row : rows) candidates += addRowTargets(list, grid, binStart, b, row, targets);
    if (shell.size() < candidates + kScanSlack) shell.resize(candidates + kScanSlack);
    const std::int32_t slotEnd = binStart[bin + 1];
    for (std::int32_t slot = binStart[bin]; slot < slotEnd; ++slot) {
      // Pairs within the cutoff go first and the skin shell after them, so the force loop's cutoff test
      // mostly runs true-then-false, a pattern the branch predictor learns.
      chunk.start[slot - chunk.ownerBegin] = static_cast<std::uint32_t>(used);
      const std::size_t room = used + candidates + kScanSlack;
      if (entries.size() < room) {
        if (entries.capacity() < room) entries.reserve(std::max(2 * entries.capacity(), room));
        entries.resize(room);
      }
      ScanOutput out{entries.data(), used, shell.data(), 0};
      const double xi = atoms.x[slot];
      const double yi = atoms.y[slot];
      const double zi = atoms.z[slot];
      // The owner's own bin: the atoms after it, image 0. 0 − x is exactly −x, so these offsets are the
      // plain differences x_q − x_owner.
      Scan::scan(atoms, CandidateRun{slot + 1, slotEnd, 0.0 - xi, 0.0 - yi, 0.0 - zi, self}, cutoffSq, rlistSq, out);
      for (const Target& target : targets) {
        const CandidateRun run{target.slotBegin, target.slotEnd, target.shift[0] - xi, target.shift[1] - yi,
                               target.shift[2] - zi, target.image};
        Scan::scan(atoms, run, cutoffSq, rlistSq, out);
      }
      std::copy(shell.data(), shell.data() + out.shellCount, entries.data() + out.innerCount);
      used = out.innerCount + out.shellCount;
    }
  }
  entries.resize(used);
  // The atoms this chunk writes forces to, so a thread's force buffer is zeroed and added only there.
  const int shift = list.atomBlockShift;
  const int entryShift = atoms.imageBits + shift;
  std::uint64_t blocks = 0;
  for (std::int32_t slot = chunk.ownerBegin; slot < chunk.ownerEnd; ++slot) blocks |= std::uint64_t{1} << (atoms.owners[slot] >> shift);
  for (const std::uint32_t entry : chunk.entries) blocks |= std::uint64_t{1} << (entry >> entryShift);
  chunk.atomBlocks = blocks;
}

void buildChunkScalar(SystemNeighborList& list, NeighborChunk& chunk, std::int64_t binBegin, std::int64_t binEnd,
                      const BinGrid& grid, const std::vector<StencilRow>& rows, const NeighborScratch& scratch,
                      double cutoffSq, double rlistSq) {
  buildChunkWith<ScalarScan>(list, chunk, binBegin, binEnd, grid, rows, scratch, cutoffSq, rlistSq);
}

#if HOOKMD_X86_SIMD
HOOKMD_TARGET_AVX2 void buildChunkAvx2(SystemNeighborList& list, NeighborChunk& chunk, std::int64_t binBegin,
                                       std::int64_t binEnd, const BinGrid& grid, const std::vector<StencilRow>& rows,
                                       const NeighborScratch& scratch, double cutoffSq, double rlistSq) {
  buildChunkWith<Avx2Scan>(list, chunk, binBegin, binEnd, grid, rows, scratch, cutoffSq, rlistSq);
}

HOOKMD_TARGET_AVX512 void buildChunkAvx512(SystemNeighborList& list, NeighborChunk& chunk, std::int64_t binBegin,
                                           std::int64_t binEnd, const BinGrid& grid, const std::vector<StencilRow>& rows,
                                           const NeighborScratch& scratch, double cutoffSq, double rlistSq) {
  buildChunkWith<Avx512Scan>(list, chunk, binBegin, binEnd, grid, rows, scratch, cutoffSq, rlistSq);
}
#endif

/** The pairs of one chunk (bins [binBegin, binEnd)) and the atom range it touches. */
void buildChunk(SystemNeighborList& list, NeighborChunk& chunk, std::int64_t binBegin, std::int64_t binEnd,
                const BinGrid& grid, const std::vector<StencilRow>& rows, const NeighborScratch& scratch,
                double cutoffSq, double rlistSq) {
#if HOOKMD_X86_SIMD
  switch (simdLevel()) {
    case SimdLevel::Avx512: buildChunkAvx512(list, chunk, binBegin, binEnd, grid, rows, scratch, cutoffSq, rlistSq); break;
    case SimdLevel::Avx2: buildChunkAvx2(list, chunk, binBegin, binEnd, grid, rows, scratch, cutoffSq, rlistSq); break;
    case SimdLevel::Baseline: buildChunkScalar(list, chunk, binBegin, binEnd, grid, rows, scratch, cutoffSq, rlistSq); break;
  }
#else
  buildChunkScalar(list, chunk, binBegin, binEnd, grid, rows, scratch, cutoffSq, rlistSq);
#endif
  if (chunk.entries.size() > 0xffffffffull) {
    fail("NEIGHBOR_OVERFLOW", "neighbor list: more than 2^32 pairs in one chunk; the cutoff is far too large");
  }
  chunk.start.back() = static_cast<std::uint32_t>(chunk.entries.size());
  // At most 1/8 slack beyond the pairs (doubling growth can leave up to 2×); rebuilds reserve 1/10 above.
  if (chunk.entries.capacity() > chunk.entries.size() + chunk.entries.size() / 8 + 256) {
    std::vector<std::uint32_t>(chunk.entries.begin(), chunk.entries.end()).swap(chunk.entries);
  }
}
}  // namespace

std::size_t SystemNeighborList::bytes() const {
  std::size_t total = (shifts.capacity() + buildShifts.capacity() + positions.capacity()) * sizeof(double) + owners.capacity() * sizeof(std::int32_t) +
                      wrap.capacity() * sizeof(std::int32_t) + chunks.capacity() * sizeof(NeighborChunk);
  for (const NeighborChunk& chunk : chunks) {
    total += (chunk.start.capacity() + chunk.entries.capacity()) * sizeof(std::uint32_t);
  }
  return total;
}

void buildNeighborList(SystemNeighborList& list, const double* positions, std::int32_t count, const double* cell,
                       const std::uint8_t* pbc, double rlist, NeighborScratch& scratch, double cutoff) {
  list.valid = false;
  for (std::int64_t i = 0; i < 3 * static_cast<std::int64_t>(count); ++i) {
    // Binning casts coordinates to ints; a NaN there is undefined behaviour, so refuse it first.
    if (!std::isfinite(positions[i])) {
      fail("INVALID_POSITIONS", "neighbor list: position " + std::to_string(i / 3) + " is NaN or infinite");
    }
  }
  BinGrid grid = makeBinGrid(cell, pbc, positions, count, rlist, true);
  if (static_cast<std::int64_t>(count) * grid.imageCount() > kSingleBinCandidates) {
    grid = makeBinGrid(cell, pbc, positions, count, rlist, false);
  }
  int bits = 0;
  while ((1 << bits) < grid.imageCount()) ++bits;
  if (count > 0 && (static_cast<std::uint64_t>(count - 1) >> (32 - bits)) != 0) {
    fail("SYSTEM_TOO_LARGE", "neighbor list: " + std::to_string(count) + " atoms with " +
                                 std::to_string(grid.imageCount()) +
                                 " periodic images do not fit the 32-bit pair encoding; use a larger cell");
  }
  list.atomCount = count;
  std::copy(cell, cell + 9, list.cell);
  std::copy(pbc, pbc + 3, list.pbc);
  std::copy(grid.basis, grid.basis + 9, list.basis);
  list.imageBits = bits;
  list.imageMask = (1u << bits) - 1u;
  list.atomBlockShift = 0;
  while (((count - 1) >> list.atomBlockShift) > 63) ++list.atomBlockShift;
  list.shifts = imageShifts(grid);
  std::copy(grid.basis, grid.basis + 9, list.buildBasis);
  list.buildShifts = list.shifts;
  binAtoms(list, grid, positions, count, scratch);

  const std::vector<StencilRow> rows = halfStencilRows(grid, rlist);
  const std::vector<std::int64_t> firstBin = chunkBins(scratch.binStart, grid.binCount());
  const std::size_t chunkCount = firstBin.size() - 1;
  list.chunks.resize(chunkCount);
  const double rlistSq = rlist * rlist;
  const double cutoffSq = cutoff > 0.0 ? cutoff * cutoff : rlistSq;
  ThreadPool::global().parallelFor(0, static_cast<std::int64_t>(chunkCount), 1, [&](std::int64_t lo, std::int64_t hi, int) {
    for (std::int64_t c = lo; c < hi; ++c) {
      buildChunk(list, list.chunks[c], firstBin[c], firstBin[c + 1], grid, rows, scratch, cutoffSq, rlistSq);
    }
  });
  list.pairs = 0;
  for (const NeighborChunk& chunk : list.chunks) list.pairs += static_cast<std::int64_t>(chunk.entries.size());
  list.valid = true;
  static std::atomic<std::uint64_t> builds{0};
  list.generation = ++builds;
}

void wrappedPositions(const SystemNeighborList& list, const double* positions, double* out) {
  const double* h = list.basis;
  ThreadPool::global().parallelFor(0, list.atomCount, kAtomsPerTask, [&](std::int64_t lo, std::int64_t hi, int) {
    for (std::int64_t i = lo; i < hi; ++i) {
      const std::int32_t* w = &list.wrap[3 * i];
      for (int c = 0; c < 3; ++c) out[3 * i + c] = positions[3 * i + c] + w[0] * h[c] + w[1] * h[3 + c] + w[2] * h[6 + c];
    }
  });
}

bool movedBeyond(const SystemNeighborList& list, const double* positions, double limit, double* wrappedOut) {
  const double limitSq = limit * limit;
  const double* h = list.buildBasis;
  const double* built = list.positions.data();
  const std::int64_t n = list.atomCount;
  const std::int32_t* owners = list.owners.data();
  const std::int32_t* wrap = list.wrap.empty() ? nullptr : list.wrap.data();
  std::atomic<bool> moved{false};
  ThreadPool::global().parallelFor(0, list.atomCount, kAtomsPerTask, [&](std::int64_t lo, std::int64_t hi, int) {
    // Blocks of slots without an atomic load or a data-dependent branch per atom (which kept this loop at 6 ns
    // an atom); a block checks the flag before it starts, so a thread stops soon after any atom moved too far.
    for (std::int64_t first = lo; first < hi && !moved.load(std::memory_order_relaxed); first += kSkinCheckBlock) {
      const std::int64_t last = std::min(hi, first + kSkinCheckBlock);
      bool beyond = false;
      for (std::int64_t slot = first; slot < last; ++slot) {
        const std::int64_t i = owners[slot];
        double d2 = 0.0;
        for (int c = 0; c < 3; ++c) {
          // x + w·h added term by term, as the build wrapped it; without a wrap the terms would all be zero.
          double p = positions[3 * i + c];
          if (wrap != nullptr) p = p + wrap[3 * i] * h[c] + wrap[3 * i + 1] * h[3 + c] + wrap[3 * i + 2] * h[6 + c];
          if (wrappedOut != nullptr) wrappedOut[3 * i + c] = p;
          const double d = p - built[c * n + slot];
          d2 += d * d;
        }
        // Written so that a NaN displacement also counts as moved: the rebuild then reports the bad position.
        beyond |= !(d2 <= limitSq);
      }
      if (beyond) moved.store(true, std::memory_order_relaxed);
    }
  });
  return moved.load();
}

bool movedBeyondDeformed(const SystemNeighborList& list, const double* positions, const double* deformation,
                         const double* basis, double limit) {
  const double limitSq = limit * limit;
  const double* h = basis;
  const double* t = deformation;
  const double* built = list.positions.data();
  const std::int64_t n = list.atomCount;
  std::atomic<bool> moved{false};
  ThreadPool::global().parallelFor(0, list.atomCount, kAtomsPerTask, [&](std::int64_t lo, std::int64_t hi, int) {
    for (std::int64_t slot = lo; slot < hi && !moved.load(std::memory_order_relaxed); ++slot) {
      const std::int64_t i = list.owners[slot];
      const std::int32_t zero[3] = {0, 0, 0};
      const std::int32_t* w = list.wrap.empty() ? zero : &list.wrap[3 * i];
      const double p[3] = {built[slot], built[n + slot], built[2 * n + slot]};
      double d2 = 0.0;
      for (int c = 0; c < 3; ++c) {
        const double carried = p[0] * t[c] + p[1] * t[3 + c] + p[2] * t[6 + c];
        const double d = positions[3 * i + c] + w[0] * h[c] + w[1] * h[3 + c] + w[2] * h[6 + c] - carried;
        d2 += d * d;
      }
      if (!(d2 <= limitSq)) moved.store(true, std::memory_order_relaxed);
    }
  });
  return moved.load();
}

void followDeformation(SystemNeighborList& list, const double* deformation, const double* basis) {
  std::copy(basis, basis + 9, list.basis);
  const double* t = deformation;
  for (std::size_t k = 0; k + 2 < list.buildShifts.size(); k += 3) {
    const double* b = &list.buildShifts[k];
    for (int c = 0; c < 3; ++c) list.shifts[k + c] = b[0] * t[c] + b[1] * t[3 + c] + b[2] * t[6 + c];
  }
}

}  // namespace hookmd
