// Per-system bin grids on the GPU, rule for rule those of neighbor/BinGrid.cpp (basis completion, bin
// widths, reach, images, the single-bin search for small systems, the limits), so both backends find the
// same pairs and fail on the same systems. One thread per system, except the extents of non-periodic
// directions, which take one thread per atom.
#include "cuda/neighbor/CudaBinGrid.cuh"
#include "cuda/core/CudaLaunch.cuh"

#include <cub/device/device_scan.cuh>

#include "math/PairGeometry.h"

namespace hookmd::kernel {

namespace {

constexpr int kBlock = 256;
constexpr double kBinsPerReach = 2.0;
constexpr long long kMaxBinsPerAtom = 2;
constexpr long long kMinBinCap = 64;
constexpr double kMaxImages = 1 << 20;
constexpr long long kSingleBinCandidates = 256;
constexpr unsigned kFullMask = 0xffffffffu;

unsigned int blocksFor(std::int64_t count) { return static_cast<unsigned int>((count + kBlock - 1) / kBlock); }

__device__ bool wanted(const SystemArrays& systems, std::int64_t s) {
  return systems.d_wanted == nullptr || systems.d_wanted[s] != 0;
}

__device__ void report(const SystemArrays& systems, std::int64_t s, NeighborError error) {
  if (wanted(systems, s)) atomicMin(&systems.d_status->firstError, (static_cast<unsigned long long>(s) << 3) | error);
}

/** Maps doubles to unsigned integers of the same order, so atomicMin/atomicMax give exact extents. */
__device__ unsigned long long orderedBits(double value) {
  const unsigned long long bits = static_cast<unsigned long long>(__double_as_longlong(value));
  return (bits >> 63) != 0 ? ~bits : bits | (1ull << 63);
}

__device__ double fromOrderedBits(unsigned long long bits) {
  return __longlong_as_double(static_cast<long long>((bits >> 63) != 0 ? bits & ~(1ull << 63) : ~bits));
}

__device__ bool normalizeRow(double* v) {
  const double length = sqrt(dot3(v, v));
  if (!(length > 0.0)) return false;
  for (int c = 0; c < 3; ++c) v[c] /= length;
  return true;
}

/** BinGrid's completeBasis; false where the periodic rows are zero or parallel. */
__device__ bool completeBasis(double* basis, const std::uint8_t* periodic) {
  int periodicRows[3];
  int free[3];
  int count = 0;
  int freeCount = 0;
  for (int k = 0; k < 3; ++k) {
    if (periodic[k]) periodicRows[count++] = k;
    else free[freeCount++] = k;
  }
  if (count == 3) return true;
  if (count == 0) {
    for (int i = 0; i < 9; ++i) basis[i] = (i % 4 == 0) ? 1.0 : 0.0;
    return true;
  }
  if (count == 2) {
    cross3(basis + 3 * periodicRows[0], basis + 3 * periodicRows[1], basis + 3 * free[0]);
    return normalizeRow(basis + 3 * free[0]);
  }
  const double* a = basis + 3 * periodicRows[0];
  if (dot3(a, a) == 0.0) return false;
  double axis[3] = {0.0, 0.0, 0.0};
  int least = 0;
  for (int c = 1; c < 3; ++c) {
    if (fabs(a[c]) < fabs(a[least])) least = c;
  }
  axis[least] = 1.0;
  cross3(a, axis, basis + 3 * free[0]);
  if (!normalizeRow(basis + 3 * free[0])) return false;
  cross3(a, basis + 3 * free[0], basis + 3 * free[1]);
  return normalizeRow(basis + 3 * free[1]);
}

/** A grid that finds no pairs, for systems whose real grid failed: later kernels stay in bounds. */
__device__ void degenerateGrid(SystemGrid& g) {
  for (int i = 0; i < 9; ++i) g.basis[i] = g.inverse[i] = (i % 4 == 0) ? 1.0 : 0.0;
  for (int k = 0; k < 3; ++k) {
    g.periodic[k] = 0;
    g.lower[k] = 0.0;
    g.binWidth[k] = g.binFraction[k] = 1.0;
    g.bins[k] = 1;
    g.reach[k] = g.images[k] = 0;
  }
  g.orthogonal = 1;
  g.imageBits = 0;
  g.valid = 0;
}

/** ceil(distance / width − 1e-9) (BinGrid's binsToReach), capped so a vanishing width cannot overflow. */
__device__ int binsToReach(double distance, double width) {
  return static_cast<int>(fmin(ceil(distance / width - 1e-9), 1e7));
}

/** BinGrid's makeBinGrid after the extents are known; returns the number of lattice images it needs. */
__device__ double layBins(SystemGrid& g, const double* extent, long long count, double rlist, bool singleBin) {
  long long bins[3];
  for (int k = 0; k < 3; ++k) {
    bins[k] = singleBin ? 1 : max(1ll, static_cast<long long>(fmin(extent[k] * kBinsPerReach / rlist, 1e6)));
  }
  const long long cap = max(kMinBinCap, kMaxBinsPerAtom * count);
  while (bins[0] * bins[1] * bins[2] > cap) {
    const double shrink = cbrt(static_cast<double>(bins[0] * bins[1] * bins[2]) / static_cast<double>(cap));
    for (int k = 0; k < 3; ++k) bins[k] = max(1ll, static_cast<long long>(bins[k] / fmax(shrink, 1.01)));
  }
  double images = 1.0;
  for (int k = 0; k < 3; ++k) {
    g.bins[k] = static_cast<int>(bins[k]);
    if (g.periodic[k]) {
      g.binWidth[k] = extent[k] / g.bins[k];
      g.binFraction[k] = 1.0 / g.bins[k];
      g.reach[k] = binsToReach(rlist, g.binWidth[k]);
      g.images[k] = (g.reach[k] + g.bins[k] - 1) / g.bins[k];
    } else {
      g.binWidth[k] = g.bins[k] > 1 ? extent[k] / g.bins[k] : fmax(extent[k], rlist);
      g.binFraction[k] = g.binWidth[k];
      g.reach[k] = g.bins[k] > 1 ? min(binsToReach(rlist, g.binWidth[k]), g.bins[k] - 1) : 0;
      g.images[k] = 0;
    }
    images *= 2.0 * g.images[k] + 1.0;
  }
  return images;
}

/** Per system: the completed basis, its inverse and the extent accumulators. */
__global__ void __launch_bounds__(kBlock) startGrids(GridArgs args) {
  const std::int64_t s = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (s >= args.systems.numSystems) return;
  SystemGrid& g = args.systems.d_grids[s];
  const double* cell = args.d_cell + 9 * s;
  g.atomBegin = args.systems.d_ptr[s];
  g.atomCount = args.systems.d_ptr[s + 1] - g.atomBegin;
  for (int i = 0; i < 9; ++i) g.cell[i] = g.basis[i] = cell[i];
  for (int k = 0; k < 3; ++k) {
    g.pbc[k] = args.d_pbc[3 * s + k];
    g.periodic[k] = g.pbc[k] != 0 ? 1 : 0;
    args.d_extents[6 * s + k] = ~0ull;
    args.d_extents[6 * s + 3 + k] = 0ull;
  }
  bool ok = completeBasis(g.basis, g.periodic);
  const double det = det3(g.basis);
  double scale = 0.0;
  for (int i = 0; i < 9; ++i) scale = fmax(scale, fabs(g.basis[i]));
  ok = ok && fabs(det) > 1e-12 * scale * scale * scale && isfinite(det);
  if (!ok) {
    report(args.systems, s, kSingularCell);
    degenerateGrid(g);
    return;
  }
  const double* m = g.basis;
  double* inv = g.inverse;
  inv[0] = (m[4] * m[8] - m[5] * m[7]) / det;
  inv[1] = (m[2] * m[7] - m[1] * m[8]) / det;
  inv[2] = (m[1] * m[5] - m[2] * m[4]) / det;
  inv[3] = (m[5] * m[6] - m[3] * m[8]) / det;
  inv[4] = (m[0] * m[8] - m[2] * m[6]) / det;
  inv[5] = (m[2] * m[3] - m[0] * m[5]) / det;
  inv[6] = (m[3] * m[7] - m[4] * m[6]) / det;
  inv[7] = (m[1] * m[6] - m[0] * m[7]) / det;
  inv[8] = (m[0] * m[4] - m[1] * m[3]) / det;
  const double* r[3] = {m, m + 3, m + 6};
  g.orthogonal = fabs(dot3(r[0], r[1])) + fabs(dot3(r[0], r[2])) + fabs(dot3(r[1], r[2])) <=
                 1e-12 * (dot3(r[0], r[0]) + dot3(r[1], r[1]) + dot3(r[2], r[2]));
  g.valid = 1;
}

/**
 * Per atom: refuses non-finite coordinates and widens its system's extents along non-periodic rows. A warp
 * whose atoms all belong to one system combines them first, so a large cluster costs one atomic per warp.
 */
__global__ void __launch_bounds__(kBlock) measureExtents(GridArgs args) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const bool active = i < args.systems.numAtoms;
  const int s = active ? args.systems.d_systemOf[i] : -1;
  const SystemGrid* g = active ? &args.systems.d_grids[s] : nullptr;
  const double* x = args.d_positions + 3 * (active ? i : 0);
  if (active && !(isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]))) report(args.systems, s, kNonFinitePosition);
  const bool uniform = __all_sync(kFullMask, s == __shfl_sync(kFullMask, s, 0));
  for (int k = 0; k < 3; ++k) {
    // Inactive lanes and periodic rows contribute the identities of min and max.
    const bool measured = active && g->valid && !g->periodic[k];
    const unsigned long long bits = measured ? orderedBits(dot3(x, g->basis + 3 * k)) : 0ull;
    unsigned long long lo = measured ? bits : ~0ull;
    unsigned long long hi = bits;
    if (uniform) {
      for (int offset = 16; offset > 0; offset >>= 1) {
        lo = min(lo, __shfl_down_sync(kFullMask, lo, offset));
        hi = max(hi, __shfl_down_sync(kFullMask, hi, offset));
      }
      if ((threadIdx.x & 31) != 0 || s < 0 || lo == ~0ull) continue;
    } else if (!measured) {
      continue;
    }
    atomicMin(&args.d_extents[6 * s + k], lo);
    atomicMax(&args.d_extents[6 * s + 3 + k], hi);
  }
}

