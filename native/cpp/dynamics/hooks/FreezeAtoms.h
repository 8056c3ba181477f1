// Holds masked atoms fixed: their positions are restored and their velocities and forces zeroed around
// every integrator phase, so any integrator (thermostats included) leaves them in place.
#pragma once

#include <vector>

#include "dynamics/NativeHook.h"

namespace hookmd {

class FreezeAtoms final : public NativeHook {
 public:
  /** `mask` has one entry per atom of the batch (1 = frozen). */
  FreezeAtoms(HookSchedule schedule, std::vector<std::uint8_t> mask);
  const char* name() const noexcept override { return "FreezeAtomsHook"; }
  void apply(Backend& backend, DynamicsStage stage, std::int64_t step, const std::uint8_t* active) override;

 private:
  std::vector<std::uint8_t> mask_;
  std::vector<std::int64_t> frozen_;
  std::vector<double> anchor_;
  bool anchored_ = false;
};

}  // namespace hookmd
