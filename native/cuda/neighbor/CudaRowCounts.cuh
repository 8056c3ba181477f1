// How a neighbour search reports its rows to the status block, written once for the pair kernel's search
// and the many-body kernel's: the warp's row lengths summed and their longest taken by shuffles, so each
// warp costs one integer atomic of each kind (deterministic totals on every run). For .cu files only.
#pragma once

#include "cuda/neighbor/CudaBinGrid.cuh"

namespace hookmd::kernel {

/**
 * Adds the warp's row lengths (`count` per lane) to status.entries and raises status.maxNeighbors to the
 * longest. Every lane of the warp must call it (no lane may have returned).
 */
__device__ __forceinline__ void reportRows(NeighborStatus* status, unsigned int count) {
  constexpr unsigned kFullMask = 0xffffffffu;
  unsigned long long total = count;
  unsigned int longest = count;
  for (int offset = 16; offset > 0; offset >>= 1) {
    total += __shfl_down_sync(kFullMask, total, offset);
    longest = max(longest, __shfl_down_sync(kFullMask, longest, offset));
  }
  if ((threadIdx.x & 31) == 0 && total > 0) {
    atomicAdd(&status->entries, total);
    atomicMax(&status->maxNeighbors, longest);
  }
}

}  // namespace hookmd::kernel
