// One block per new system (grid-stride over systems) copies that system's rows. Fields whose rows are
// whole 8-byte words (every float64 field) move a word per thread, the others a byte per thread.
#include "cuda/core/CudaRowGather.cuh"
#include "cuda/core/CudaLaunch.cuh"

#include <algorithm>

namespace hookmd::kernel {

namespace {

constexpr int kBlockSize = 128;
constexpr std::int64_t kMaxBlocks = 65535;

template <typename Word>
__global__ void __launch_bounds__(kBlockSize) gatherKernel(RowGatherArgs a) {
  const std::size_t rowWords = a.rowBytes / sizeof(Word);
  const auto* from = reinterpret_cast<const Word*>(a.d_from);
  auto* to = reinterpret_cast<Word*>(a.d_to);
  for (std::int64_t s = blockIdx.x; s < a.numSystems; s += gridDim.x) {
    const std::int64_t old = a.d_sourceSystem[s];
    if (old < 0) continue;
    const std::int64_t sourceRow = a.perAtom ? a.d_sourceAtom[s] : old;
    const std::int64_t targetRow = a.perAtom ? a.d_targetAtom[s] : s;
    const std::int64_t rows = a.perAtom ? a.d_atomCount[s] : 1;
    const std::int64_t words = rows * static_cast<std::int64_t>(rowWords);
    const Word* source = from + sourceRow * static_cast<std::int64_t>(rowWords);
    Word* target = to + targetRow * static_cast<std::int64_t>(rowWords);
    for (std::int64_t k = threadIdx.x; k < words; k += kBlockSize) target[k] = source[k];
  }
}

}  // namespace

cudaError_t gatherRows(const RowGatherArgs& args) {
  if (args.numSystems == 0 || args.rowBytes == 0) return cudaSuccess;
  const auto blocks = static_cast<unsigned int>(std::min(args.numSystems, kMaxBlocks));
  if (args.rowBytes % sizeof(unsigned long long) == 0) return device::launch(gatherKernel<unsigned long long>, blocks, kBlockSize, 0, args);
  return device::launch(gatherKernel<unsigned char>, blocks, kBlockSize, 0, args);
}

}  // namespace hookmd::kernel
