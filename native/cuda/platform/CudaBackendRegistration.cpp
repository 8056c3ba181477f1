#include "cuda/platform/CudaBackendRegistration.h"

#include <cuda_runtime_api.h>

#include <memory>
#include <string>

#include "core/BackendRegistry.h"
#include "cuda/core/CudaBackend.h"
#include "cuda/dynamics/CudaIntegrators.h"
#include "cuda/kernels/CudaManyBodyForceKernel.h"
#include "cuda/dynamics/CudaNativeHooks.h"
#include "cuda/kernels/CudaPairForceKernel.h"
#include "cuda/training/CudaPairLoss.h"
#include "cuda/core/CudaReductions.cuh"
#include "cuda/dynamics/CudaSmallSystemKernel.h"
#include "platform/KernelFactory.h"

namespace hookmd {

namespace {

std::string describeError(cudaError_t status) {
  return std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
}

std::string runtimeVersion() {
  return std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10);
}

std::string whyNoDevice(cudaError_t status) {
  switch (status) {
    case cudaErrorInsufficientDriver:
      return "no CUDA driver found, or it is older than CUDA " + runtimeVersion() + " needs";
    case cudaErrorNoDevice: return "no CUDA device found";
    default: return "the CUDA runtime could not start";
  }
}

// The static cudart loads libcuda here, on first use, not when the .node is loaded: a GPU-less machine
// gets a reason string, never a failed dlopen or an abort.
BackendAvailability probeCuda() {
  BackendAvailability availability;
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();
    availability.reason = whyNoDevice(status) + " (" + describeError(status) + ")";
    return availability;
  }
  if (count == 0) {
    availability.reason = "no CUDA device found";
    return availability;
  }
  int ordinal = 0;
  cudaDeviceProp properties;
  status = cudaGetDevice(&ordinal);
  if (status == cudaSuccess) status = cudaGetDeviceProperties(&properties, ordinal);
  if (status == cudaSuccess) status = kernel::checkKernelImage();
  if (status != cudaSuccess) {
    cudaGetLastError();
    availability.reason = "CUDA device " + std::to_string(ordinal) + " cannot run this build's kernels (" +
                          describeError(status) + ")";
    return availability;
  }
  availability.available = true;
  availability.device = CudaBackend::describeDevice(properties);
  return availability;
}

}  // namespace

void registerCudaBackend() {
  BackendEntry entry;
  entry.name = "cuda";
  entry.probe = [] {
    // Devices and drivers do not come and go within a process, and the first probe may create a context.
    static const BackendAvailability availability = probeCuda();
    return availability;
  };
  entry.create = [] { return std::unique_ptr<Backend>(new CudaBackend()); };
  registerBackend(std::move(entry));
  // cuda's own kernels (platform/KernelFactory.h); the CPU reference runs every other operation, and an
  // integrator or hook type these do not make, on the host mirrors.
  KernelFactory& kernels = registerKernels("cuda");
  kernels.PairForces = [](Backend& backend, const PairForceSpec& spec) {
    return createCudaPairForceKernel(static_cast<CudaBackend&>(backend), spec);
  };
  kernels.Integrator = [](Backend& backend, const std::string& type, const Parameters& parameters, std::int64_t numSystems) {
    return createCudaIntegrator(static_cast<CudaBackend&>(backend), type, parameters, numSystems);
  };
  kernels.NativeHooks = [](Backend& backend, const NativeHookSpec& spec) {
    return createCudaNativeHook(static_cast<CudaBackend&>(backend), spec);
  };
  kernels.PairLoss = [](Backend&, const PairLossSpec& spec) { return createCudaPairLossKernel(spec); };
  kernels.SmallSystems = [](Backend& backend) { return createCudaSmallSystemKernel(static_cast<CudaBackend&>(backend)); };
  // Dark, the many-body kernel makes nothing, and the CPU reference runs on the host mirrors.
  kernels.ManyBodyForces = [](Backend& backend, const ManyBodyForceSpec& spec) -> std::unique_ptr<ManyBodyForceKernel> {
    if (!deviceKernelEnabled(DeviceKernelFamily::ManyBodyForces)) return nullptr;
    return createCudaManyBodyForceKernel(static_cast<CudaBackend&>(backend), spec);
  };
}

}  // namespace hookmd
