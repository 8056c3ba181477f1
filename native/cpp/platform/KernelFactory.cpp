#include "platform/KernelFactory.h"

#include <map>

#include "core/Error.h"

namespace hookmd {

namespace {
// std::map keeps each factory at one address while later backends register theirs.
std::map<std::string, KernelFactory>& factories() {
  static std::map<std::string, KernelFactory> byName;
  return byName;
}
}  // namespace

KernelFactory& registerKernels(const std::string& name) { return factories()[name]; }

const KernelFactory& kernelsOf(const Backend& backend) {
  static const KernelFactory none;
  const auto found = factories().find(backend.name());
  return found != factories().end() ? found->second : none;
}

const KernelFactory& referenceKernels() {
  // Registration has run by the first kernel; the address stays, so later calls read it without the map.
  static const KernelFactory& reference = registerKernels(kReferencePlatform);
  return reference;
}

void missingReference(const char* operation) {
  fail("INTERNAL", std::string("createKernel: no CPU reference is registered for ") + operation);
}

}  // namespace hookmd
