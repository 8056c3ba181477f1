// The CPU backend: host memory is the storage (device and host are one memory, so nothing is ever copied),
// and every kernel is the CPU reference on the global thread pool.
#pragma once

#include "core/Backend.h"

namespace hookmd {

class CpuBackend final : public Backend {
 public:
  const char* name() const noexcept override { return "cpu"; }
  std::string device() const override;
  bool supports(Kernel) const override { return true; }

 protected:
  void resizeDevice(std::int64_t, std::int64_t) override {}
  BatchStorage* deviceArrays() noexcept override { return &hostStorage(); }
  void copyToHost(Field, std::size_t) override {}
  void copyToDevice(Field, std::size_t) override {}
  void refillDevice(const RefillPlan&, FieldSet) override {}
  void copyRangeToDevice(Field, std::size_t, std::size_t) override {}
  void copyRangeFromDevice(Field, std::size_t, std::size_t, void*) override {}
};

/** Registers "cpu" with the backend registry. */
void registerCpuBackend();

}  // namespace hookmd
