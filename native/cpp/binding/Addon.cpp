// The addon's entry point: registers the backends compiled into this binary and exports the wrapped
// classes and module functions. Nothing else belongs here.
#include <napi.h>

#include <mutex>

#include "binding/AddonData.h"
#include "binding/BatchWrap.h"
#include "binding/EamWrap.h"
#include "binding/EdgeListWrap.h"
#include "binding/LossWrap.h"
#include "binding/ManyBodyWrap.h"
#include "binding/NetworkLossWrap.h"
#include "binding/ModuleFunctions.h"
#include "binding/PairPotentialWrap.h"
#include "binding/SnapWrap.h"
#include "binding/StepperWrap.h"
#include "cpu/CpuBackend.h"
#include "dynamics/DynamicsKernels.h"
#include "mirror/MirrorBackend.h"

#ifdef HOOKMD_WITH_CUDA
#include "cuda/platform/CudaBackendRegistration.h"
#endif

namespace hookmd::binding {

AddonData& addonData(Napi::Env env) { return *env.GetInstanceData<AddonData>(); }

Napi::Object init(Napi::Env env, Napi::Object exports) {
  env.SetInstanceData(new AddonData());
  // The registries are process-wide while every worker thread runs init: register once, not once per thread.
  // Each folder that holds CPU references registers them (platform/KernelFactory.h).
  static std::once_flag registered;
  std::call_once(registered, [] {
    registerCpuBackend();
    registerDynamicsKernels();
    registerMirrorBackend();
#ifdef HOOKMD_WITH_CUDA
    registerCudaBackend();
#endif
  });
  exports.Set("NativeBatch", BatchWrap::define(env));
  exports.Set("PairPotential", PairPotentialWrap::define(env));
  exports.Set("pairEvaluators", PairPotentialWrap::evaluators(env));
  exports.Set("EAM", EamWrap::define(env));
  exports.Set("ManyBody", ManyBodyWrap::define(env));
  exports.Set("Snap", SnapWrap::define(env));
  exports.Set("EdgeList", EdgeListWrap::define(env));
  exports.Set("NativeStepper", StepperWrap::define(env));
  exports.Set("PairLoss", LossWrap::define(env));
  exports.Set("NetworkLoss", NetworkLossWrap::define(env));
  exportModuleFunctions(env, exports);
  return exports;
}

}  // namespace hookmd::binding

static Napi::Object InitHookmd(Napi::Env env, Napi::Object exports) { return hookmd::binding::init(env, exports); }

NODE_API_MODULE(hookmd, InitHookmd)
