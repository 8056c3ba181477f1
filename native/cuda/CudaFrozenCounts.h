// The per-system frozen-atom counts of a step (StepContext::frozenCount, host memory) on the device, for the
// thermostat kernels that count degrees of freedom (math/DegreesOfFreedom.h). The counts belong to the
// stepper's FreezeAtomsHooks, which are fixed for its batch, so they are uploaded once per stepper.
#pragma once

#include <cstdint>
#include <vector>

#include "cuda/DeviceUpload.h"
#include "dynamics/Integrator.h"

namespace hookmd {

class CudaFrozenCounts {
 public:
  explicit CudaFrozenCounts(const char* owner) : owner_(owner) {}

  /** The device copy of `context.frozenCount` (numSystems entries), or null when no atom is frozen. */
  const std::int32_t* device(const StepContext& context, std::int64_t numSystems) {
    if (context.frozenCount == nullptr) return nullptr;
    if (context.frozenCount != uploadedFrom_ || numSystems != uploadedCount_) {
      uploadVector(d_counts_, std::vector<std::int32_t>(context.frozenCount, context.frozenCount + numSystems), owner_);
      uploadedFrom_ = context.frozenCount;
      uploadedCount_ = numSystems;
    }
    return d_counts_.as<const std::int32_t>();
  }

 private:
  const char* owner_;
  DeviceBuffer d_counts_;
  const std::int32_t* uploadedFrom_ = nullptr;
  std::int64_t uploadedCount_ = 0;
};

}  // namespace hookmd
