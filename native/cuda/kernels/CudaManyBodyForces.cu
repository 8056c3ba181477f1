// The GPU many-body kernel. Every compute searches each centre's neighbours within the cutoff among its
// system's atoms and their periodic images (no skin, so the search is the list), then one thread per centre
// runs the same centre routine as the CPU kernel over its row. A pair's offset is computed once, from the
// atom with the lower index (or the image with the higher index), and negated for the other end, so j is in
// i's row exactly when i is in j's, with the opposite image. That lets each atom gather the forces that
// its neighbours' centres put on it from their rows, in row order: no floating-point atomics, the same bits
// on every run.
#include "cuda/kernels/CudaManyBodyForces.cuh"
#include "cuda/core/CudaLaunch.cuh"
#include "cuda/neighbor/CudaRowCounts.cuh"

#include "kernels/ManyBodyForceKernel.h"
#include "math/CellMath.h"
#include "math/PairGeometry.h"
#include "math/StillingerWeberEval.h"
#include "math/TersoffEval.h"

namespace hookmd::kernel {

namespace {

constexpr int kBlock = 128;
/** The CPU build's limit on the periodic images one system's search may need (CELL_TOO_NARROW beyond it). */
constexpr long long kMaxImages = 1048576;

unsigned int blocksFor(std::int64_t count) { return static_cast<unsigned int>((count + kBlock - 1) / kBlock); }

__device__ bool wantedSystem(const SystemArrays& systems, std::int64_t s) {
  return systems.d_wanted == nullptr || systems.d_wanted[s] != 0;
}

__device__ void reportError(const SystemArrays& systems, std::int64_t s, NeighborError error) {
  atomicMin(&systems.d_status->firstError, (static_cast<unsigned long long>(s) << 3) | error);
}

/** The image index of lattice translation n within ±images: the self image (0, 0, 0) is the middle one, and −n mirrors n about it. */
__device__ int imageIndex(const int* images, int n0, int n1, int n2) {
  return ((n0 + images[0]) * (2 * images[1] + 1) + (n1 + images[1])) * (2 * images[2] + 1) + (n2 + images[2]);
}

/** Per system: the completed cell, its inverse and the images each periodic direction needs for the cutoff. */
__global__ void __launch_bounds__(kBlock) setupImages(ManyBodyArgs args) {
  const std::int64_t s = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (s >= args.systems.numSystems || !wantedSystem(args.systems, s)) return;
  ManyBodySystem g{};
  const double* cell = args.d_cell + 9 * s;
  const std::uint8_t* pbc = args.d_pbc + 3 * s;
  bool periodic = false;
  for (int k = 0; k < 3; ++k) {
    g.periodic[k] = pbc[k] != 0 ? 1 : 0;
    periodic = periodic || g.periodic[k] != 0;
  }
  g.valid = 1;
  if (periodic) {
    completeCell(cell, pbc, g.basis);
    double scale = 0.0;
    for (int k = 0; k < 9; ++k) scale = fmax(scale, fabs(g.basis[k]));
    const double volume = fabs(determinant(g.basis));
    if (!(scale > 0.0 && volume > 1e-12 * scale * scale * scale) || !isfinite(volume) || !invert3(g.basis, g.inverse)) {
      g.valid = 0;
      reportError(args.systems, s, kSingularCell);
    } else {
      const double cutoff = sqrt(args.cutoffSq);
      long long total = 1;
      for (int k = 0; k < 3; ++k) {
        if (!g.periodic[k]) continue;
        double across[3];
        cross3(g.basis + 3 * ((k + 1) % 3), g.basis + 3 * ((k + 2) % 3), across);
        // The distance between neighbouring lattice planes of direction k; a pair within the cutoff spans
        // less than cutoff / width of it, from two atoms inside the cell: at most ⌊cutoff / width⌋ + 1 images.
        const double reach = cutoff * sqrt(dot3(across, across)) / volume;
        if (!(reach < static_cast<double>(kMaxImages))) {
          total = kMaxImages + 1;
          break;
        }
        g.images[k] = static_cast<int>(floor(reach)) + 1;
        total *= 2 * g.images[k] + 1;
        if (total > kMaxImages) break;
      }
      if (total > kMaxImages) {
        g.valid = 0;
        reportError(args.systems, s, kCellTooNarrow);
      }
    }
  }
  args.d_images[s] = g;
}

/** Per atom: its position wrapped into its cell along the periodic directions. */
__global__ void __launch_bounds__(kBlock) wrapAtoms(ManyBodyArgs args) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i >= args.systems.numAtoms) return;
  const int s = args.systems.d_systemOf[i];
  if (!wantedSystem(args.systems, s)) return;
  const double* x = args.d_positions + 3 * i;
  double xw[3] = {x[0], x[1], x[2]};
  if (!isfinite(xw[0]) || !isfinite(xw[1]) || !isfinite(xw[2])) {
    reportError(args.systems, s, kNonFinitePosition);
  } else {
    const ManyBodySystem& g = args.d_images[s];
    for (int k = 0; k < 3 && g.valid; ++k) {
      if (!g.periodic[k]) continue;
      double whole = floor(xw[0] * g.inverse[k] + xw[1] * g.inverse[3 + k] + xw[2] * g.inverse[6 + k]);
      if (!(fabs(whole) < 1e9)) {
        reportError(args.systems, s, kFarPosition);
        whole = 0.0;
      }
      for (int c = 0; c < 3; ++c) xw[c] -= whole * g.basis[3 * k + c];
    }
  }
  for (int c = 0; c < 3; ++c) args.d_wrapped[3 * i + c] = xw[c];
}

