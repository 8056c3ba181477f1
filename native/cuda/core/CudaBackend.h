// The CUDA backend: device arrays for every field of core/Fields.h, with the host mirrors and their
// coherence kept by the Backend base class. It runs the per-system reductions itself; its kernels of the
// pair forces (neighbor lists included), the integrators, the native hooks, the training loss and the
// small-system path are registered with the platform (cuda/platform/CudaBackendRegistration.cpp). What it does not
// implement (convergence bookkeeping) runs the CPU reference on the host mirrors.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <string>
#include <vector>

#include "core/Backend.h"
#include "cuda/core/CudaReductions.cuh"
#include "cuda/core/DeviceBuffer.h"

namespace hookmd {

class CudaBackend final : public Backend {
 public:
  /** Runs on the current CUDA device (device 0 unless the process chose another). */
  CudaBackend();

  const char* name() const noexcept override { return "cuda"; }
  std::string device() const override { return device_; }

  /** The device array of `field`: call onDevice() with the fields a kernel reads and writes first. */
  template <typename T>
  T* deviceData(Field field) const {
    return d_fields_[static_cast<int>(field)].as<T>();
  }

  /** "<name> (sm_XY, N GiB)", as backends() and device() report it. */
  static std::string describeDevice(const cudaDeviceProp& properties);

 protected:
  void resizeDevice(std::int64_t numAtoms, std::int64_t numSystems) override;
  BatchStorage* deviceArrays() noexcept override { return nullptr; }
  void copyToHost(Field field, std::size_t bytes) override;
  void copyToDevice(Field field, std::size_t bytes) override;
  void refillDevice(const RefillPlan& plan, FieldSet kept) override;
  void copyRangeToDevice(Field field, std::size_t offset, std::size_t bytes) override;
  void copyRangeFromDevice(Field field, std::size_t offset, std::size_t bytes, void* out) override;
  void reduceOnDevice(Field field, ReduceOp op, double* out) override;
  void kineticEnergyOnDevice(double* out) override;

 private:
  /** The reduction results (one double per system) and, after them, the first-bad-system flag. */
  static std::size_t resultBytes(std::int64_t numSystems) { return (static_cast<std::size_t>(numSystems) + 1) * sizeof(double); }
  /** The layout arguments, with the error flag reset for a new launch. */
  kernel::SystemRanges prepareSystems(const char* operation);
  /** Checks the launch, copies the per-system results to `out` and reports a bad ptr layout. */
  void finish(cudaError_t launchStatus, const char* operation, double* out);

  std::string device_;
  std::array<DeviceBuffer, kFieldCount> d_fields_;
  DeviceBuffer d_result_;
  std::vector<double> staging_;
};

}  // namespace hookmd
