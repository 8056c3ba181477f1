#include "dynamics/hooks/FreezeAtoms.h"

#include "core/Error.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

std::vector<std::int64_t> frozenIndices(const std::vector<std::uint8_t>& mask) {
  std::vector<std::int64_t> frozen;
  for (std::size_t i = 0; i < mask.size(); ++i) {
    if (mask[i]) frozen.push_back(static_cast<std::int64_t>(i));
  }
  return frozen;
}

FreezeAtoms::FreezeAtoms(HookSchedule schedule, std::vector<std::uint8_t> mask)
    : NativeHook(schedule), mask_(std::move(mask)), frozen_(frozenIndices(mask_)) {}

void FreezeAtoms::remapWith(const std::vector<std::int64_t>&, std::int64_t, const HookArrivals& arrivals) {
  mask_ = arrivals.mask;
  frozen_ = frozenIndices(mask_);
  // A refill comes between steps, after AFTER_POST_UPDATE put every fixed atom back on its anchor: the
  // kept ones are anchored again where they stand, the new ones where they enter.
  anchored_ = false;
}

void refuseFreezeAtomsRemap() {
  fail("INVALID_HOOK", "FreezeAtomsHook: its mask names atoms of one batch, and runStream replaces the batch's "
                       "systems as they finish; freeze atoms in run(), or mark them in the systems a stream takes");
}

void FreezeAtoms::apply(Backend& backend, DynamicsStage stage, std::int64_t, const std::uint8_t*) {
  const bool clearForces = stage == DynamicsStage::AfterCompute;
  // Only the frozen atoms are written, so the others must be current on the side written.
  const FieldSet touched = FieldSet{Field::Positions, Field::Velocities}.with(Field::Forces, clearForces);
  BatchStorage& host = arraysFor(backend, Kernel::NativeHooks, touched, touched);
  if (static_cast<std::int64_t>(mask_.size()) != host.numAtoms()) {
    fail("INVALID_MASK", "FreezeAtomsHook: the mask has " + std::to_string(mask_.size()) + " entries but the batch has " +
                             std::to_string(host.numAtoms()) + " atoms");
  }
  // On the device: at the first call the frozen atoms' list goes up and their anchor is taken, then one
  // kernel per call.
  if (!frozen_.empty()) {
    if (!anchored_) {
      backend.charge(DeviceOp::ControlUpload, DeviceWork{1, 0, 0, 0, 0, frozen_.size() * sizeof(std::int64_t)});
      backend.charge(DeviceOp::HookKernel);
    }
    backend.charge(DeviceOp::HookKernel);
  }
  double* x = host.f64(Field::Positions);
  double* v = host.f64(Field::Velocities);
  double* f = host.f64(Field::Forces);
  if (!anchored_) {
    anchor_.resize(3 * frozen_.size());
    for (std::size_t k = 0; k < frozen_.size(); ++k) {
      for (int c = 0; c < 3; ++c) anchor_[3 * k + c] = x[3 * frozen_[k] + c];
    }
    anchored_ = true;
  }
  for (std::size_t k = 0; k < frozen_.size(); ++k) {
    const std::int64_t i = frozen_[k];
    for (int c = 0; c < 3; ++c) {
      x[3 * i + c] = anchor_[3 * k + c];
      v[3 * i + c] = 0.0;
      if (clearForces) f[3 * i + c] = 0.0;
    }
  }
}

}  // namespace hookmd
