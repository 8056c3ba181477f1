// The emulated device: `mirror` keeps its "device" arrays in host memory apart from the host mirrors, runs
// the CPU reference of every kernel the CUDA backend runs on the device against those arrays, and syncs
// and counts exactly as cuda does. CI runs the whole suite under it, so every coherence path is exercised
// without a GPU, and its results must equal cpu's bit for bit.
#pragma once

#include "core/Backend.h"

namespace hookmd {

class MirrorBackend final : public Backend {
 public:
  const char* name() const noexcept override { return "mirror"; }
  std::string device() const override;

 protected:
  void resizeDevice(std::int64_t numAtoms, std::int64_t numSystems) override;
  BatchStorage* deviceArrays() noexcept override;
  void copyToHost(Field field, std::size_t bytes) override;
  void copyToDevice(Field field, std::size_t bytes) override;
  void refillDevice(const RefillPlan& plan, FieldSet kept) override;
  void copyRangeToDevice(Field field, std::size_t offset, std::size_t bytes) override;
  void copyRangeFromDevice(Field field, std::size_t offset, std::size_t bytes, void* out) override;
  void reduceOnDevice(Field field, ReduceOp op, double* out) override;
  void kineticEnergyOnDevice(double* out) override;

 private:
  BatchStorage device_;
};

/**
 * Registers "mirror" with the backend registry, and its one kernel of its own with the platform registry:
 * the CPU reference of the pair forces beside a model of the CUDA kernel's schedule, which it charges
 * (MirrorPairForceKernel.h). Every other operation runs the CPU reference, on the device arrays where cuda
 * runs it on the device (platform/DeviceOperations.h).
 */
void registerMirrorBackend();

}  // namespace hookmd
