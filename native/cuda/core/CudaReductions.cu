// Per-system reductions: one block per system (grid-stride over systems), each thread folding a strided
// slice of the system's atoms, then a shared-memory tree. The per-atom terms and the fold are the HD
// functions of math/Reductions.h that the CPU backend runs, so both backends share their semantics.
#include "cuda/core/CudaReductions.cuh"
#include "cuda/core/CudaLaunch.cuh"

#include <algorithm>

#include "math/Reductions.h"

namespace hookmd::kernel {

namespace {

constexpr int kBlockSize = 256;
// Enough blocks to fill any current GPU many times over; more systems are walked by the grid stride.
constexpr std::int64_t kMaxBlocks = 65535;
constexpr int kSumOp = 0;

struct FieldAtomValue {
  const double* d_values;
  int components;
  __device__ double operator()(int op, std::int64_t atom) const {
    return reduceAtomValue(op, d_values + atom * components, components);
  }
};

struct KineticAtomValue {
  const double* d_masses;
  const double* d_velocities;
  double forceToAccel;
  __device__ double operator()(int, std::int64_t atom) const {
    return atomKineticEnergy(d_masses[atom], d_velocities + 3 * atom, forceToAccel);
  }
};

template <typename AtomValue>
__global__ void __launch_bounds__(kBlockSize)
    perSystemReduce(SystemRanges systems, AtomValue atomValue, int op, double* d_out) {
  __shared__ double partial[kBlockSize];
  const int tid = threadIdx.x;
  for (std::int64_t s = blockIdx.x; s < systems.numSystems; s += gridDim.x) {
    const std::int64_t begin = systems.d_ptr[s];
    const std::int64_t end = systems.d_ptr[s + 1];
    // Every thread reads the same two offsets, so this branch is uniform across the block and the
    // barriers below stay matched.
    if (begin < 0 || end < begin || end > systems.numAtoms) {
      if (tid == 0) {
        atomicMin(systems.d_firstBadSystem, static_cast<unsigned long long>(s));
        d_out[s] = NAN;
      }
      continue;
    }
    double accumulator = reduceIdentity(op);
    for (std::int64_t atom = begin + tid; atom < end; atom += kBlockSize) {
      accumulator = reduceCombine(op, accumulator, atomValue(op, atom));
    }
    partial[tid] = accumulator;
    __syncthreads();
    for (int stride = kBlockSize / 2; stride > 0; stride >>= 1) {
      if (tid < stride) partial[tid] = reduceCombine(op, partial[tid], partial[tid + stride]);
      __syncthreads();
    }
    // Only thread 0 reads partial[0], and only thread 0 overwrites it for the next system: no barrier needed.
    if (tid == 0) d_out[s] = reduceFinish(op, partial[0], end - begin);
  }
}

template <typename AtomValue>
cudaError_t launch(const SystemRanges& systems, const AtomValue& atomValue, int op, double* d_out) {
  if (systems.numSystems == 0) return cudaSuccess;
  const auto blocks = static_cast<unsigned int>(std::min(systems.numSystems, kMaxBlocks));
  return device::launch(perSystemReduce<AtomValue>, blocks, kBlockSize, 0, systems, atomValue, op, d_out);
}

}  // namespace

cudaError_t reduceField(const ReduceFieldArgs& args) {
  return launch(args.systems, FieldAtomValue{args.d_values, args.components}, args.op, args.d_out);
}

cudaError_t kineticEnergy(const KineticEnergyArgs& args) {
  return launch(args.systems, KineticAtomValue{args.d_masses, args.d_velocities, args.forceToAccel}, kSumOp,
                args.d_out);
}

cudaError_t checkKernelImage() {
  cudaFuncAttributes attributes;
  return cudaFuncGetAttributes(&attributes, perSystemReduce<FieldAtomValue>);
}

}  // namespace hookmd::kernel
