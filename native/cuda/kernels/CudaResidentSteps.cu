// Kernels of a resident chunk: one thread per slot over the whole batch, with the same HD updates as the
// CPU's VelocityVerlet (math/VelocityVerletUpdate.h) and the same wrapped positions and skin test as the
// check of CudaNeighborList.cu.
#include "cuda/kernels/CudaResidentSteps.cuh"
#include "cuda/core/CudaLaunch.cuh"

#include "math/PairGeometry.h"
#include "math/VelocityVerletUpdate.h"

namespace hookmd::kernel {

namespace {

constexpr int kBlock = 256;

unsigned int blocksFor(std::int64_t count) { return static_cast<unsigned int>((count + kBlock - 1) / kBlock); }

__global__ void resetStatus(ResidentStatus* status) {
  status->neighbor = NeighborStatus{kNoError, 0, 0, 0, 0, ~0ull};
  status->passes = 0;
  status->systemsRebuilt = 0;
}

__global__ void __launch_bounds__(kBlock) kickDriftCheck(ResidentStepArgs args, cudaGraphConditionalHandle rebuild) {
  const std::int64_t p = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (p >= args.systems.numAtoms) return;
  const std::int64_t atom = args.d_slotAtom[p];
  const int s = args.systems.d_systemOf[p];
  const double dt = args.d_dt[s];
  double* xAtom = args.d_positions + 3 * atom;
  double* vAtom = args.d_velocities + 3 * atom;
  const double* fAtom = args.d_forces + 3 * atom;
  double x[3] = {xAtom[0], xAtom[1], xAtom[2]};
  double v[3] = {vAtom[0], vAtom[1], vAtom[2]};
  const double f[3] = {fAtom[0], fAtom[1], fAtom[2]};
  halfKick(v, f, args.forceToAccel / args.d_masses[atom], 0.5 * dt);
  drift(x, v, dt);
  for (int c = 0; c < 3; ++c) {
    xAtom[c] = x[c];
    vAtom[c] = v[c];
  }
  // The slot position as prepareSlotPositions writes it: the atom moved by the wrap of the last build.
  const double* h = args.systems.d_grids[s].basis;
  const std::int32_t* w = args.d_wrap + 3 * atom;
  double xw[3];
  for (int c = 0; c < 3; ++c) xw[c] = x[c] + w[0] * h[c] + w[1] * h[3 + c] + w[2] * h[6 + c];
  const long long type = args.d_types != nullptr ? args.d_types[atom] : 0;
  args.d_slotPositions[p] = SlotPosition{xw[0], xw[1], xw[2], __longlong_as_double(type)};
  const SlotPosition ref = args.d_reference[p];
  const double d[3] = {xw[0] - ref.x, xw[1] - ref.y, xw[2] - ref.z};
  // A NaN displacement counts as moved, so the rebuild reports the bad position (and the chunk is replayed).
  if (dot3(d, d) <= args.limitSq) return;
  args.systems.d_stale[s] = 1;
  // One thread sets the condition (concurrent sets are undefined); residentRebuilt clears the guard.
  if (atomicExch(&args.systems.d_status->rebuild, 1u) == 0u) cudaGraphSetConditional(rebuild, 1u);
}

__global__ void __launch_bounds__(kBlock) clearStale(SystemArrays systems, ResidentStatus* status) {
  const std::int64_t s = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (s == 0) {
    ++status->passes;
    status->neighbor.rebuild = 0;
  }
  if (s >= systems.numSystems || systems.d_stale[s] == 0) return;
  systems.d_stale[s] = 0;
  atomicAdd(&status->systemsRebuilt, 1ull);
}

}  // namespace

cudaError_t residentReset(ResidentStatus* d_status) { return device::launch(resetStatus, 1, 1, 0, d_status); }

cudaError_t residentKickDriftCheck(const ResidentStepArgs& args, cudaGraphConditionalHandle rebuild) {
  return device::launch(kickDriftCheck, blocksFor(args.systems.numAtoms), kBlock, 0, args, rebuild);
}

cudaError_t residentRebuilt(const SystemArrays& systems, ResidentStatus* d_status) {
  return device::launch(clearStale, blocksFor(systems.numSystems), kBlock, 0, systems, d_status);
}

}  // namespace hookmd::kernel
