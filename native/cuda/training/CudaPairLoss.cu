// The force-matching loss on the GPU: one block per chunk of a listed system's atoms, one thread per atom
// of the chunk walking that atom's row. The pair term and its parameter slopes are the header-only
// evaluators the CPU runs (math/*Eval.h, math/*ParamGrad.h, SmoothSwitch.h), applied to the CPU's own pair
// vector d = x_j + shift − x_i. Every sum has a fixed order (each thread along its rows, a tree over the
// block, then a system's chunks in order) and no floating-point atomics, so a run repeats bit for bit.
#include "cuda/training/CudaPairLoss.cuh"
#include "cuda/core/CudaLaunch.cuh"

#include "kernels/PairForceKernel.h"
#include "math/PairEvaluators.h"
#include "math/PairGeometry.h"
#include "math/SmoothSwitch.h"

namespace hookmd::kernel {

namespace {

/** Energy and the six virial components. */
constexpr int kSums = 7;
constexpr int kFinishBlock = 128;

/** Where system `system`'s arrays start. */
struct SystemView {
  LossSystem system;
  const double* x;
  const std::uint8_t* types;
  const double* shifts;
};

__device__ SystemView viewOf(const LossSet& set, std::int32_t index) {
  const LossSystem system = set.d_systems[index];
  return {system, set.d_positions + 3 * system.atomBegin, set.d_types == nullptr ? nullptr : set.d_types + system.atomBegin,
          set.d_shifts + 3 * system.shiftBegin};
}

/** d = x_j + shift − x_i, in the CPU loop's order of operations (training/PairVisit.h); returns |d|². */
__device__ double pairVector(const SystemView& view, std::int32_t i, std::int32_t j, std::uint32_t packed, double* d) {
  const double* shift = view.shifts + 3 * (packed & view.system.imageMask);
  const double* xi = view.x + 3 * i;
  const double* xj = view.x + 3 * j;
  d[0] = xj[0] + shift[0] - xi[0];
  d[1] = xj[1] + shift[1] - xi[1];
  d[2] = xj[2] + shift[2] - xi[2];
  return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

template <bool kSingle>
__device__ int slotOf(const SystemView& view, int numTypes, std::int32_t i, std::int32_t j) {
  return kSingle ? 0 : view.types[i] * numTypes + view.types[j];
}

template <class Eval, bool kSwitch, bool kSingle>
__global__ void __launch_bounds__(kLossMaxThreads) forwardKernel(LossForwardArgs args) {
  using Params = typename Eval::Params;
  extern __shared__ double s_sums[];
  const LossChunk chunk = args.batch.d_chunks[blockIdx.x];
  const SystemView view = viewOf(args.set, chunk.system);
  const Params* table = static_cast<const Params*>(args.params.d_table);
  double sums[kSums] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  for (std::int32_t a = chunk.begin + static_cast<std::int32_t>(threadIdx.x); a < chunk.end; a += blockDim.x) {
    const std::int64_t atom = view.system.atomBegin + a;
    const std::int64_t begin = args.set.d_rowStart[atom];
    const std::int64_t owned = begin + args.set.d_rowOwned[atom];
    const std::int64_t end = args.set.d_rowStart[atom + 1];
    double f[3] = {0.0, 0.0, 0.0};
    for (std::int64_t e = begin; e < end; ++e) {
      const std::uint32_t packed = args.set.d_entries[e];
      const auto partner = static_cast<std::int32_t>(packed >> view.system.imageBits);
      // The CPU's pair (i, j): this atom is i in the rows it owns, j in its partners' rows.
      const bool own = e < owned;
      const std::int32_t i = own ? a : partner;
      const std::int32_t j = own ? partner : a;
      double d[3];
      const double r2 = pairVector(view, i, j, packed, d);
      const int slot = slotOf<kSingle>(view, args.params.numTypes, i, j);
      double fOverR;
      double energy;
      if (!Eval::evaluate(table[slot], r2, fOverR, energy)) continue;
      if constexpr (kSwitch) applySwitch(args.params.d_switches[slot], r2, energy, fOverR);
      // The force on j is fOverR·d and on i its opposite; energy and virial count each pair once, in its
      // owner's row, as the half list does.
      const double along = own ? -fOverR : fOverR;
      f[0] += along * d[0];
      f[1] += along * d[1];
      f[2] += along * d[2];
      if (own) {
        sums[0] += energy;
        addPairVirial(sums + 1, d, fOverR);
      }
    }
    double* out = args.d_forces + 3 * (chunk.forceAtom + a);
    out[0] = f[0];
    out[1] = f[1];
    out[2] = f[2];
  }
  // Fixed tree over the block (blockDim is a power of two); every thread reaches every barrier.
  const int threads = static_cast<int>(blockDim.x);
  for (int c = 0; c < kSums; ++c) s_sums[c * threads + threadIdx.x] = sums[c];
  __syncthreads();
  for (int stride = threads / 2; stride > 0; stride >>= 1) {
    if (static_cast<int>(threadIdx.x) < stride) {
      for (int c = 0; c < kSums; ++c) s_sums[c * threads + threadIdx.x] += s_sums[c * threads + threadIdx.x + stride];
    }
    __syncthreads();
  }
  if (threadIdx.x < kSums) args.d_chunkSums[kSums * static_cast<std::int64_t>(blockIdx.x) + threadIdx.x] = s_sums[threadIdx.x * threads];
}

/** One thread per item: its chunks' sums in chunk order. */
__global__ void __launch_bounds__(kFinishBlock) finishForward(LossForwardArgs args) {
  const std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (k >= args.batch.count) return;
  const std::int32_t first = args.batch.d_chunkOffset[k];
  const std::int32_t last = args.batch.d_chunkOffset[k + 1];
  for (int c = 0; c < kSums; ++c) {
    double sum = first < last ? args.d_chunkSums[kSums * static_cast<std::int64_t>(first) + c] : 0.0;
    for (std::int32_t q = first + 1; q < last; ++q) sum += args.d_chunkSums[kSums * static_cast<std::int64_t>(q) + c];
    args.d_results[kSums * k + c] = sum;
  }
}

/**
 * Block (chunk, group): the chunk's part of ∂L/∂θ for the parameter rows of group blockIdx.y. Each thread
 * accumulates into its own column of s_acc (parameter q of the group at q · blockDim + thread), then
 * thread q adds row q of the columns in thread order.
 */
template <class Grad, bool kSwitch, bool kSingle>
__global__ void __launch_bounds__(kLossMaxThreads) backwardKernel(LossBackwardArgs args, int rowsPerGroup) {
  using Params = typename Grad::Eval::Params;
  constexpr int kParams = Grad::kParams;
  extern __shared__ double s_acc[];
  const int threads = static_cast<int>(blockDim.x);
  const int rowLo = static_cast<int>(blockIdx.y) * rowsPerGroup;
  const int rowHi = min(rowLo + rowsPerGroup, args.params.numRows);
  const int groupParams = (rowHi - rowLo) * kParams;
  double* column = s_acc + threadIdx.x;
  for (int q = 0; q < groupParams; ++q) column[q * threads] = 0.0;

  const LossChunk chunk = args.batch.d_chunks[blockIdx.x];
  const double* coefficient = args.d_coefficients + 3 * static_cast<std::int64_t>(chunk.item);
  const double cEnergy = coefficient[0];
  const double cForces = coefficient[1];
  const double cStress = coefficient[2];
  if (cEnergy != 0.0 || cForces != 0.0 || cStress != 0.0) {
    const SystemView view = viewOf(args.set, chunk.system);
    const Params* table = static_cast<const Params*>(args.params.d_table);
    const double* deltaForces = args.d_deltaForces + 3 * chunk.forceAtom;
    const double* t = args.d_deltaStress + 9 * static_cast<std::int64_t>(chunk.item);
    for (std::int32_t i = chunk.begin + static_cast<std::int32_t>(threadIdx.x); i < chunk.end; i += threads) {
      const std::int64_t atom = view.system.atomBegin + i;
      const std::int64_t begin = args.set.d_rowStart[atom];
      const std::int64_t owned = begin + args.set.d_rowOwned[atom];
      // Each pair once: only the entries this atom owns, as the CPU's half list walks them.
      for (std::int64_t e = begin; e < owned; ++e) {
        const std::uint32_t packed = args.set.d_entries[e];
        const auto j = static_cast<std::int32_t>(packed >> view.system.imageBits);
        double d[3];
        const double r2 = pairVector(view, i, j, packed, d);
        const int slot = slotOf<kSingle>(view, args.params.numTypes, i, j);
        if (r2 >= table[slot].cutoffSq) continue;
        const int row = kSingle ? 0 : args.params.d_rowOfSlot[slot];
        if (row < rowLo || row >= rowHi) continue;
        double dEnergy[kParams];
        double dFOverR[kParams];
        Grad::gradient(args.params.d_theta + row * kParams, r2, dEnergy, dFOverR);
        if (args.params.d_shiftGradient != nullptr) {
          for (int q = 0; q < kParams; ++q) dEnergy[q] -= args.params.d_shiftGradient[row * kParams + q];
        }
        if constexpr (kSwitch) {
          // applySwitch on (e, g) = (1, 0) yields (S, −2·dS/du).
          double value = 1.0;
          double slope = 0.0;
          applySwitch(args.params.d_switches[slot], r2, value, slope);
          for (int q = 0; q < kParams; ++q) {
            dFOverR[q] = value * dFOverR[q] + slope * dEnergy[q];
            dEnergy[q] *= value;
          }
        }
        // ∂L/∂g of this pair: the force residuals along d, and the stress residual projected on d⊗d.
        double byFOverR = 0.0;
        if (cForces != 0.0) {
          const double* fi = deltaForces + 3 * i;
          const double* fj = deltaForces + 3 * j;
          byFOverR += cForces * ((fj[0] - fi[0]) * d[0] + (fj[1] - fi[1]) * d[1] + (fj[2] - fi[2]) * d[2]);
        }
        if (cStress != 0.0) {
          double projected = 0.0;
          for (int c = 0; c < 3; ++c) projected += d[c] * (t[3 * c] * d[0] + t[3 * c + 1] * d[1] + t[3 * c + 2] * d[2]);
          byFOverR += cStress * projected;
        }
        double* out = column + (row - rowLo) * kParams * threads;
        for (int q = 0; q < kParams; ++q) out[q * threads] += cEnergy * dEnergy[q] + byFOverR * dFOverR[q];
      }
    }
  }
  __syncthreads();
  const std::int64_t numParams = static_cast<std::int64_t>(args.params.numRows) * kParams;
  for (int q = static_cast<int>(threadIdx.x); q < groupParams; q += threads) {
    const double* row = s_acc + q * threads;
    double sum = row[0];
    for (int k = 1; k < threads; ++k) sum += row[k];
    args.d_chunkGradients[numParams * blockIdx.x + rowLo * kParams + q] = sum;
  }
}

/** One thread per (item, parameter): the item's chunks in chunk order. */
__global__ void __launch_bounds__(kFinishBlock) finishBackward(LossBackwardArgs args) {
  const std::int64_t numParams = static_cast<std::int64_t>(args.params.numRows) * args.params.paramsPerPair;
  const std::int64_t index = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (index >= args.batch.count * numParams) return;
  const std::int64_t k = index / numParams;
  const std::int64_t p = index % numParams;
  const std::int32_t first = args.batch.d_chunkOffset[k];
  const std::int32_t last = args.batch.d_chunkOffset[k + 1];
  double sum = first < last ? args.d_chunkGradients[numParams * first + p] : 0.0;
  for (std::int32_t q = first + 1; q < last; ++q) sum += args.d_chunkGradients[numParams * q + p];
  args.d_gradients[index] = sum;
}

unsigned int blocksFor(std::int64_t threads) { return static_cast<unsigned int>((threads + kFinishBlock - 1) / kFinishBlock); }

template <class Eval, bool kSwitch, bool kSingle>
void launchForward(const LossForwardArgs& args) {
  const std::size_t shared = static_cast<std::size_t>(kSums) * args.batch.threads * sizeof(double);
  device::launch(forwardKernel<Eval, kSwitch, kSingle>, static_cast<unsigned int>(args.batch.numChunks), args.batch.threads, shared, args);
}

template <class Eval>
void forwardFor(const LossForwardArgs& args) {
  const int code = (args.params.d_switches != nullptr ? 2 : 0) | (args.params.numTypes == 1 ? 1 : 0);
  switch (code) {
    case 0: return launchForward<Eval, false, false>(args);
    case 1: return launchForward<Eval, false, true>(args);
    case 2: return launchForward<Eval, true, false>(args);
    default: return launchForward<Eval, true, true>(args);
  }
}

template <class Grad, bool kSwitch, bool kSingle>
void launchBackward(const LossBackwardArgs& args) {
  constexpr int kRowsPerGroup = kLossGroupParams / Grad::kParams;
  const int groups = (args.params.numRows + kRowsPerGroup - 1) / kRowsPerGroup;
  const int groupRows = args.params.numRows < kRowsPerGroup ? args.params.numRows : kRowsPerGroup;
  const std::size_t shared = static_cast<std::size_t>(groupRows) * Grad::kParams * args.batch.threads * sizeof(double);
  const dim3 grid(static_cast<unsigned int>(args.batch.numChunks), static_cast<unsigned int>(groups));
  device::launch(backwardKernel<Grad, kSwitch, kSingle>, grid, args.batch.threads, shared, args, kRowsPerGroup);
}

template <class Grad>
void backwardFor(const LossBackwardArgs& args) {
  static_assert(kLossGroupParams >= Grad::kParams, "a backward group holds at least one parameter row");
  const int code = (args.params.d_switches != nullptr ? 2 : 0) | (args.params.numTypes == 1 ? 1 : 0);
  switch (code) {
    case 0: return launchBackward<Grad, false, false>(args);
    case 1: return launchBackward<Grad, false, true>(args);
    case 2: return launchBackward<Grad, true, false>(args);
    default: return launchBackward<Grad, true, true>(args);
  }
}

}  // namespace

cudaError_t lossForward(const LossForwardArgs& args) {
  if (args.batch.count == 0) return cudaSuccess;
  // Systems without atoms have no chunk; the finishing pass still writes their zeros.
  if (args.batch.numChunks > 0) {
    visitPairEvaluator(static_cast<PairEvaluator>(args.params.evaluator),
                       [&](auto kind) { forwardFor<typename decltype(kind)::Eval>(args); });
  }
  return device::launch(finishForward, blocksFor(args.batch.count), kFinishBlock, 0, args);
}

cudaError_t lossBackward(const LossBackwardArgs& args) {
  if (args.batch.count == 0) return cudaSuccess;
  if (args.batch.numChunks > 0) {
    visitPairEvaluator(static_cast<PairEvaluator>(args.params.evaluator),
                       [&](auto kind) { backwardFor<typename decltype(kind)::ParamGrad>(args); });
  }
  return device::launch(finishBackward, blocksFor(args.batch.count * args.params.numRows * args.params.paramsPerPair), kFinishBlock, 0, args);
}

}  // namespace hookmd::kernel
