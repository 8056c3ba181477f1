// Host → device copies of control data (per-system parameters, index tables, flags, status blocks) into a
// DeviceBuffer, written once for every CUDA host class. Each is one blocking copy, counted by
// cuda/core/CudaLaunch.h as a host wait and control bytes; the declaring site charges DeviceOp::ControlUpload.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <vector>

#include "core/Backend.h"
#include "cuda/core/CudaCheck.h"
#include "cuda/core/CudaLaunch.h"
#include "cuda/core/DeviceBuffer.h"

namespace hookmd {

/** How a buffer too small for an upload is replaced. */
enum class BufferFit {
  /** Exactly the upload's size, and any other size is replaced too (an empty upload frees the buffer). */
  Exact,
  /** At least twice its old size, so a slowly growing batch reallocates O(log n) times; never shrunk. */
  Grow,
};

/** Makes `buffer` large enough for `bytes` bytes by `fit` (zeroed when replaced); CUDA failures name `operation`. */
inline void fitBuffer(DeviceBuffer& buffer, std::size_t bytes, BufferFit fit, const char* operation) {
  if (fit == BufferFit::Exact) {
    if (buffer.bytes() != bytes) buffer.allocate(bytes, operation);
  } else if (buffer.bytes() < bytes) {
    buffer.allocate(std::max(bytes, 2 * buffer.bytes()), operation);
  }
}

/** Copies `bytes` bytes from `data` into `buffer`, fitted first; an empty upload copies nothing. */
inline void uploadBytes(DeviceBuffer& buffer, const void* data, std::size_t bytes, BufferFit fit, const char* operation) {
  fitBuffer(buffer, bytes, fit, operation);
  if (bytes > 0) cudaCheck(device::controlToDevice(buffer.data(), data, bytes), operation);
}

/** Makes `buffer` hold exactly `values` (an empty vector frees it). */
template <typename T>
void uploadVector(DeviceBuffer& buffer, const std::vector<T>& values, const char* operation) {
  uploadBytes(buffer, values.data(), values.size() * sizeof(T), BufferFit::Exact, operation);
}

/**
 * uploadVector, charged to `backend`'s ledger as one control upload. For the uploads that only the CUDA
 * classes make and `mirror` does not model (integrator parameters and state rows, at creation and on
 * updateParameters, loadState and remap; docs/cuda.md).
 */
template <typename T>
void uploadCharged(Backend& backend, DeviceBuffer& buffer, const std::vector<T>& values, const char* operation) {
  uploadVector(buffer, values, operation);
  if (!values.empty()) backend.charge(DeviceOp::ControlUpload, DeviceWork{1, 0, 0, 0, 0, values.size() * sizeof(T)});
}

/** Copies `bytes` bytes of control data from the device to `out`, counted as one wait. */
inline void downloadBytes(void* out, const void* d_source, std::size_t bytes, const char* operation) {
  if (bytes > 0) cudaCheck(device::controlToHost(out, d_source, bytes), operation);
}

}  // namespace hookmd
