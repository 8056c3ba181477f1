// Host → device copies of small host vectors (per-system parameters, index lists) into a DeviceBuffer that
// is resized to fit. Parameter updates are rare, so the copy is a plain blocking cudaMemcpy.
#pragma once

#include <cuda_runtime_api.h>

#include <vector>

#include "cuda/CudaCheck.h"
#include "cuda/DeviceBuffer.h"

namespace hookmd {

/** Makes `buffer` hold exactly `values` (an empty vector frees it); CUDA failures are named `operation`. */
template <typename T>
void uploadVector(DeviceBuffer& buffer, const std::vector<T>& values, const char* operation) {
  const std::size_t bytes = values.size() * sizeof(T);
  if (buffer.bytes() != bytes) buffer.allocate(bytes, operation);
  if (bytes > 0) cudaCheck(cudaMemcpy(buffer.data(), values.data(), bytes, cudaMemcpyHostToDevice), operation);
}

}  // namespace hookmd
