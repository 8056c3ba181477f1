// Wraps positions back into the cell along periodic directions (fractional coordinates in [0, 1)).
#pragma once

#include "dynamics/NativeHook.h"

namespace hookmd {

class WrapPeriodic final : public NativeHook {
 public:
  explicit WrapPeriodic(HookSchedule schedule) : NativeHook(schedule) {}
  const char* name() const noexcept override { return "WrapPeriodicHook"; }
  void apply(Backend& backend, DynamicsStage stage, std::int64_t step, const std::uint8_t* active) override;

 private:
  HookSelection selection_;
};

}  // namespace hookmd
