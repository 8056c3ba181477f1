// Holds masked atoms fixed: their positions are restored and their velocities and forces zeroed around
// every integrator phase, so any integrator (thermostats included) leaves them in place.
#pragma once

#include <vector>

#include "dynamics/NativeHook.h"

namespace hookmd {

/** FreezeAtomsHook's answer to a refill, shared by every backend's implementation: INVALID_HOOK. */
[[noreturn]] void refuseFreezeAtomsRemap();

/** The indices of the atoms `mask` flags, in order. */
std::vector<std::int64_t> frozenIndices(const std::vector<std::uint8_t>& mask);

class FreezeAtoms final : public NativeHook {
 public:
  /** `mask` has one entry per atom of the batch (1 = frozen). */
  FreezeAtoms(HookSchedule schedule, std::vector<std::uint8_t> mask);
  const char* name() const noexcept override { return "FreezeAtomsHook"; }
  /** Its mask names atoms of one fixed batch, so a refill (runStream) cannot carry it: INVALID_HOOK. */
  void remap(const std::vector<std::int64_t>&, std::int64_t) override { refuseFreezeAtomsRemap(); }
  /** A stream's refill: `arrivals.mask` flags the atoms that the refilled batch's systems fix. */
  void remapWith(const std::vector<std::int64_t>&, std::int64_t, const HookArrivals& arrivals) override;
  void apply(Backend& backend, DynamicsStage stage, std::int64_t step, const std::uint8_t* active) override;
  const std::vector<std::uint8_t>* frozenAtoms() const noexcept override { return &mask_; }

 private:
  std::vector<std::uint8_t> mask_;
  std::vector<std::int64_t> frozen_;
  std::vector<double> anchor_;
  bool anchored_ = false;
};

}  // namespace hookmd