/** Per system: bins, reach and images from the extents, with the CPU's single-bin rule and limits. */
__global__ void __launch_bounds__(kBlock) finishGrids(GridArgs args) {
  const std::int64_t s = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (s >= args.systems.numSystems) return;
  SystemGrid& g = args.systems.d_grids[s];
  const long long count = g.atomCount;
  if (g.valid) {
    double extent[3];
    const double det = fabs(det3(g.basis));
    for (int k = 0; k < 3; ++k) {
      if (g.periodic[k]) {
        double normal[3];
        cross3(g.basis + 3 * ((k + 1) % 3), g.basis + 3 * ((k + 2) % 3), normal);
        extent[k] = det / sqrt(dot3(normal, normal));
        g.lower[k] = 0.0;
        continue;
      }
      const double lo = count > 0 ? fromOrderedBits(args.d_extents[6 * s + k]) : 0.0;
      const double hi = count > 0 ? fromOrderedBits(args.d_extents[6 * s + 3 + k]) : 0.0;
      // Non-finite positions (reported above, or in an unwanted system) give a non-finite bound; finite
      // bounds can still span more than a double holds, which the CPU's BinGrid refuses the same way.
      const bool finite = isfinite(lo) && isfinite(hi) && isfinite(hi - lo);
      if (isfinite(lo) && isfinite(hi) && !finite) report(args.systems, s, kFarPosition);
      g.lower[k] = finite ? lo : 0.0;
      extent[k] = finite ? hi - lo : 0.0;
    }
    const double singleImages = layBins(g, extent, count, args.rlist, true);
    if (singleImages > kMaxImages) {
      report(args.systems, s, kCellTooNarrow);
      degenerateGrid(g);
    } else {
      if (count * static_cast<long long>(singleImages) > kSingleBinCandidates) layBins(g, extent, count, args.rlist, false);
      const int imageCount = (2 * g.images[0] + 1) * (2 * g.images[1] + 1) * (2 * g.images[2] + 1);
      int bits = 0;
      while ((1 << bits) < imageCount) ++bits;
      g.imageBits = bits;
      if (count > 0 && (static_cast<unsigned long long>(count - 1) >> (32 - bits)) != 0) {
        report(args.systems, s, kSystemTooLarge);
        degenerateGrid(g);
      }
    }
  }
  args.d_binCount[s] = static_cast<unsigned long long>(g.bins[0]) * g.bins[1] * g.bins[2];
  // A system that could not be built stays stale, so it is retried (and reported) once it is wanted.
  args.systems.d_stale[s] = g.valid ? 0 : 1;
}

}  // namespace

