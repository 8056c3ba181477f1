#include "mirror/MirrorBackend.h"

#include <array>
#include <cstring>

#include "core/BackendRegistry.h"
#include "core/RowGather.h"
#include "core/ThreadPool.h"
#include "cpu/CpuReductions.h"
#include "mirror/MirrorManyBodyForceKernel.h"
#include "mirror/MirrorPairForceKernel.h"
#include "platform/KernelFactory.h"

namespace hookmd {

std::string MirrorBackend::device() const {
  return "emulated device on " + std::to_string(ThreadPool::global().threads()) + " threads";
}


void MirrorBackend::resizeDevice(std::int64_t numAtoms, std::int64_t numSystems) { device_.resize(numAtoms, numSystems); }

BatchStorage* MirrorBackend::deviceArrays() noexcept {
  // Units are batch metadata, not a synced field: the device side always sees the current ones.
  device_.units = hostStorage().units;
  return &device_;
}

void MirrorBackend::copyToHost(Field field, std::size_t bytes) {
  std::memcpy(hostBuffer(field)->data(), device_.buffer(field)->data(), bytes);
}

void MirrorBackend::copyToDevice(Field field, std::size_t bytes) {
  std::memcpy(device_.buffer(field)->data(), hostBuffer(field)->data(), bytes);
}

// The results are computed where the device arrays are and then "copied" to the caller, as cuda copies them.
void MirrorBackend::refillDevice(const RefillPlan& plan, FieldSet kept) {
  std::array<std::shared_ptr<HostBuffer>, kFieldCount> old;
  for (int i = 0; i < kFieldCount; ++i) old[i] = device_.buffer(static_cast<Field>(i));
  device_.resize(plan.numAtoms, plan.numSystems);
  for (int i = 0; i < kFieldCount; ++i) {
    const Field field = static_cast<Field>(i);
    if (kept.contains(field)) gatherRows(field, plan, old[i]->data(), device_.buffer(field)->data());
  }
}

void MirrorBackend::copyRangeToDevice(Field field, std::size_t offset, std::size_t bytes) {
  std::memcpy(static_cast<unsigned char*>(device_.buffer(field)->data()) + offset,
              static_cast<const unsigned char*>(hostBuffer(field)->data()) + offset, bytes);
}

void MirrorBackend::copyRangeFromDevice(Field field, std::size_t offset, std::size_t bytes, void* out) {
  std::memcpy(out, static_cast<const unsigned char*>(device_.buffer(field)->data()) + offset, bytes);
}

void MirrorBackend::reduceOnDevice(Field field, ReduceOp op, double* out) { reduceReference(*this, field, op, out); }

void MirrorBackend::kineticEnergyOnDevice(double* out) { kineticEnergyReference(*this, out); }

void registerMirrorBackend() {
  BackendEntry entry;
  entry.name = "mirror";
  entry.probe = [] {
    BackendAvailability availability;
    availability.available = true;
    availability.device = "emulated device on " + std::to_string(ThreadPool::global().threads()) + " threads";
    return availability;
  };
  entry.create = [] { return std::unique_ptr<Backend>(new MirrorBackend()); };
  registerBackend(std::move(entry));
  KernelFactory& kernels = registerKernels("mirror");
  kernels.PairForces = createMirrorPairForceKernel;
  // Dark, cuda's many-body kernel makes nothing, so mirror's twin makes nothing either.
  kernels.ManyBodyForces = [](Backend& backend, const ManyBodyForceSpec& spec) -> std::unique_ptr<ManyBodyForceKernel> {
    if (!deviceKernelEnabled(DeviceKernelFamily::ManyBodyForces)) return nullptr;
    return createMirrorManyBodyForceKernel(backend, spec);
  };
}

}  // namespace hookmd
