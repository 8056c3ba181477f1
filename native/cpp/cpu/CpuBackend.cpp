#include "cpu/CpuBackend.h"

#include "core/BackendRegistry.h"
#include "core/ThreadPool.h"

namespace hookmd {

std::string CpuBackend::device() const { return std::to_string(ThreadPool::global().threads()) + " threads"; }

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
