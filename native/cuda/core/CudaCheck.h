// CUDA runtime failures become NativeError("CUDA_ERROR"), named after the operation that failed, so a GPU
// fault reaches JS as a typed exception instead of a crash (docs/cuda.md).
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "core/Error.h"

namespace hookmd {

/** Throws CUDA_ERROR "<operation>: <CUDA's description>" unless `status` is cudaSuccess. */
inline void cudaCheck(cudaError_t status, const char* operation) {
  if (status == cudaSuccess) return;
  // Clear a non-sticky error so it is not reported again by the next, unrelated call.
  cudaGetLastError();
  fail("CUDA_ERROR", std::string(operation) + ": " + cudaGetErrorString(status) + " (" + cudaGetErrorName(status) + ")");
}

}  // namespace hookmd
