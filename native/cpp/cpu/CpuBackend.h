// The CPU backend: host memory is the storage, and the kernels run on the global thread pool, one system
// per task for batches.
#pragma once

#include "core/Backend.h"

namespace hookmd {

class CpuBackend final : public Backend {
 public:
  const char* name() const noexcept override { return "cpu"; }
  std::string device() const override;
  bool supports(const std::string& operation) const override;

  void resize(std::int64_t numAtoms, std::int64_t numSystems) override { storage_.resize(numAtoms, numSystems); }
  BatchStorage& host() noexcept override { return storage_; }
  void syncToHost(Field) override {}
  void syncToDevice(Field) override {}

  void reduce(Field field, ReduceOp op, double* out) override;
  void kineticEnergy(double* out) override;
  void fmax(double* out) override;

 private:
  BatchStorage storage_;
};

/** Registers "cpu" with the backend registry. */
void registerCpuBackend();

}  // namespace hookmd
