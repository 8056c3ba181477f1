#include "dynamics/DynamicsKernels.h"

#include "dynamics/CpuSmallSystemKernel.h"
#include "dynamics/IntegratorFactory.h"
#include "dynamics/NativeHookFactory.h"
#include "platform/KernelFactory.h"

namespace hookmd {

void registerDynamicsKernels() {
  KernelFactory& reference = registerKernels(kReferencePlatform);
  reference.Integrator = createCpuIntegrator;
  reference.NativeHooks = createCpuNativeHook;
  reference.SmallSystems = [](Backend&) { return createCpuSmallSystemKernel(); };
}

}  // namespace hookmd
