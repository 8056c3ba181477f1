// Builds native built-in hooks (and convergence checks) from their already-validated specs.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dynamics/Convergence.h"
#include "dynamics/NativeHook.h"

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
