#include "dynamics/NativeHookFactory.h"

#include "core/Error.h"
#include "dynamics/hooks/FixCom.h"
#include "dynamics/hooks/FixSymmetry.h"
#include "dynamics/hooks/FreezeAtoms.h"
#include "dynamics/hooks/MaxForceClamp.h"
#include "dynamics/hooks/NaNDetector.h"
#include "dynamics/hooks/WrapPeriodic.h"
#include "platform/KernelFactory.h"

namespace hookmd {

std::unique_ptr<NativeHook> createNativeHook(Backend& backend, const NativeHookSpec& spec) {
  return createKernel<operation::NativeHooks>(backend, spec);
}

std::unique_ptr<NativeHook> createCpuNativeHook(Backend&, const NativeHookSpec& spec) {
  if (spec.type == "MaxForceClampHook") return std::make_unique<MaxForceClamp>(spec.schedule, spec.value);
  if (spec.type == "WrapPeriodicHook") return std::make_unique<WrapPeriodic>(spec.schedule);
  if (spec.type == "FreezeAtomsHook") return std::make_unique<FreezeAtoms>(spec.schedule, spec.mask);
  if (spec.type == "FixCom") return std::make_unique<FixCom>(spec.schedule);
  if (spec.type == "FixSymmetry") return std::make_unique<FixSymmetry>(spec.schedule, spec.values);
  if (spec.type == "NaNDetectorHook") return std::make_unique<NaNDetector>(spec.schedule);
  fail("UNKNOWN_HOOK", "createNativeHook: unknown native hook '" + spec.type + "'");
}

}  // namespace hookmd
