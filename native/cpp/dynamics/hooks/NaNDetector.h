// Stops the run with a typed error (NAN_DETECTED) naming the systems and the step as soon as a position,
// velocity, force or energy is not finite, before the bad values spread through the batch.
#pragma once

#include "dynamics/NativeHook.h"

namespace hookmd {

class NaNDetector final : public NativeHook {
 public:
  explicit NaNDetector(HookSchedule schedule) : NativeHook(schedule) {}
  const char* name() const noexcept override { return "NaNDetectorHook"; }
  void apply(Backend& backend, DynamicsStage stage, std::int64_t step, const std::uint8_t* active) override;

 private:
  HookSelection selection_;
};

}  // namespace hookmd
