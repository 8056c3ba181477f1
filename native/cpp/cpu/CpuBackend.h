// The CPU backend: host memory is the storage (device and host are one memory, so nothing is ever copied),
// and every kernel is the CPU reference on the global thread pool.
#pragma once

#include "core/Backend.h"

namespace hookmd {

class CpuBackend final : public Backend {
 public:
  const char* name() const noexcept override { return "cpu"; }
  std::string device() const override;

 protected:
  void resizeDevice(std::int64_t, std::int64_t) override {}
  BatchStorage* deviceArrays() noexcept override { return &hostStorage(); }
  void copyToHost(Field, std::size_t) override {}
  void copyToDevice(Field, std::size_t) override {}
  void refillDevice(const RefillPlan&, FieldSet) override {}
  void copyRangeToDevice(Field, std::size_t, std::size_t) override {}
  void copyRangeFromDevice(Field, std::size_t, std::size_t, void*) override {}
  void reduceOnDevice(Field field, ReduceOp op, double* out) override;
  void kineticEnergyOnDevice(double* out) override;
};

/**
 * Registers "cpu" with the backend registry, and the CPU reference of the operations whose kernels live in
 * cpu/ (pair, EAM and many-body forces) with the platform registry.
 */
void registerCpuBackend();

}  // namespace hookmd
