#include "neighbor/NeighborList.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>

#include "core/Error.h"
#include "core/ThreadPool.h"
#include "neighbor/BinGrid.h"

namespace hookmd {

namespace {
constexpr std::int64_t kAtomsPerTask = 4096;

/** A neighbor bin of the current bin: where it is and which lattice image it stands for. */
struct Target {
  std::int64_t bin;
  std::uint32_t image;
  const double* shift;
};

int floorDiv(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

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
 * Counting sort of the atoms by bin into list.owners and list.positions (wrapped into the cell). Bins are
 * computed twice rather than stored: a few flops per atom instead of 4 bytes per atom at the peak.
 */
void binAtoms(SystemNeighborList& list, const BinGrid& grid, const double* x, std::int32_t n, NeighborScratch& scratch) {
  const std::int64_t bins = grid.binCount();
  std::vector<std::int32_t>& start = scratch.binStart;
  start.assign(static_cast<std::size_t>(bins) + 1, 0);
  int wrap[3];
  for (std::int32_t i = 0; i < n; ++i) ++start[locate(grid, x + 3 * static_cast<std::int64_t>(i), wrap) + 1];
  for (std::int64_t b = 0; b < bins; ++b) start[b + 1] += start[b];
  list.owners.resize(n);
  list.positions.resize(3 * static_cast<std::size_t>(n));
  std::vector<std::int32_t>().swap(list.wrap);
  for (std::int32_t i = 0; i < n; ++i) {
    const double* xi = x + 3 * static_cast<std::int64_t>(i);
    const std::int32_t slot = start[locate(grid, xi, wrap)]++;
    list.owners[slot] = i;
    if (wrap[0] != 0 || wrap[1] != 0 || wrap[2] != 0) {
      if (list.wrap.empty()) list.wrap.assign(3 * static_cast<std::size_t>(n), 0);
      std::copy(wrap, wrap + 3, &list.wrap[3 * static_cast<std::size_t>(i)]);
    }
    for (int c = 0; c < 3; ++c) {
      list.positions[3 * static_cast<std::size_t>(slot) + c] =
          xi[c] + wrap[0] * grid.basis[c] + wrap[1] * grid.basis[3 + c] + wrap[2] * grid.basis[6 + c];
    }
  }
  for (std::int64_t b = bins; b > 0; --b) start[b] = start[b - 1];
  start[0] = 0;
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

void buildChunk(SystemNeighborList& list, NeighborChunk& chunk, std::int64_t binBegin, std::int64_t binEnd,
                const BinGrid& grid, const std::vector<StencilOffset>& stencil, const NeighborScratch& scratch,
                double cutoffSq, double rlistSq, std::int32_t count) {
  const std::vector<std::int32_t>& binStart = scratch.binStart;
  const double* sorted = list.positions.data();
  const std::int32_t* owners = list.owners.data();
  const int bits = list.imageBits;
  const std::uint32_t self = grid.imageIndex(0, 0, 0);
  chunk.ownerBegin = binStart[binBegin];
  chunk.ownerEnd = binStart[binEnd];
  chunk.start.resize(static_cast<std::size_t>(chunk.ownerEnd - chunk.ownerBegin) + 1);
  // Keep ~10% headroom over the last build so rebuilds rarely reallocate, without doubling's slack.
  const std::size_t previous = chunk.entries.size();
  chunk.entries.clear();
  chunk.entries.reserve(previous + previous / 10);

  std::vector<Target> targets;
  targets.reserve(stencil.size());
  std::vector<std::uint32_t> shell;
  for (std::int64_t bin = binBegin; bin < binEnd; ++bin) {
    if (binStart[bin] == binStart[bin + 1]) continue;
    const int b[3] = {static_cast<int>(bin / (static_cast<std::int64_t>(grid.bins[1]) * grid.bins[2])),
                      static_cast<int>((bin / grid.bins[2]) % grid.bins[1]), static_cast<int>(bin % grid.bins[2])};
    targets.clear();
    std::size_t candidates = static_cast<std::size_t>(binStart[bin + 1] - binStart[bin]);
    for (std::size_t e = 1; e < stencil.size(); ++e) {
      int t[3];
      int n[3] = {0, 0, 0};
      bool inside = true;
      for (int k = 0; k < 3; ++k) {
        t[k] = b[k] + stencil[e].offset[k];
        if (grid.periodic[k]) {
          n[k] = floorDiv(t[k], grid.bins[k]);
          t[k] -= n[k] * grid.bins[k];
        } else {
          inside = inside && t[k] >= 0 && t[k] < grid.bins[k];
        }
      }
      if (!inside) continue;
      const std::int64_t targetBin = (static_cast<std::int64_t>(t[0]) * grid.bins[1] + t[1]) * grid.bins[2] + t[2];
      if (binStart[targetBin] == binStart[targetBin + 1]) continue;
      const std::uint32_t image = grid.imageIndex(n[0], n[1], n[2]);
      targets.push_back(Target{targetBin, image, &list.shifts[3 * static_cast<std::size_t>(image)]});
      candidates += static_cast<std::size_t>(binStart[targetBin + 1] - binStart[targetBin]);
    }
    if (shell.size() < candidates) shell.resize(candidates);
    const std::int32_t slotEnd = binStart[bin + 1];
    for (std::int32_t slot = binStart[bin]; slot < slotEnd; ++slot) {
      // Every candidate is written, and the write cursors advance by the test's outcome: no branch per
      // candidate to mispredict. Pairs within the cutoff go first and the skin shell after them, so the
      // force loop's cutoff test mostly runs true-then-false, a pattern the branch predictor learns.
      std::size_t used = chunk.entries.size();
      chunk.start[slot - chunk.ownerBegin] = static_cast<std::uint32_t>(used);
      if (chunk.entries.capacity() < used + candidates) {
        chunk.entries.reserve(std::max(2 * chunk.entries.capacity(), used + candidates));
      }
      chunk.entries.resize(used + candidates);
      std::uint32_t* out = chunk.entries.data();
      std::uint32_t* shellOut = shell.data();
      std::size_t shellCount = 0;
      const double xi = sorted[3 * slot];
      const double yi = sorted[3 * slot + 1];
      const double zi = sorted[3 * slot + 2];
      auto consider = [&](std::int32_t q, double dx, double dy, double dz, std::uint32_t image) {
        const double d2 = dx * dx + dy * dy + dz * dz;
        const std::uint32_t entry = (static_cast<std::uint32_t>(owners[q]) << bits) | image;
        out[used] = entry;
        shellOut[shellCount] = entry;
        used += d2 < cutoffSq;
        shellCount += (d2 >= cutoffSq) & (d2 < rlistSq);
      };
      for (std::int32_t q = slot + 1; q < slotEnd; ++q) {
        consider(q, sorted[3 * q] - xi, sorted[3 * q + 1] - yi, sorted[3 * q + 2] - zi, self);
      }
      for (const Target& target : targets) {
        const double sx = target.shift[0] - xi;
        const double sy = target.shift[1] - yi;
        const double sz = target.shift[2] - zi;
        const std::int32_t qEnd = binStart[target.bin + 1];
        for (std::int32_t q = binStart[target.bin]; q < qEnd; ++q) {
          consider(q, sorted[3 * q] + sx, sorted[3 * q + 1] + sy, sorted[3 * q + 2] + sz, target.image);
        }
      }
      std::copy(shellOut, shellOut + shellCount, out + used);
      chunk.entries.resize(used + shellCount);
    }
  }
  // The range of atoms this chunk writes forces to, so a thread's force buffer can stay that small.
  std::int32_t low = count;
  std::int32_t high = 0;
  for (std::int32_t slot = chunk.ownerBegin; slot < chunk.ownerEnd; ++slot) {
    low = std::min(low, owners[slot]);
    high = std::max(high, owners[slot] + 1);
  }
  for (const std::uint32_t entry : chunk.entries) {
    const std::int32_t j = static_cast<std::int32_t>(entry >> bits);
    low = std::min(low, j);
    high = std::max(high, j + 1);
  }
  chunk.atomLow = std::min(low, high);
  chunk.atomHigh = high;
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
  list.shifts = imageShifts(grid);
  std::copy(grid.basis, grid.basis + 9, list.buildBasis);
  list.buildShifts = list.shifts;
  binAtoms(list, grid, positions, count, scratch);

  const std::vector<StencilOffset> stencil = halfStencil(grid, rlist);
  const std::vector<std::int64_t> firstBin = chunkBins(scratch.binStart, grid.binCount());
  const std::size_t chunkCount = firstBin.size() - 1;
  list.chunks.resize(chunkCount);
  const double rlistSq = rlist * rlist;
  const double cutoffSq = cutoff > 0.0 ? cutoff * cutoff : rlistSq;
  ThreadPool::global().parallelFor(0, static_cast<std::int64_t>(chunkCount), 1, [&](std::int64_t lo, std::int64_t hi, int) {
    for (std::int64_t c = lo; c < hi; ++c) {
      buildChunk(list, list.chunks[c], firstBin[c], firstBin[c + 1], grid, stencil, scratch, cutoffSq, rlistSq, count);
    }
  });
  list.pairs = 0;
  for (const NeighborChunk& chunk : list.chunks) list.pairs += static_cast<std::int64_t>(chunk.entries.size());
  list.valid = true;
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

bool movedBeyond(const SystemNeighborList& list, const double* positions, double limit) {
  const double limitSq = limit * limit;
  const double* h = list.buildBasis;
  std::atomic<bool> moved{false};
  ThreadPool::global().parallelFor(0, list.atomCount, kAtomsPerTask, [&](std::int64_t lo, std::int64_t hi, int) {
    for (std::int64_t slot = lo; slot < hi && !moved.load(std::memory_order_relaxed); ++slot) {
      const std::int64_t i = list.owners[slot];
      const std::int32_t zero[3] = {0, 0, 0};
      const std::int32_t* w = list.wrap.empty() ? zero : &list.wrap[3 * i];
      double d2 = 0.0;
      for (int c = 0; c < 3; ++c) {
        const double d = positions[3 * i + c] + w[0] * h[c] + w[1] * h[3 + c] + w[2] * h[6 + c] - list.positions[3 * slot + c];
        d2 += d * d;
      }
      // Written so that a NaN displacement also counts as moved: the rebuild then reports the bad position.
      if (!(d2 <= limitSq)) moved.store(true, std::memory_order_relaxed);
    }
  });
  return moved.load();
}

bool movedBeyondDeformed(const SystemNeighborList& list, const double* positions, const double* deformation,
                         const double* basis, double limit) {
  const double limitSq = limit * limit;
  const double* h = basis;
  const double* t = deformation;
  std::atomic<bool> moved{false};
  ThreadPool::global().parallelFor(0, list.atomCount, kAtomsPerTask, [&](std::int64_t lo, std::int64_t hi, int) {
    for (std::int64_t slot = lo; slot < hi && !moved.load(std::memory_order_relaxed); ++slot) {
      const std::int64_t i = list.owners[slot];
      const std::int32_t zero[3] = {0, 0, 0};
      const std::int32_t* w = list.wrap.empty() ? zero : &list.wrap[3 * i];
      const double* p = &list.positions[3 * slot];
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