/**
 * Per centre: every (atom, image) of its system within the cutoff, in atom then image order, into its row;
 * the row's length, and over the batch the longest and the total, into the status block.
 */
__global__ void __launch_bounds__(kBlock) searchRows(ManyBodyArgs args) {
  const std::int64_t n = args.systems.numAtoms;
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t stride = n * args.capacity;
  unsigned int count = 0;
  if (i < n) {
    const int s = args.systems.d_systemOf[i];
    const ManyBodySystem& g = args.d_images[s];
    if (wantedSystem(args.systems, s) && g.valid) {
      int images[3] = {g.images[0], g.images[1], g.images[2]};
      const int self = imageIndex(images, 0, 0, 0);
      const double xi[3] = {args.d_wrapped[3 * i], args.d_wrapped[3 * i + 1], args.d_wrapped[3 * i + 2]};
      const std::int64_t row = i * args.capacity;
      const std::int32_t end = args.systems.d_ptr[s + 1];
      for (std::int32_t j = args.systems.d_ptr[s]; j < end; ++j) {
        const double xj[3] = {args.d_wrapped[3 * j], args.d_wrapped[3 * j + 1], args.d_wrapped[3 * j + 2]};
        for (int n0 = -images[0]; n0 <= images[0]; ++n0) {
          for (int n1 = -images[1]; n1 <= images[1]; ++n1) {
            for (int n2 = -images[2]; n2 <= images[2]; ++n2) {
              const int image = imageIndex(images, n0, n1, n2);
              if (j == i && image == self) continue;
              const bool forward = j > i || (j == i && image > self);
              double shift[3];
              double d[3];
              if (forward) {
                latticeTranslation(g.basis, n0, n1, n2, shift);
                for (int c = 0; c < 3; ++c) d[c] = xj[c] + shift[c] - xi[c];
              } else {
                latticeTranslation(g.basis, -n0, -n1, -n2, shift);
                for (int c = 0; c < 3; ++c) d[c] = -(xi[c] + shift[c] - xj[c]);
              }
              const double r2 = dot3(d, d);
              if (!(r2 < args.cutoffSq)) continue;
              if (count < static_cast<unsigned int>(args.capacity)) {
                const std::int64_t e = row + count;
                const double r = sqrt(r2);
                const double inv = 1.0 / r;
                args.d_atom[e] = j;
                args.d_image[e] = image;
                args.d_type[e] = args.d_types != nullptr ? args.d_types[j] : 0;
                const double values[7] = {d[0], d[1], d[2], r, d[0] * inv, d[1] * inv, d[2] * inv};
                for (int a = 0; a < 7; ++a) args.d_geometry[a * stride + e] = values[a];
              }
              ++count;
            }
          }
        }
      }
    }
    args.d_count[i] = static_cast<std::int32_t>(min(count, static_cast<unsigned int>(args.capacity)));
  }
  // Every lane reaches the warp sums (no early return above).
  reportRows(args.systems.d_status, count);
}

template <ManyBodyStyle S, bool kOne>
__device__ void runCentre(const ManyBodyArgs& args, int ti, const ManyBodyNeighbors& nb, std::int64_t row, std::int64_t stride,
                          double& energy, double* fx, double* fy, double* fz) {
  double* scratch = args.d_scratch + row;
  if constexpr (S == ManyBodyStyle::StillingerWeber) {
    const StillingerWeberScratch s{scratch, scratch + stride, args.d_flags + row};
    stillingerWeberCentre<kOne>(static_cast<const StillingerWeberParams*>(args.d_rows), args.numTypes, ti, nb, s, energy, fx, fy, fz);
  } else {
    constexpr TersoffStyle kStyle =
        S == ManyBodyStyle::Tersoff ? TersoffStyle::Tersoff : (S == ManyBodyStyle::TersoffMod ? TersoffStyle::Mod : TersoffStyle::Zbl);
    TersoffScratch s{scratch,
                     scratch + stride,
                     scratch + 2 * stride,
                     scratch + 3 * stride,
                     scratch + 4 * stride,
                     scratch + 5 * stride,
                     scratch + 6 * stride};
    tersoffCentre<kStyle, kOne>(static_cast<const TersoffParams*>(args.d_rows), args.numTypes, ti, nb, s, energy, fx, fy, fz);
  }
}

