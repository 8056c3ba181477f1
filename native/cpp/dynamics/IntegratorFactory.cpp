#include "dynamics/IntegratorFactory.h"

#include "core/Error.h"
#include "dynamics/VelocityVerlet.h"

namespace hookmd {

std::unique_ptr<Integrator> createIntegrator(const std::string& type, const Parameters& parameters, std::int64_t numSystems) {
  if (type == "VelocityVerlet") return std::make_unique<VelocityVerlet>(parameters, numSystems);
  fail("UNKNOWN_INTEGRATOR", "createIntegrator: unknown integrator '" + type + "' (known: VelocityVerlet)");
}

}  // namespace hookmd
