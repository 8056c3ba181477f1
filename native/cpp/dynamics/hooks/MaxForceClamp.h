// Caps every atom's force norm at maxForce, keeping its direction (a guard for the first steps of a
// relaxation from a bad geometry).
#pragma once

#include "dynamics/NativeHook.h"

namespace hookmd {

class MaxForceClamp final : public NativeHook {
 public:
  MaxForceClamp(HookSchedule schedule, double maxForce) : NativeHook(schedule), maxForce_(maxForce) {}
  const char* name() const noexcept override { return "MaxForceClampHook"; }
  void apply(Backend& backend, DynamicsStage stage, std::int64_t step, const std::uint8_t* active) override;

 private:
  HookSelection selection_;
  double maxForce_;
};

}  // namespace hookmd
