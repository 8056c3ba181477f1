#include "core/BackendRegistry.h"

#include "core/Error.h"

namespace hookmd {

namespace {
std::vector<BackendEntry>& entries() {
  static std::vector<BackendEntry> list;
  return list;
}

const BackendEntry* findEntry(const std::string& name) {
  for (const auto& entry : entries()) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}
}  // namespace

bool reduceOpFromName(const std::string& name, ReduceOp& out) {
  static const char* const names[] = {"sum", "mean", "min", "max", "norm"};
  for (int i = 0; i < 5; ++i) {
    if (name == names[i]) {
      out = static_cast<ReduceOp>(i);
      return true;
    }
  }
  return false;
}

void registerBackend(BackendEntry entry) {
  if (findEntry(entry.name) == nullptr) entries().push_back(std::move(entry));
}

const std::vector<BackendEntry>& registeredBackends() { return entries(); }

BackendAvailability probeBackend(const std::string& name) {
  const BackendEntry* entry = findEntry(name);
  if (entry == nullptr) {
    BackendAvailability none;
    none.reason = "backend '" + name + "' is not compiled into this binary";
    return none;
  }
  return entry->probe();
}

std::unique_ptr<Backend> createBackend(const std::string& name) {
  const BackendAvailability availability = probeBackend(name);
  if (!availability.available) fail("BACKEND_UNAVAILABLE", "backend '" + name + "': " + availability.reason);
  return findEntry(name)->create();
}

}  // namespace hookmd
