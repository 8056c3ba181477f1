// The CUDA backend's native built-in hooks (docs/cuda.md): FreezeAtoms, MaxForceClamp, WrapPeriodic and
// the NaN detector run on the device arrays; the NaN detector brings back one word per check, and the
// per-system flags only when something is not finite. Host-compiler safe: CudaBackend.cpp includes it.
#pragma once

#include <memory>

#include "dynamics/NativeHook.h"
#include "dynamics/NativeHookFactory.h"

namespace hookmd {

class CudaBackend;

/**
 * The CUDA twin of the entry of HOOKMD_NATIVE_HOOKS (dynamics/NativeHookFactory.h) called `spec.type` where
 * it is marked cuda (`spec` already validated by the API layer), or null for any other type. Errors are the CPU hooks' (INVALID_MASK,
 * NAN_DETECTED with the same message).
 */
std::unique_ptr<NativeHook> createCudaNativeHook(CudaBackend& backend, const NativeHookSpec& spec);

}  // namespace hookmd
