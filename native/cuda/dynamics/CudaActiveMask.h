// The device copy of a native hook's `active` flags (one byte per system, host memory in the NativeHook
// interface). The flags change only when systems finish, so the copy is refreshed only when they differ
// from the last upload (HookSelection, which also charges it): a steady run moves no bytes for it.
#pragma once

#include <cstdint>
#include <string>

#include "core/Backend.h"
#include "cuda/core/DeviceBuffer.h"
#include "dynamics/NativeHook.h"

namespace hookmd {

class CudaActiveMask {
 public:
  explicit CudaActiveMask(std::string owner) : owner_(std::move(owner)) {}

  /** The device flags equal to `active[0, numSystems)`, or null when `active` is null (every system). */
  const std::uint8_t* upload(Backend& backend, const std::uint8_t* active);

 private:
  std::string owner_;
  HookSelection selection_;
  DeviceBuffer d_flags_;
};

}  // namespace hookmd
