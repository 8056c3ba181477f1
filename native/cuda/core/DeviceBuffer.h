// An owned block of device memory: the CUDA counterpart of core/HostBuffer.h. Freed on destruction, so a
// failed resize or an exception mid-setup never leaks GPU memory.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>

#include "cuda/core/CudaCheck.h"

namespace hookmd {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  /** Replaces the contents with `bytes` zeroed bytes. The old block is freed first to keep the peak low. */
  void allocate(std::size_t bytes, const char* operation) {
    release();
    if (bytes == 0) return;
    void* block = nullptr;
    const cudaError_t status = cudaMalloc(&block, bytes);
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      fail("OUT_OF_MEMORY", std::string(operation) + ": cannot allocate " + std::to_string(bytes) + " bytes of GPU memory");
    }
    cudaCheck(status, operation);
    data_ = block;
    bytes_ = bytes;
    // Zeroing is part of the allocation: like cudaMalloc itself it is not a counted launch (docs/cuda.md).
    cudaCheck(cudaMemset(data_, 0, bytes), operation);
  }

  /** Exchanges the blocks of two buffers (no copy). */
  void swap(DeviceBuffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(bytes_, other.bytes_);
  }

  void* data() const noexcept { return data_; }
  std::size_t bytes() const noexcept { return bytes_; }
  template <typename T>
  T* as() const noexcept {
    return static_cast<T*>(data_);
  }

 private:
  void release() noexcept {
    // cudaFree only fails on a corrupted context, and a destructor has nowhere to report it.
    if (data_ != nullptr) cudaFree(data_);
    data_ = nullptr;
    bytes_ = 0;
  }

  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace hookmd
