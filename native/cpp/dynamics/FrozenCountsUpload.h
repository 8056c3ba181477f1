// When a device backend sends a step's frozen-atom counts (StepContext::frozenCount) to the device, for the
// thermostats that count degrees of freedom (math/DegreesOfFreedom.h): once for a stepper's counts, and again
// after a refill changed them (StepContext::frozenVersion). cuda sends them there (cuda/dynamics/CudaFrozenCounts.h); the CPU thermostats,
// which `mirror` runs, charge the same upload to the ledger (docs/cuda.md, "The device ledger").
#pragma once

#include <cstdint>

#include "core/Backend.h"
#include "kernels/Integrator.h"

namespace hookmd {

class FrozenCountsUpload {
 public:
  /** Whether `context`'s counts (numSystems entries) must go up now; when they must, charges the upload. */
  bool due(const StepContext& context, std::int64_t numSystems) {
    if (context.frozenCount == nullptr || (context.frozenCount == sentFrom_ && numSystems == sentCount_ && context.frozenVersion == sentVersion_)) return false;
    sentFrom_ = context.frozenCount;
    sentCount_ = numSystems;
    sentVersion_ = context.frozenVersion;
    if (numSystems > 0) {
      context.backend.charge(DeviceOp::ControlUpload, DeviceWork{1, 0, 0, 0, 0, static_cast<std::uint64_t>(numSystems) * sizeof(std::int32_t)});
    }
    return true;
  }

 private:
  const std::int32_t* sentFrom_ = nullptr;
  std::int64_t sentCount_ = 0;
  std::uint64_t sentVersion_ = 0;
};

}  // namespace hookmd
