// The per-system frozen-atom counts of a step (StepContext::frozenCount, host memory) on the device, for the
// thermostat kernels that count degrees of freedom (math/DegreesOfFreedom.h). The counts belong to the
// stepper's FreezeAtomsHooks, so they go up once per stepper and again after a stream's refill changed them
// (dynamics/FrozenCountsUpload.h decides and charges it, as the CPU thermostats do on `mirror`).
#pragma once

#include <cstdint>
#include <vector>

#include "cuda/core/DeviceUpload.h"
#include "dynamics/FrozenCountsUpload.h"
#include "kernels/Integrator.h"

namespace hookmd {

class CudaFrozenCounts {
 public:
  explicit CudaFrozenCounts(const char* owner) : owner_(owner) {}

  /** The device copy of `context.frozenCount` (numSystems entries), or null when no atom is frozen. */
  const std::int32_t* device(const StepContext& context, std::int64_t numSystems) {
    if (context.frozenCount == nullptr) return nullptr;
    if (upload_.due(context, numSystems)) {
      uploadVector(d_counts_, std::vector<std::int32_t>(context.frozenCount, context.frozenCount + numSystems), owner_);
    }
    return d_counts_.as<const std::int32_t>();
  }

 private:
  const char* owner_;
  FrozenCountsUpload upload_;
  DeviceBuffer d_counts_;
};

}  // namespace hookmd
