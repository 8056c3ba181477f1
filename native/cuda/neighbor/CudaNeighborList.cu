// The GPU neighbor build after the grids: atoms sorted by (system, bin) with a stable radix sort, so a
// system's slots are its own atom range and the order never depends on scheduling, then a full list (each
// pair in both rows), so the pair loop writes each atom's force once, with no atomics.
#include "cuda/neighbor/CudaNeighborList.cuh"
#include "cuda/core/CudaLaunch.cuh"
#include "cuda/neighbor/CudaRowCounts.cuh"

#include <cub/device/device_radix_sort.cuh>

#include "math/PairGeometry.h"

namespace hookmd::kernel {

namespace {

constexpr int kBlock = 256;

unsigned int blocksFor(std::int64_t count) { return static_cast<unsigned int>((count + kBlock - 1) / kBlock); }

__device__ bool wanted(const SystemArrays& systems, std::int64_t s) {
  return systems.d_wanted == nullptr || systems.d_wanted[s] != 0;
}

/** Whether a rebuild touches system `s`: every system, or in a resident chunk's rebuild the stale ones. */
__device__ bool rebuilt(const SystemArrays& systems, std::int64_t s) { return !systems.staleOnly || systems.d_stale[s] != 0; }

__device__ void report(const SystemArrays& systems, std::int64_t s, NeighborError error) {
  if (wanted(systems, s)) atomicMin(&systems.d_status->firstError, (static_cast<unsigned long long>(s) << 3) | error);
}

__device__ int floorDivide(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/** Per atom: its bin key (system's first bin + local bin), its wrap into the cell, and the sort's input. */
__global__ void __launch_bounds__(kBlock) assignBins(BinArgs args) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i >= args.systems.numAtoms) return;
  const int s = args.systems.d_systemOf[i];
  if (!rebuilt(args.systems, s)) return;
  const SystemGrid& g = args.systems.d_grids[s];
  const double* x = args.d_positions + 3 * i;
  int bin[3];
  for (int k = 0; k < 3; ++k) {
    double f = x[0] * g.inverse[k] + x[1] * g.inverse[3 + k] + x[2] * g.inverse[6 + k];
    int wrap = 0;
    if (g.periodic[k]) {
      double whole = floor(f);
      if (!(fabs(whole) < 1e9)) {
        report(args.systems, s, kFarPosition);
        whole = 0.0;
      }
      wrap = -static_cast<int>(whole);
      f -= whole;
    } else {
      f -= g.lower[k];
    }
    args.d_wrap[3 * i + k] = wrap;
    // NaN converts to 0 on the device, and the clamp keeps every atom inside its system's bins.
    bin[k] = min(max(static_cast<int>(f / g.binFraction[k]), 0), g.bins[k] - 1);
  }
  const unsigned long long local = (static_cast<unsigned long long>(bin[0]) * g.bins[1] + bin[1]) * g.bins[2] + bin[2];
  args.d_keys[i] = static_cast<std::uint32_t>(args.d_binOffset[s] + local);
  args.d_atoms[i] = static_cast<std::int32_t>(i);
}

/** Per slot: the first slot of every bin from its own key up to the previous slot's (empty bins included). */
__global__ void __launch_bounds__(kBlock) fillBinStarts(BinArgs args) {
  const std::int64_t p = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t n = args.systems.numAtoms;
  if (p >= n) return;
  const std::int64_t key = args.d_slotKeys[p];
  const std::int64_t previous = p == 0 ? -1 : static_cast<std::int64_t>(args.d_slotKeys[p - 1]);
  for (std::int64_t b = previous + 1; b <= key; ++b) args.d_binStart[b] = static_cast<std::int32_t>(p);
  if (p == n - 1) {
    for (std::int64_t b = key + 1; b <= static_cast<std::int64_t>(args.totalBins); ++b) {
      args.d_binStart[b] = static_cast<std::int32_t>(n);
    }
  }
}

/** Per slot: the wrapped position (NeighborList's wrappedPositions) and, in check mode, the skin test. */
__global__ void __launch_bounds__(kBlock) prepareSlotPositions(PrepareArgs args) {
  const std::int64_t p = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (p >= args.systems.numAtoms) return;
  const std::int64_t atom = args.d_slotAtom[p];
  const int s = args.systems.d_systemOf[p];
  const double* h = args.systems.d_grids[s].basis;
  const double* x = args.d_positions + 3 * atom;
  const std::int32_t* w = args.d_wrap + 3 * atom;
  double xw[3];
  for (int c = 0; c < 3; ++c) xw[c] = x[c] + w[0] * h[c] + w[1] * h[3 + c] + w[2] * h[6 + c];
  const long long type = args.d_types != nullptr ? args.d_types[atom] : 0;
  if (args.build && !rebuilt(args.systems, s)) return;
  args.d_slotPositions[p] = SlotPosition{xw[0], xw[1], xw[2], __longlong_as_double(type)};
  if (args.build) {
    args.d_reference[p] = SlotPosition{xw[0], xw[1], xw[2], 0.0};
    return;
  }
  const SlotPosition ref = args.d_reference[p];
  const double d[3] = {xw[0] - ref.x, xw[1] - ref.y, xw[2] - ref.z};
  // Written so that a NaN displacement also counts as moved: the rebuild then reports the bad position.
  if (!(dot3(d, d) <= args.limitSq)) {
    args.systems.d_stale[s] = 1;
    if (wanted(args.systems, s)) args.systems.d_status->rebuild = 1;
  }
}

/** Per system, after prepareSlotPositions: a changed cell or pbc makes it stale; a stale wanted one rebuilds. */
__global__ void __launch_bounds__(kBlock) checkSystems(PrepareArgs args) {
  const std::int64_t s = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (s >= args.systems.numSystems) return;
  const SystemGrid& g = args.systems.d_grids[s];
  bool changed = !g.valid;
  for (int i = 0; i < 9; ++i) changed = changed || args.d_cell[9 * s + i] != g.cell[i];
  for (int k = 0; k < 3; ++k) changed = changed || args.d_pbc[3 * s + k] != g.pbc[k];
  if (changed) args.systems.d_stale[s] = 1;
  if (args.systems.d_stale[s] != 0 && wanted(args.systems, s)) args.systems.d_status->rebuild = 1;
}

/**
 * Per slot: every (atom, image) within rlist, from the full stencil of bins around the slot's own (offsets
 * that wrap onto the same bin are distinct images). Rows are column-major so a warp's writes coalesce.
 */
template <bool kCompareWrap>
__global__ void __launch_bounds__(kBlock) search(SearchArgs args) {
  const std::int64_t n = args.systems.numAtoms;
  const std::int64_t p = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  unsigned int count = 0;
  if (p < n && rebuilt(args.systems, args.systems.d_systemOf[p])) {
    const int s = args.systems.d_systemOf[p];
    const SystemGrid& g = args.systems.d_grids[s];
    // The grid's small fields in registers: the loops below would otherwise reload them after every store.
    int bins[3];
    int reach[3];
    int images[3];
    bool periodic[3];
    double binWidth[3];
    for (int k = 0; k < 3; ++k) {
      bins[k] = g.bins[k];
      // A failed grid lists no pairs (its error is reported, or it is rebuilt once its system is wanted).
      reach[k] = g.valid ? g.reach[k] : -1;
      images[k] = g.images[k];
      periodic[k] = g.periodic[k] != 0;
      binWidth[k] = g.binWidth[k];
    }
    const bool orthogonal = g.orthogonal != 0;
    const int imageBits = g.imageBits;
    const SlotPosition xi = args.d_slotPositions[p];
    const std::int64_t firstBin = static_cast<std::int64_t>(args.d_binOffset[s]);
    const std::int64_t local = static_cast<std::int64_t>(args.d_slotKeys[p]) - firstBin;
    const int b[3] = {static_cast<int>(local / (static_cast<std::int64_t>(bins[1]) * bins[2])),
                      static_cast<int>((local / bins[2]) % bins[1]), static_cast<int>(local % bins[2])};
    const int span[3] = {2 * images[0] + 1, 2 * images[1] + 1, 2 * images[2] + 1};
    const std::uint32_t self = static_cast<std::uint32_t>((images[0] * span[1] + images[1]) * span[2] + images[2]);
    const std::int64_t slotBase = g.atomBegin;
    for (int o0 = -reach[0]; o0 <= reach[0]; ++o0) {
      for (int o1 = -reach[1]; o1 <= reach[1]; ++o1) {
        for (int o2 = -reach[2]; o2 <= reach[2]; ++o2) {
          const int o[3] = {o0, o1, o2};
          if (orthogonal) {
            // Closest approach of two bins o apart; only valid when the bin faces are mutually orthogonal.
            double gap = 0.0;
            for (int k = 0; k < 3; ++k) {
              const double step = max(abs(o[k]) - 1, 0) * binWidth[k];
              gap += step * step;
            }
            if (gap >= args.rlistSq) continue;
          }
          int t[3];
          int image[3] = {0, 0, 0};
          bool inside = true;
          for (int k = 0; k < 3; ++k) {
            t[k] = b[k] + o[k];
            if (periodic[k]) {
              // Within reach ≤ bins of [0, bins), t lies in [−bins, 2·bins): its image is −1, 0 or 1.
              if (kCompareWrap && reach[k] <= bins[k]) image[k] = t[k] < 0 ? -1 : (t[k] >= bins[k] ? 1 : 0);
              else image[k] = floorDivide(t[k], bins[k]);
              t[k] -= image[k] * bins[k];
            } else {
              inside = inside && t[k] >= 0 && t[k] < bins[k];
            }
          }
          if (!inside) continue;
          const std::int64_t bin = firstBin + (static_cast<std::int64_t>(t[0]) * bins[1] + t[1]) * bins[2] + t[2];
          const std::uint32_t imageIndex = static_cast<std::uint32_t>(
              ((image[0] + images[0]) * span[1] + (image[1] + images[1])) * span[2] + (image[2] + images[2]));
          double shift[3];
          latticeTranslation(g.basis, image[0], image[1], image[2], shift);
          const std::int32_t qEnd = args.d_binStart[bin + 1];
          for (std::int32_t q = args.d_binStart[bin]; q < qEnd; ++q) {
            if (q == p && imageIndex == self) continue;
            const SlotPosition xj = args.d_slotPositions[q];
            const double d[3] = {xj.x + shift[0] - xi.x, xj.y + shift[1] - xi.y, xj.z + shift[2] - xi.z};
            if (!(dot3(d, d) < args.rlistSq)) continue;
            if (count < static_cast<unsigned int>(args.capacity)) {
              args.d_neighbors[static_cast<std::int64_t>(count) * n + p] =
                  (static_cast<std::uint32_t>(q - slotBase) << imageBits) | imageIndex;
            }
            ++count;
          }
        }
      }
    }
    args.d_neighborCount[p] = static_cast<std::int32_t>(min(count, static_cast<unsigned int>(args.capacity)));
  }
  // Every lane reaches the warp sums (no early return above).
  reportRows(args.systems.d_status, count);
}

int keyBits(std::uint64_t totalBins) {
  int bits = 1;
  while (bits < 32 && (1ull << bits) < totalBins) ++bits;
  return bits;
}

}  // namespace

