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
#define HOOKMD_CPU_HOOK(name, Class, arguments, cuda) \
  if (spec.type == #name) return std::make_unique<Class> arguments;
  HOOKMD_NATIVE_HOOKS(HOOKMD_CPU_HOOK)
#undef HOOKMD_CPU_HOOK
  fail("UNKNOWN_HOOK", "createNativeHook: unknown native hook '" + spec.type + "'");
}

}  // namespace hookmd
