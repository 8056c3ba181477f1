// Per-atom integrator phases: thread i updates atom i when its system is selected. Each thread loads its
// atom into registers, applies the same HD updates as the CPU loops in the same order, and stores it back.
#include "cuda/dynamics/CudaAtomSteps.cuh"
#include "cuda/core/CudaLaunch.cuh"

#include <cmath>

#include "cuda/dynamics/CudaAtomAccess.cu.inc"
#include "math/VelocityVerletUpdate.h"

namespace hookmd::kernel {

namespace {

constexpr int kBlockSize = 256;

/** The atom this thread updates, or -1 when there is none or its system is not selected. */
__device__ __forceinline__ std::int64_t selectedAtom(const AtomStepArgs& a, std::int32_t& system) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kBlockSize + threadIdx.x;
  if (i >= a.numAtoms) return -1;
  system = a.d_systemIndex[i];
  return a.selection.updates(system) ? i : -1;
}

__global__ void __launch_bounds__(kBlockSize) kickDriftKernel(AtomStepArgs a) {
  std::int32_t s = 0;
  const std::int64_t i = selectedAtom(a, s);
  if (i < 0) return;
  const double dt = a.d_dt[s];
  double x[3], v[3], f[3];
  load3(a.d_positions, i, x);
  load3(a.d_velocities, i, v);
  load3(a.d_forces, i, f);
  halfKick(v, f, a.forceToAccel / a.d_masses[i], 0.5 * dt);
  drift(x, v, dt);
  store3(a.d_positions, i, x);
  store3(a.d_velocities, i, v);
}

__global__ void __launch_bounds__(kBlockSize) kickKernel(AtomStepArgs a) {
  std::int32_t s = 0;
  const std::int64_t i = selectedAtom(a, s);
  if (i < 0) return;
  double v[3], f[3];
  load3(a.d_velocities, i, v);
  load3(a.d_forces, i, f);
  halfKick(v, f, a.forceToAccel / a.d_masses[i], 0.5 * a.d_dt[s]);
  store3(a.d_velocities, i, v);
}

unsigned int blocksFor(std::int64_t atoms) { return static_cast<unsigned int>((atoms + kBlockSize - 1) / kBlockSize); }

}  // namespace

cudaError_t verletKickDrift(const AtomStepArgs& args) {
  if (args.numAtoms == 0) return cudaSuccess;
  return device::launch(kickDriftKernel, blocksFor(args.numAtoms), kBlockSize, 0, args);
}

cudaError_t verletKick(const AtomStepArgs& args) {
  if (args.numAtoms == 0) return cudaSuccess;
  return device::launch(kickKernel, blocksFor(args.numAtoms), kBlockSize, 0, args);
}

}  // namespace hookmd::kernel
