#include "cpu/CpuBackend.h"

#include "core/BackendRegistry.h"
#include "core/ThreadPool.h"
#include "cpu/CpuEamForceKernel.h"
#include "cpu/CpuManyBodyForceKernel.h"
#include "cpu/CpuPairLossKernel.h"
#include "cpu/CpuPairForceKernel.h"
#include "cpu/CpuReductions.h"
#include "platform/KernelFactory.h"

namespace hookmd {

std::string CpuBackend::device() const { return std::to_string(ThreadPool::global().threads()) + " threads"; }

void CpuBackend::reduceOnDevice(Field field, ReduceOp op, double* out) { reduceReference(*this, field, op, out); }

void CpuBackend::kineticEnergyOnDevice(double* out) { kineticEnergyReference(*this, out); }

void registerCpuBackend() {
  BackendEntry entry;
  entry.name = "cpu";
  entry.probe = [] {
    BackendAvailability availability;
    availability.available = true;
    availability.device = std::to_string(ThreadPool::global().threads()) + " threads";
    return availability;
  };
  entry.create = [] { return std::unique_ptr<Backend>(new CpuBackend()); };
  registerBackend(std::move(entry));
  KernelFactory& reference = registerKernels(kReferencePlatform);
  reference.PairForces = [](Backend&, const PairForceSpec& spec) { return createCpuPairForceKernel(spec); };
  reference.EamForces = [](Backend&, const EamForceSpec& spec) -> std::unique_ptr<EamForceKernel> {
    return std::make_unique<CpuEamForceKernel>(spec);
  };
  reference.ManyBodyForces = [](Backend&, const ManyBodyForceSpec& spec) -> std::unique_ptr<ManyBodyForceKernel> {
    return std::make_unique<CpuManyBodyForceKernel>(spec);
  };
  reference.PairLoss = [](Backend&, const PairLossSpec& spec) { return createCpuPairLossKernel(spec); };
}

}  // namespace hookmd
