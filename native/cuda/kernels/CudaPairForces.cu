// The GPU pair loop: one thread per slot over the whole batch, so a warp is full whatever the mix of system
// sizes, walking its full neighbor row and writing its own atom's force once (no atomics: the same bits on
// every run). The pair term is the header-only evaluator the CPU runs (math/LennardJonesEval.h,
// MorseEval.h, SmoothSwitch.h); species tables sit in shared memory. Energy and virial per system are
// fixed-order warp sums: one warp per segment of at most kSumSegmentSlots slots, then one warp per system.
#include "cuda/kernels/CudaPairForces.cuh"
#include "cuda/core/CudaLaunch.cuh"

#include "kernels/PairForceKernel.h"
#include "math/PairEvaluators.h"
#include "math/PairGeometry.h"
#include "math/VelocityVerletUpdate.h"

namespace hookmd::kernel {

namespace {

constexpr int kForceBlock = 128;
constexpr int kSumBlock = 256;
constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kSums = 7;
/** Species tables up to this size are staged in shared memory; larger ones are read through the L1. */
constexpr std::size_t kSharedTableBytes = 32 * 1024;

__device__ bool wanted(const SystemArrays& systems, std::int64_t s) {
  return systems.d_wanted == nullptr || systems.d_wanted[s] != 0;
}

template <class Eval, bool kVirial, bool kSwitch, bool kSingle>
__global__ void __launch_bounds__(kForceBlock) pairForceKernel(PairForceArgs args, bool tableInShared) {
  using Params = typename Eval::Params;
  extern __shared__ double s_table[];
  const Params* params = static_cast<const Params*>(args.d_params);
  const SwitchParams* switches = args.d_switches;
  const int tableSize = args.numTypes * args.numTypes;
  if (!kSingle && tableInShared) {
    // Every thread takes part before any returns, so the barrier is reached by the whole block.
    Params* sharedParams = reinterpret_cast<Params*>(s_table);
    SwitchParams* sharedSwitches = reinterpret_cast<SwitchParams*>(sharedParams + tableSize);
    for (int k = threadIdx.x; k < tableSize; k += blockDim.x) {
      sharedParams[k] = params[k];
      if constexpr (kSwitch) sharedSwitches[k] = switches[k];
    }
    __syncthreads();
    params = sharedParams;
    switches = sharedSwitches;
  }
  const std::int64_t n = args.systems.numAtoms;
  const std::int64_t p = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (p >= n) return;
  const int s = args.systems.d_systemOf[p];
  if (!wanted(args.systems, s)) return;

  const SystemGrid& g = args.systems.d_grids[s];
  const int bits = g.imageBits;
  const std::uint32_t mask = (1u << bits) - 1u;
  const std::uint32_t span1 = 2 * g.images[1] + 1;
  const std::uint32_t span2 = 2 * g.images[2] + 1;
  const std::uint32_t self = (g.images[0] * span1 + g.images[1]) * span2 + g.images[2];
  const std::int64_t base = g.atomBegin;
  const SlotPosition xi = args.d_slotPositions[p];
  const int row = kSingle ? 0 : static_cast<int>(__double_as_longlong(xi.w)) * args.numTypes;
  const Params single = kSingle ? params[0] : Params{};
  SwitchParams singleSwitch{};
  if constexpr (kSwitch && kSingle) singleSwitch = switches[0];

  double fx = 0.0;
  double fy = 0.0;
  double fz = 0.0;
  double energy = 0.0;
  double virial[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  const int count = args.d_neighborCount[p];
  for (int k = 0; k < count; ++k) {
    const std::uint32_t entry = args.d_neighbors[static_cast<std::int64_t>(k) * n + p];
    const std::uint32_t image = entry & mask;
    const SlotPosition xj = args.d_slotPositions[base + (entry >> bits)];
    double shift[3] = {0.0, 0.0, 0.0};
    if (image != self) {
      const int n2 = static_cast<int>(image % span2) - g.images[2];
      const std::uint32_t rest = image / span2;
      const int n1 = static_cast<int>(rest % span1) - g.images[1];
      const int n0 = static_cast<int>(rest / span1) - g.images[0];
      latticeTranslation(g.basis, n0, n1, n2, shift);
    }
    // The CPU loop's arithmetic, in its order: (x_j + shift) − x_i.
    const double d[3] = {xj.x + shift[0] - xi.x, xj.y + shift[1] - xi.y, xj.z + shift[2] - xi.z};
    const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    const int pair = kSingle ? 0 : row + static_cast<int>(__double_as_longlong(xj.w));
    const Params& pairParams = kSingle ? single : params[pair];
    double fOverR;
    double pairEnergy;
    if (!Eval::evaluate(pairParams, r2, fOverR, pairEnergy)) continue;
    if constexpr (kSwitch) applySwitch(kSingle ? singleSwitch : switches[pair], r2, pairEnergy, fOverR);
    energy += pairEnergy;
    // The force on i is −fOverR·d; its partner's row adds the opposite force to j.
    fx -= fOverR * d[0];
    fy -= fOverR * d[1];
    fz -= fOverR * d[2];
    if constexpr (kVirial) addPairVirial(virial, d, fOverR);
  }
  if (args.d_forces != nullptr) {
    const std::int64_t atom = args.d_slotAtom[p];
    double* f = args.d_forces + 3 * atom;
    f[0] = fx;
    f[1] = fy;
    f[2] = fz;
    if (args.kick.d_velocities != nullptr) {
      // The step's closing half kick (VelocityVerlet's postUpdate), by the thread that owns the atom's force.
      double* v = args.kick.d_velocities + 3 * atom;
      double velocity[3] = {v[0], v[1], v[2]};
      const double force[3] = {fx, fy, fz};
      halfKick(velocity, force, args.kick.forceToAccel / args.kick.d_masses[atom], 0.5 * args.kick.d_dt[s]);
      v[0] = velocity[0];
      v[1] = velocity[1];
      v[2] = velocity[2];
    }
  }
  args.d_slotSums[p] = 0.5 * energy;
  if (args.flagNonFinite && !isfinite(energy)) atomicMin(&args.systems.d_status->firstNonFinite, static_cast<unsigned long long>(s));
  if constexpr (kVirial) {
    for (int c = 0; c < 6; ++c) args.d_slotSums[(c + 1) * n + p] = 0.5 * virial[c];
  }
}

template <class Eval, bool kVirial, bool kSwitch, bool kSingle>
cudaError_t launchForces(const PairForceArgs& args) {
  const std::size_t tableSize = static_cast<std::size_t>(args.numTypes) * args.numTypes;
  const std::size_t tableBytes =
      tableSize * (sizeof(typename Eval::Params) + (kSwitch ? sizeof(SwitchParams) : 0));
  const bool shared = !kSingle && tableBytes <= kSharedTableBytes;
  const auto blocks = static_cast<unsigned int>((args.systems.numAtoms + kForceBlock - 1) / kForceBlock);
  return device::launch(pairForceKernel<Eval, kVirial, kSwitch, kSingle>, blocks, kForceBlock, shared ? tableBytes : 0, args, shared);
}

template <class Eval>
cudaError_t forcesFor(const PairForceArgs& args) {
  const int code = (args.virial ? 4 : 0) | (args.d_switches != nullptr ? 2 : 0) | (args.numTypes == 1 ? 1 : 0);
  switch (code) {
    case 0: return launchForces<Eval, false, false, false>(args);
    case 1: return launchForces<Eval, false, false, true>(args);
    case 2: return launchForces<Eval, false, true, false>(args);
    case 3: return launchForces<Eval, false, true, true>(args);
    case 4: return launchForces<Eval, true, false, false>(args);
    case 5: return launchForces<Eval, true, false, true>(args);
    case 6: return launchForces<Eval, true, true, false>(args);
    default: return launchForces<Eval, true, true, true>(args);
  }
}

/** Fixed-order sum of the 32 lanes' values into lane 0. */
__device__ double warpSum(double value) {
  for (int offset = 16; offset > 0; offset >>= 1) value += __shfl_down_sync(kFullMask, value, offset);
  return value;
}

/** One warp per segment: lane l sums slots l, l + 32, … in order, then the fixed tree. */
__global__ void __launch_bounds__(kSumBlock) sumSegments(SystemSumArgs args) {
  const std::int64_t warp = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  // Whole warps leave together, so the shuffles below always see all 32 lanes.
  if (warp >= args.numSegments) return;
  const SumSegment segment = args.d_segments[warp];
  if (!wanted(args.systems, segment.system)) return;
  const int components = args.virial ? kSums : 1;
  const std::int64_t n = args.systems.numAtoms;
  for (int c = 0; c < components; ++c) {
    double sum = 0.0;
    for (std::int64_t p = segment.begin + lane; p < segment.end; p += 32) sum += args.d_slotSums[c * n + p];
    sum = warpSum(sum);
    if (lane == 0) args.d_segmentSums[kSums * warp + c] = sum;
  }
}

/** One warp per system: its segments' partial sums in order, then energy, virial and stress. */
__global__ void __launch_bounds__(kSumBlock) sumSystems(SystemSumArgs args) {
  const std::int64_t s = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (s >= args.systems.numSystems) return;
  if (!wanted(args.systems, s)) {
    if (args.virial && lane < 9) args.d_virial[9 * s + lane] = 0.0;
    return;
  }
  const int components = args.virial ? kSums : 1;
  double total[kSums] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  const std::int32_t first = args.d_segmentOffset[s];
  const std::int32_t last = args.d_segmentOffset[s + 1];
  for (int c = 0; c < components; ++c) {
    double sum = 0.0;
    for (std::int32_t k = first + lane; k < last; k += 32) sum += args.d_segmentSums[kSums * static_cast<std::int64_t>(k) + c];
    total[c] = warpSum(sum);
  }
  if (lane != 0) return;
  args.d_energy[s] = total[0];
  if (!isfinite(total[0])) atomicMin(&args.systems.d_status->firstNonFinite, static_cast<unsigned long long>(s));
  if (!args.virial) return;
  const double* v = total + 1;
  const double w[9] = {v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2]};
  // PairPotential::finishSystem: σ = −W/V where the cell has volume, zeros for a cluster without a cell.
  const double* cell = args.d_cell + 9 * s;
  double scale = 0.0;
  for (int k = 0; k < 9; ++k) scale = fmax(scale, fabs(cell[k]));
  const double volume = fabs(det3(cell));
  const bool hasVolume = scale > 0.0 && volume > 1e-12 * scale * scale * scale;
  for (int k = 0; k < 9; ++k) {
    args.d_virial[9 * s + k] = w[k];
    // 0 − w rather than −w: a zero virial gives +0, not −0.
    args.d_stress[9 * s + k] = hasVolume ? (0.0 - w[k]) / volume : 0.0;
  }
}

unsigned int warpBlocks(std::int64_t warps) {
  return static_cast<unsigned int>((warps * 32 + kSumBlock - 1) / kSumBlock);
}

}  // namespace

cudaError_t pairForces(const PairForceArgs& args) {
  if (args.systems.numAtoms == 0) return cudaSuccess;
  return visitPairEvaluator(static_cast<PairEvaluator>(args.evaluator),
                            [&](auto kind) { return forcesFor<typename decltype(kind)::Eval>(args); });
}

cudaError_t systemSums(const SystemSumArgs& args) {
  cudaError_t status = cudaSuccess;
  if (args.numSegments > 0) status = device::launch(sumSegments, warpBlocks(args.numSegments), kSumBlock, 0, args);
  if (status != cudaSuccess) return status;
  if (args.systems.numSystems > 0) status = device::launch(sumSystems, warpBlocks(args.systems.numSystems), kSumBlock, 0, args);
  return status;
}

}  // namespace hookmd::kernel
