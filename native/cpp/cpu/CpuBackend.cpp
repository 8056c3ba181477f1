#include "cpu/CpuBackend.h"

#include "core/BackendRegistry.h"
#include "core/ThreadPool.h"
#include "cpu/CpuReductions.h"

namespace hookmd {

std::string CpuBackend::device() const { return std::to_string(ThreadPool::global().threads()) + " threads"; }

void CpuBackend::reduce(Field field, ReduceOp op, double* out) {
  reduceOnHost(arraysFor(Kernel::Reductions, reductionReads(field)), field, op, out);
}

void CpuBackend::kineticEnergy(double* out) {
  kineticEnergyOnHost(arraysFor(Kernel::Reductions, kineticEnergyReads()), out);
}

void CpuBackend::fmax(double* out) { reduce(Field::Forces, ReduceOp::Max, out); }

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
}

}  // namespace hookmd