/** Per centre: its energy and virial W = Σ d_m ⊗ F_m into its slot sums, and the force on each neighbour into its row. */
template <ManyBodyStyle S, bool kOne>
__global__ void __launch_bounds__(kBlock) centres(ManyBodyArgs args) {
  const std::int64_t n = args.systems.numAtoms;
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i >= n || !wantedSystem(args.systems, args.systems.d_systemOf[i])) return;
  const std::int64_t stride = n * args.capacity;
  const std::int64_t row = i * args.capacity;
  const double* geometry = args.d_geometry + row;
  const ManyBodyNeighbors nb{args.d_count[i],      args.d_type + row,        geometry,
                             geometry + stride,    geometry + 2 * stride,    geometry + 3 * stride,
                             geometry + 4 * stride, geometry + 5 * stride,   geometry + 6 * stride};
  double* fx = args.d_entryForces + row;
  double* fy = fx + stride;
  double* fz = fx + 2 * stride;
  for (int m = 0; m < nb.count; ++m) {
    fx[m] = 0.0;
    fy[m] = 0.0;
    fz[m] = 0.0;
  }
  double energy = 0.0;
  runCentre<S, kOne>(args, args.d_types != nullptr ? args.d_types[i] : 0, nb, row, stride, energy, fx, fy, fz);
  args.d_slotSums[i] = energy;
  if (!args.virial) return;
  double w[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  for (int m = 0; m < nb.count; ++m) {
    w[0] += nb.dx[m] * fx[m];
    w[1] += nb.dy[m] * fy[m];
    w[2] += nb.dz[m] * fz[m];
    w[3] += nb.dx[m] * fy[m];
    w[4] += nb.dx[m] * fz[m];
    w[5] += nb.dy[m] * fz[m];
  }
  for (int c = 0; c < 6; ++c) args.d_slotSums[(c + 1) * n + i] = w[c];
}

/**
 * Per atom: minus the forces its own centre put on its neighbours, plus, for each neighbour in its row, the
 * force that neighbour's centre put on it (the entry naming it with the opposite image), in row order.
 */
__global__ void __launch_bounds__(kBlock) gatherForces(ManyBodyArgs args) {
  const std::int64_t n = args.systems.numAtoms;
  const std::int64_t j = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (args.d_forces == nullptr || j >= n) return;
  const int s = args.systems.d_systemOf[j];
  if (!wantedSystem(args.systems, s)) return;
  const std::int64_t stride = n * args.capacity;
  const double* fx = args.d_entryForces;
  const double* fy = fx + stride;
  const double* fz = fx + 2 * stride;
  const std::int64_t row = j * args.capacity;
  const int count = args.d_count[j];
  double f[3] = {0.0, 0.0, 0.0};
  for (int m = 0; m < count; ++m) {
    f[0] -= fx[row + m];
    f[1] -= fy[row + m];
    f[2] -= fz[row + m];
  }
  const int self = imageIndex(args.d_images[s].images, 0, 0, 0);
  for (int m = 0; m < count; ++m) {
    const std::int64_t i = args.d_atom[row + m];
    const int mirrored = 2 * self - args.d_image[row + m];
    const std::int64_t other = i * args.capacity;
    const int length = args.d_count[i];
    for (int e = 0; e < length; ++e) {
      if (args.d_atom[other + e] != j || args.d_image[other + e] != mirrored) continue;
      f[0] += fx[other + e];
      f[1] += fy[other + e];
      f[2] += fz[other + e];
      break;
    }
  }
  for (int c = 0; c < 3; ++c) args.d_forces[3 * j + c] = f[c];
}

template <ManyBodyStyle S>
cudaError_t launchCentres(const ManyBodyArgs& args) {
  const unsigned int blocks = blocksFor(args.systems.numAtoms);
  return args.numTypes == 1 ? device::launch(centres<S, true>, blocks, kBlock, 0, args)
                            : device::launch(centres<S, false>, blocks, kBlock, 0, args);
}

}  // namespace

cudaError_t searchCentres(const ManyBodyArgs& args) {
  cudaError_t status = device::launch(setupImages, blocksFor(args.systems.numSystems), kBlock, 0, args);
  if (status != cudaSuccess) return status;
  status = device::launch(wrapAtoms, blocksFor(args.systems.numAtoms), kBlock, 0, args);
  if (status != cudaSuccess) return status;
  return device::launch(searchRows, blocksFor(args.systems.numAtoms), kBlock, 0, args);
}

cudaError_t manyBodyForces(const ManyBodyArgs& args) {
  cudaError_t status = cudaErrorInvalidValue;
  switch (static_cast<ManyBodyStyle>(args.style)) {
#define HOOKMD_STYLE_LAUNCH(name, lammps, length) \
  case ManyBodyStyle::name:                       \
    status = launchCentres<ManyBodyStyle::name>(args); \
    break;
    HOOKMD_MANY_BODY_STYLES(HOOKMD_STYLE_LAUNCH)
#undef HOOKMD_STYLE_LAUNCH
  }
  if (status != cudaSuccess) return status;
  return device::launch(gatherForces, blocksFor(args.systems.numAtoms), kBlock, 0, args);
}

}  // namespace hookmd::kernel
