// Backends register a factory by name; a build without CUDA simply never registers "cuda". Asking for a
// backend that cannot run returns the reason instead of crashing, so `auto` can fall back to CPU.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/Backend.h"

namespace hookmd {

struct BackendAvailability {
  bool available = false;
  /** Why the backend cannot run here (empty when available). */
  std::string reason;
  /** Device description when available. */
  std::string device;
};

struct BackendEntry {
  std::string name;
  std::function<BackendAvailability()> probe;
  std::function<std::unique_ptr<Backend>()> create;
};

void registerBackend(BackendEntry entry);
/** Backends compiled into this binary, in registration order. */
const std::vector<BackendEntry>& registeredBackends();
/** Availability of `name`; reports "not compiled into this binary" for unknown names. */
BackendAvailability probeBackend(const std::string& name);
/** Creates `name`; throws NativeError BACKEND_UNAVAILABLE with the probe's reason when it cannot run. */
std::unique_ptr<Backend> createBackend(const std::string& name);

}  // namespace hookmd
