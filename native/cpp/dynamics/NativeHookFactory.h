// Builds native built-in hooks (and convergence checks) from their already-validated specs.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dynamics/Convergence.h"
#include "dynamics/NativeHook.h"

/**
 * The one list of native built-in hooks createNativeHook makes by name. X(name, Class, arguments, cuda):
 * `name` as JS spells it; `Class` the CPU reference, dynamics/hooks/<Class>.h, made from `arguments`, the
 * fields of the NativeHookSpec `spec` it takes; `cuda` whether cuda has a twin, Cuda<Class>, made from the
 * CudaBackend and the same arguments. Adding a hook is its class, its include in NativeHookFactory.cpp and a
 * line here.
 */
#define HOOKMD_NATIVE_HOOKS(X)                                           \
  X(MaxForceClampHook, MaxForceClamp, (spec.schedule, spec.value), true) \
  X(WrapPeriodicHook, WrapPeriodic, (spec.schedule), true)               \
  X(FreezeAtomsHook, FreezeAtoms, (spec.schedule, spec.mask), true)      \
  X(FixCom, FixCom, (spec.schedule), false)                              \
  X(FixSymmetry, FixSymmetry, (spec.schedule, spec.values), false)       \
  X(NaNDetectorHook, NaNDetector, (spec.schedule), true)

namespace hookmd {

struct NativeHookSpec {
  std::string type;
  HookSchedule schedule;
  double value = 0.0;
  std::vector<std::uint8_t> mask;
  /** A hook's own list of numbers (FixSymmetry: its operations per system). */
  std::vector<double> values;
};

/**
 * Creates the hook called `spec.type` for `backend`: the backend's own implementation where it has one,
 * else the CPU reference. Throws UNKNOWN_HOOK for other names.
 */
std::unique_ptr<NativeHook> createNativeHook(Backend& backend, const NativeHookSpec& spec);

/** The CPU reference of createNativeHook (platform/KernelFactory.h). */
std::unique_ptr<NativeHook> createCpuNativeHook(Backend& backend, const NativeHookSpec& spec);

}  // namespace hookmd
