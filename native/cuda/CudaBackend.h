// The CUDA backend: device arrays for every field of core/Fields.h, with host mirrors in a BatchStorage
// that views and the CPU fallback read. Natively it runs storage, sync and the per-system reductions;
// supports() reports everything else as unsupported, so callers run the CPU path on the host mirrors.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <string>

#include "core/Backend.h"
#include "cuda/CudaReductions.cuh"
#include "cuda/DeviceBuffer.h"

namespace hookmd {

class CudaBackend final : public Backend {
 public:
  /** Runs on the current CUDA device (device 0 unless the process chose another). */
  CudaBackend();

  const char* name() const noexcept override { return "cuda"; }
  std::string device() const override { return device_; }
  /** True for resize, syncToHost, syncToDevice, reduce, kineticEnergy and fmax. */
  bool supports(const std::string& operation) const override;

  /** Reallocates the device arrays and the host mirrors, all zeroed; on failure the batch is left empty. */
  void resize(std::int64_t numAtoms, std::int64_t numSystems) override;
  BatchStorage& host() noexcept override { return host_; }
  void syncToHost(Field field) override;
  void syncToDevice(Field field) override;

  /** These read the device arrays only: sync the fields they read, and ptr, to the device first. */
  void reduce(Field field, ReduceOp op, double* out) override;
  void kineticEnergy(double* out) override;
  void fmax(double* out) override;

  /** "<name> (sm_XY, N GiB)", as backends() and device() report it. */
  static std::string describeDevice(const cudaDeviceProp& properties);

 private:
  const double* deviceF64(Field field) const { return d_fields_[static_cast<int>(field)].as<const double>(); }
  void reduceInto(Field field, ReduceOp op, double* out, const char* operation);
  /** The layout arguments, with the error flag reset for a new launch. */
  kernel::SystemRanges prepareSystems(const char* operation);
  /** Checks the launch, copies the per-system results to `out` and reports a bad ptr layout. */
  void finish(cudaError_t launchStatus, const char* operation, double* out);

  std::string device_;
  BatchStorage host_;
  std::array<DeviceBuffer, kFieldCount> d_fields_;
  DeviceBuffer d_result_;
  DeviceBuffer d_firstBadSystem_;
};

}  // namespace hookmd
