#include "cuda/core/CudaBackend.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>

#include "core/Error.h"
#include "cuda/core/CudaCheck.h"
#include "cuda/core/CudaLaunch.h"
#include "cuda/core/CudaRowGather.cuh"
#include "cuda/core/DeviceUpload.h"

namespace hookmd {

std::string CudaBackend::describeDevice(const cudaDeviceProp& properties) {
  const double gib = static_cast<double>(properties.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0);
  char text[320];
  std::snprintf(text, sizeof text, "%s (sm_%d%d, %.0f GiB)", properties.name, properties.major, properties.minor, gib);
  return text;
}

CudaBackend::CudaBackend() {
  int ordinal = 0;
  cudaDeviceProp properties;
  cudaCheck(cudaGetDevice(&ordinal), "cuda backend");
  cudaCheck(cudaGetDeviceProperties(&properties, ordinal), "cuda backend");
  device_ = describeDevice(properties);
  resize(0, 0);
}

void CudaBackend::resizeDevice(std::int64_t numAtoms, std::int64_t numSystems) {
  // Each device block is freed before its replacement is allocated, keeping the peak at one copy; the base
  // class empties the batch if an allocation fails.
  for (int i = 0; i < kFieldCount; ++i) d_fields_[i].allocate(fieldBytes(static_cast<Field>(i)), "resize");
  d_result_.allocate(resultBytes(numSystems), "resize");
}

void CudaBackend::refillDevice(const RefillPlan& plan, FieldSet kept) {
  // The plan goes up once (a few words per system); the kept rows move only on the device. Backend::refill
  // declares these copies, gathers and the wait.
  DeviceBuffer d_sourceSystem, d_sourceAtom, d_targetAtom, d_atomCount;
  uploadVector(d_sourceSystem, plan.sourceSystem, "refill");
  uploadVector(d_sourceAtom, plan.sourceAtom, "refill");
  uploadVector(d_targetAtom, plan.targetAtom, "refill");
  uploadVector(d_atomCount, plan.atomCount, "refill");
  // The old arrays stay alive until every gather that reads them has finished (the sync below).
  std::array<DeviceBuffer, kFieldCount> old;
  for (int i = 0; i < kFieldCount; ++i) {
    const Field field = static_cast<Field>(i);
    DeviceBuffer next;
    next.allocate(fieldBytes(field), "refill");
    if (kept.contains(field)) {
      const FieldInfo& info = fieldInfo(field);
      kernel::RowGatherArgs args{d_sourceSystem.as<const std::int64_t>(), d_sourceAtom.as<const std::int64_t>(),
                                 d_targetAtom.as<const std::int64_t>(),   d_atomCount.as<const std::int32_t>(),
                                 plan.numSystems,
                                 d_fields_[i].as<const unsigned char>(),  next.as<unsigned char>(),
                                 static_cast<std::size_t>(info.components) * elementSize(info.type),
                                 info.extent == Extent::PerAtom};
      cudaCheck(kernel::gatherRows(args), "refill");
    }
    d_fields_[i].swap(next);
    old[i].swap(next);
  }
  d_result_.allocate(resultBytes(plan.numSystems), "refill");
  cudaCheck(device::synchronize(), "refill");
}

void CudaBackend::copyRangeToDevice(Field field, std::size_t offset, std::size_t bytes) {
  cudaCheck(device::fieldCopy(d_fields_[static_cast<int>(field)].as<unsigned char>() + offset,
                              static_cast<const unsigned char*>(hostBuffer(field)->data()) + offset, bytes, cudaMemcpyHostToDevice),
            "write rows");
}

void CudaBackend::copyRangeFromDevice(Field field, std::size_t offset, std::size_t bytes, void* out) {
  cudaCheck(device::fieldCopy(out, d_fields_[static_cast<int>(field)].as<const unsigned char>() + offset, bytes, cudaMemcpyDeviceToHost),
            "read rows");
}

void CudaBackend::copyToHost(Field field, std::size_t bytes) {
  cudaCheck(device::fieldCopy(hostBuffer(field)->data(), d_fields_[static_cast<int>(field)].data(), bytes, cudaMemcpyDeviceToHost),
            "copy to host");
}

void CudaBackend::copyToDevice(Field field, std::size_t bytes) {
  cudaCheck(device::fieldCopy(d_fields_[static_cast<int>(field)].data(), hostBuffer(field)->data(), bytes, cudaMemcpyHostToDevice),
            "copy to device");
}


kernel::SystemRanges CudaBackend::prepareSystems(const char* operation) {
  // All ones is the "no bad system" value that atomicMin can only lower; the flag sits after the results.
  unsigned long long* d_firstBad = d_result_.as<unsigned long long>() + numSystems();
  cudaCheck(device::memsetAsync(d_firstBad, 0xFF, sizeof(unsigned long long)), operation);
  return {d_fields_[static_cast<int>(Field::Ptr)].as<const std::int32_t>(), numSystems(), numAtoms(), d_firstBad};
}

void CudaBackend::finish(cudaError_t launchStatus, const char* operation, double* out) {
  cudaCheck(launchStatus, operation);
  // One blocking copy brings the results and the error flag, and surfaces faults raised while the kernel ran.
  const auto systems = static_cast<std::size_t>(numSystems());
  staging_.resize(systems + 1);
  cudaCheck(device::controlToHost(staging_.data(), d_result_.data(), resultBytes(numSystems())), operation);
  std::copy(staging_.begin(), staging_.begin() + systems, out);
  unsigned long long firstBad = 0;
  std::memcpy(&firstBad, &staging_[systems], sizeof firstBad);
  if (firstBad == std::numeric_limits<unsigned long long>::max()) return;
  std::int32_t range[2] = {0, 0};
  cudaCheck(device::controlToHost(range, d_fields_[static_cast<int>(Field::Ptr)].as<std::int32_t>() + firstBad, sizeof range),
            operation);
  fail("INVALID_PTR", std::string(operation) + ": system " + std::to_string(firstBad) + " spans atoms [" +
                          std::to_string(range[0]) + ", " + std::to_string(range[1]) + "), outside [0, " +
                          std::to_string(numAtoms()) + "); ptr must hold non-decreasing atom offsets");
}

void CudaBackend::reduceOnDevice(Field field, ReduceOp op, double* out) {
  const FieldInfo& info = fieldInfo(field);
  onDevice({field, Field::Ptr});
  kernel::ReduceFieldArgs args;
  args.systems = prepareSystems("reduce");
  args.d_values = deviceData<const double>(field);
  args.components = info.components;
  args.op = static_cast<int>(op);
  args.d_out = d_result_.as<double>();
  finish(kernel::reduceField(args), "reduce", out);
}

void CudaBackend::kineticEnergyOnDevice(double* out) {
  onDevice({Field::Masses, Field::Velocities, Field::Ptr});
  kernel::KineticEnergyArgs args;
  args.systems = prepareSystems("kineticEnergy");
  args.d_masses = deviceData<const double>(Field::Masses);
  args.d_velocities = deviceData<const double>(Field::Velocities);
  args.forceToAccel = units().forceToAccel;
  args.d_out = d_result_.as<double>();
  finish(kernel::kineticEnergy(args), "kineticEnergy", out);
}

}  // namespace hookmd
