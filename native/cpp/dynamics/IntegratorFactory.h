// One flat name → integrator dispatch, like OpenMM's kernel factories.
#pragma once

#include <memory>
#include <string>

#include "kernels/Integrator.h"
#include "kernels/Parameters.h"

namespace hookmd {

/**
 * Creates the integrator called `type` for `backend`: the backend's own implementation where it has one,
 * else the CPU reference. Throws UNKNOWN_INTEGRATOR listing the known names.
 */
std::unique_ptr<Integrator> createIntegrator(Backend& backend, const std::string& type, const Parameters& parameters,
                                             std::int64_t numSystems);

/** The CPU reference of createIntegrator (platform/KernelFactory.h), which wrapped integrators recurse through. */
std::unique_ptr<Integrator> createCpuIntegrator(Backend& backend, const std::string& type, const Parameters& parameters,
                                                std::int64_t numSystems);

}  // namespace hookmd
