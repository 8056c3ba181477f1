// Kernel launches for the .cu files: each goes through launch(), which counts it (cuda/core/CudaLaunch.h) before
// issuing it on the default stream, or on the stream a CaptureScope is capturing into a graph.
#pragma once

#include <cuda_runtime.h>

#include <utility>

#include "cuda/core/CudaLaunch.h"

namespace hookmd::device {

/** kernel<<<grid, block, sharedBytes>>>(args...), counted as one launch; returns the launch status. */
template <typename... Params, typename... Args>
cudaError_t launch(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t sharedBytes, Args&&... args) {
  countLaunches();
  kernel<<<grid, block, sharedBytes, currentStream()>>>(std::forward<Args>(args)...);
  return cudaGetLastError();
}

/** A library call that issues its own kernels (a cub scan or sort), counted as one launch. */
template <typename Call>
cudaError_t libraryCall(Call&& call) {
  countLaunches();
  return call();
}

}  // namespace hookmd::device
