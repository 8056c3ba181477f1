// Native built-in hooks as kernels. Each one does per atom what its CPU reference in dynamics/hooks does,
// through the same HD helpers (math/CellMath.h, math/Reductions.h).
#include "cuda/dynamics/CudaHookKernels.cuh"
#include "cuda/core/CudaLaunch.cuh"

#include <cmath>

#include "cuda/dynamics/CudaAtomAccess.cu.inc"
#include "math/CellMath.h"
#include "math/ForceClamp.h"
#include "math/Reductions.h"

namespace hookmd::kernel {

namespace {

constexpr int kBlockSize = 256;

unsigned int blocksFor(std::int64_t threads) { return static_cast<unsigned int>((threads + kBlockSize - 1) / kBlockSize); }

__device__ __forceinline__ std::int64_t threadIndex() {
  return static_cast<std::int64_t>(blockIdx.x) * kBlockSize + threadIdx.x;
}

/** Whether the hook visits system s. */
__device__ __forceinline__ bool visits(const HookAtoms& atoms, std::int32_t s) {
  return atoms.d_active == nullptr || atoms.d_active[s] != 0;
}

__global__ void __launch_bounds__(kBlockSize) anchorKernel(FreezeArgs a) {
  const std::int64_t k = threadIndex();
  if (k >= a.count) return;
  double x[3];
  load3(a.d_positions, a.d_frozen[k], x);
  store3(a.d_anchor, k, x);
}

__global__ void __launch_bounds__(kBlockSize) freezeKernel(FreezeArgs a) {
  const std::int64_t k = threadIndex();
  if (k >= a.count) return;
  const std::int64_t i = a.d_frozen[k];
  double x[3];
  load3(a.d_anchor, k, x);
  const double zero[3] = {0.0, 0.0, 0.0};
  store3(a.d_positions, i, x);
  store3(a.d_velocities, i, zero);
  if (a.d_forces != nullptr) store3(a.d_forces, i, zero);
}

// MaxForceClamp::apply for one atom.
__global__ void __launch_bounds__(kBlockSize) clampKernel(ForceClampArgs a) {
  const std::int64_t i = threadIndex();
  if (i >= a.atoms.numAtoms || !visits(a.atoms, a.atoms.d_systemIndex[i])) return;
  double f[3];
  load3(a.d_forces, i, f);
  if (clampForce(f, a.maxForce)) store3(a.d_forces, i, f);
}

// WrapPeriodic::apply for one atom: each thread inverts its system's cell itself, which costs less than
// the memory traffic of sharing it and keeps one launch.
__global__ void __launch_bounds__(kBlockSize) wrapKernel(WrapArgs a) {
  const std::int64_t i = threadIndex();
  if (i >= a.atoms.numAtoms) return;
  const std::int32_t s = a.atoms.d_systemIndex[i];
  if (!visits(a.atoms, s)) return;
  const std::uint8_t* periodic = a.d_pbc + 3 * static_cast<std::int64_t>(s);
  if (!(periodic[0] || periodic[1] || periodic[2])) return;
  double cell[9];
  completeCell(a.d_cells + 9 * static_cast<std::int64_t>(s), periodic, cell);
  double inverse[9];
  if (!invert3(cell, inverse)) return;
  double x[3], fractional[3];
  load3(a.d_positions, i, x);
  toFractional(x, inverse, fractional);
  for (int k = 0; k < 3; ++k) {
    if (periodic[k]) fractional[k] -= floor(fractional[k]);
  }
  toCartesian(fractional, cell, x);
  store3(a.d_positions, i, x);
}

// NaNDetector::apply: threads [0, numAtoms) check one atom each, the next numSystems one energy each. Every
// writer stores the same value 1, so concurrent stores need no atomics and the flags do not depend on order.
__global__ void __launch_bounds__(kBlockSize) nonFiniteKernel(NonFiniteArgs a) {
  const std::int64_t index = threadIndex();
  bool finite = true;
  std::int64_t s = 0;
  if (index < a.atoms.numAtoms) {
    s = a.atoms.d_systemIndex[index];
    if (!visits(a.atoms, static_cast<std::int32_t>(s))) return;
    for (int c = 0; c < 3; ++c) {
      finite = finite && isfinite(a.d_positions[3 * index + c]) && isfinite(a.d_velocities[3 * index + c]) &&
               isfinite(a.d_forces[3 * index + c]);
    }
  } else if (index < a.atoms.numAtoms + a.numSystems) {
    s = index - a.atoms.numAtoms;
    if (!visits(a.atoms, static_cast<std::int32_t>(s))) return;
    finite = isfinite(a.d_energy[s]);
  }
  if (finite) return;
  a.d_bad[s] = 1;
  *a.d_anyBad = 1;
}

}  // namespace

cudaError_t anchorFrozen(const FreezeArgs& args) {
  if (args.count == 0) return cudaSuccess;
  return device::launch(anchorKernel, blocksFor(args.count), kBlockSize, 0, args);
}

cudaError_t freezeAtoms(const FreezeArgs& args) {
  if (args.count == 0) return cudaSuccess;
  return device::launch(freezeKernel, blocksFor(args.count), kBlockSize, 0, args);
}

cudaError_t clampForces(const ForceClampArgs& args) {
  if (args.atoms.numAtoms == 0) return cudaSuccess;
  return device::launch(clampKernel, blocksFor(args.atoms.numAtoms), kBlockSize, 0, args);
}

cudaError_t wrapPositions(const WrapArgs& args) {
  if (args.atoms.numAtoms == 0) return cudaSuccess;
  return device::launch(wrapKernel, blocksFor(args.atoms.numAtoms), kBlockSize, 0, args);
}

cudaError_t findNonFinite(const NonFiniteArgs& args) {
  const std::int64_t threads = args.atoms.numAtoms + args.numSystems;
  if (threads == 0) return cudaSuccess;
  return device::launch(nonFiniteKernel, blocksFor(threads), kBlockSize, 0, args);
}

}  // namespace hookmd::kernel
