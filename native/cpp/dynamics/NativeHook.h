// A built-in hook that runs inside the native stepping loop and never crosses into JS. Gating follows the
// hook rules: it fires at stage s of step k when s is in its stage mask and (k − phase) % frequency == 0
// with k ≥ phase.
#pragma once

#include <cstdint>
#include <vector>

#include "core/Backend.h"
#include "dynamics/DynamicsStage.h"

namespace hookmd {

struct HookSchedule {
  unsigned stageMask = 0;
  std::int64_t frequency = 1;
  std::int64_t phase = 0;

  bool due(DynamicsStage stage, std::int64_t step) const {
    return (stageMask & stageBit(stage)) != 0 && step >= phase && (step - phase) % frequency == 0;
  }
};

class NativeHook {
 public:
  explicit NativeHook(HookSchedule schedule) : schedule_(schedule) {}
  virtual ~NativeHook() = default;
  virtual const char* name() const noexcept = 0;
  const HookSchedule& schedule() const noexcept { return schedule_; }
  /** Runs the hook on the host arrays; `active` flags the systems being updated this step. */
  virtual void apply(Backend& backend, DynamicsStage stage, std::int64_t step, const std::uint8_t* active) = 0;
  /** Called when the batch was compacted/refilled: keep systems `keep`, append `added` (per-atom state resets). */
  virtual void remap(const std::vector<std::int64_t>&, std::int64_t) {}
  /** The atoms it holds fixed, one flag per atom of the batch (FreezeAtomsHook), or null. */
  virtual const std::vector<std::uint8_t>* frozenAtoms() const noexcept { return nullptr; }

 private:
  HookSchedule schedule_;
};

}  // namespace hookmd
