// A built-in hook that runs inside the native stepping loop and never crosses into JS. Gating follows the
// hook rules: it fires at stage s of step k when s is in its stage mask and (k − phase) % frequency == 0
// with k ≥ phase.
#pragma once

#include <cstdint>
#include <vector>

#include "core/Backend.h"
#include "core/Error.h"
#include "core/SentFlags.h"
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

/**
 * The device copy of a native hook's selection (its `active` flags, one byte per system): sent again only
 * when the flags changed, so a steady run sends nothing. The CUDA hooks upload when update() says so; the
 * CPU hooks, which `mirror` runs, only charge the same copy.
 */
class HookSelection {
 public:
  /** Whether `active` (null: every system, nothing to send) must go to the device now; charges the copy. */
  bool update(Backend& backend, const std::uint8_t* active) {
    if (active == nullptr || backend.unified()) return false;
    const auto systems = static_cast<std::size_t>(backend.numSystems());
    if (!sent_.update(active, systems)) return false;
    if (systems > 0) backend.charge(DeviceOp::ControlUpload, DeviceWork{1, 0, 0, 0, 0, systems});
    return true;
  }

 private:
  SentFlags sent_;
};

/**
 * What a refill (runStream) brings a hook whose data name atoms or systems of the batch: the data of the
 * refilled batch, which JS keeps with the systems as they come and go.
 */
struct HookArrivals {
  /** One flag per atom of the refilled batch (FreezeAtomsHook: the atoms its systems fix). */
  std::vector<std::uint8_t> mask;
  /** The added systems' data, in the hook's own layout (FixSymmetry: their operations). */
  std::vector<double> values;
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
  /** remap() with the data of the refilled batch; a hook whose data cannot follow refills refuses it. */
  virtual void remapWith(const std::vector<std::int64_t>&, std::int64_t, const HookArrivals&) {
    fail("INVALID_HOOK", std::string(name()) + ": a refill cannot bring it new data");
  }
  /** The atoms it holds fixed, one flag per atom of the batch (FreezeAtomsHook), or null. */
  virtual const std::vector<std::uint8_t>* frozenAtoms() const noexcept { return nullptr; }
  /** Whether it holds each system's centre of mass (FixCom), which takes 3 more degrees of freedom beside frozen atoms. */
  virtual bool holdsCentre() const noexcept { return false; }
  /** The stepper's frozen atoms (one flag per atom of the batch, or null: none), whenever they change. */
  virtual void useFrozen(const std::vector<std::uint8_t>*) {}

 private:
  HookSchedule schedule_;
};

}  // namespace hookmd