cudaError_t scanTempBytes(std::int64_t numSystems, std::size_t* bytes) {
  return cub::DeviceScan::InclusiveSum(nullptr, *bytes, static_cast<const unsigned long long*>(nullptr),
                                       static_cast<unsigned long long*>(nullptr), static_cast<int>(numSystems));
}

cudaError_t setupGrids(const GridArgs& args) {
  const std::int64_t systems = args.systems.numSystems;
  cudaError_t status = device::launch(startGrids, blocksFor(systems), kBlock, 0, args);
  if (status == cudaSuccess && args.systems.numAtoms > 0) {
    status = device::launch(measureExtents, blocksFor(args.systems.numAtoms), kBlock, 0, args);
  }
  if (status == cudaSuccess) status = device::launch(finishGrids, blocksFor(systems), kBlock, 0, args);
  if (status == cudaSuccess) status = device::memsetAsync(args.d_binOffset, 0, sizeof(unsigned long long));
  if (status != cudaSuccess) return status;
  std::size_t tempBytes = args.tempBytes;
  status = device::libraryCall([&] {
    return cub::DeviceScan::InclusiveSum(args.d_temp, tempBytes, args.d_binCount, args.d_binOffset + 1, static_cast<int>(systems));
  });
  if (status != cudaSuccess) return status;
  return device::copyOnDevice(&args.systems.d_status->totalBins, args.d_binOffset + systems, sizeof(unsigned long long));
}

}  // namespace hookmd::kernel