cudaError_t sortTempBytes(std::int64_t numAtoms, std::uint64_t totalBins, std::size_t* bytes) {
  return cub::DeviceRadixSort::SortPairs(nullptr, *bytes, static_cast<const std::uint32_t*>(nullptr),
                                         static_cast<std::uint32_t*>(nullptr), static_cast<const std::int32_t*>(nullptr),
                                         static_cast<std::int32_t*>(nullptr), static_cast<int>(numAtoms), 0,
                                         keyBits(totalBins));
}

cudaError_t binAtoms(const BinArgs& args) {
  const std::int64_t n = args.systems.numAtoms;
  if (n == 0) return device::memsetAsync(args.d_binStart, 0, (args.totalBins + 1) * sizeof(std::int32_t));
  cudaError_t status = device::launch(assignBins, blocksFor(n), kBlock, 0, args);
  if (status != cudaSuccess) return status;
  std::size_t tempBytes = args.tempBytes;
  status = device::libraryCall([&] {
    return cub::DeviceRadixSort::SortPairs(args.d_temp, tempBytes, args.d_keys, args.d_slotKeys, args.d_atoms, args.d_slotAtom,
                                           static_cast<int>(n), 0, keyBits(args.totalBins), device::currentStream());
  });
  if (status != cudaSuccess) return status;
  return device::launch(fillBinStarts, blocksFor(n), kBlock, 0, args);
}

cudaError_t prepareSlots(const PrepareArgs& args) {
  cudaError_t status = cudaSuccess;
  if (args.systems.numAtoms > 0) status = device::launch(prepareSlotPositions, blocksFor(args.systems.numAtoms), kBlock, 0, args);
  if (status != cudaSuccess) return status;
  if (!args.build && args.systems.numSystems > 0) status = device::launch(checkSystems, blocksFor(args.systems.numSystems), kBlock, 0, args);
  return status;
}

cudaError_t searchNeighbors(const SearchArgs& args) {
  if (args.systems.numAtoms == 0) return cudaSuccess;
  return args.compareWrap ? device::launch(search<true>, blocksFor(args.systems.numAtoms), kBlock, 0, args)
                          : device::launch(search<false>, blocksFor(args.systems.numAtoms), kBlock, 0, args);
}

}  // namespace hookmd::kernel
