// Constructors of the individual CUDA integrators, for the factory in CudaIntegrators.cpp. Host-compiler
// safe; each is defined next to its class.
#pragma once

#include <cstdint>
#include <memory>

#include "core/ListMacros.h"
#include "kernels/Integrator.h"
#include "kernels/Parameters.h"

namespace hookmd {

class CudaBackend;

/** makeCuda<Class> for every entry of HOOKMD_INTEGRATORS marked cuda. */
#define HOOKMD_CUDA_INTEGRATOR_MAKER(name, Class, kind, small, cuda) \
  HOOKMD_WHEN(cuda, std::unique_ptr<Integrator> makeCuda##Class(CudaBackend& backend, const Parameters& parameters, std::int64_t numSystems);)
HOOKMD_INTEGRATORS(HOOKMD_CUDA_INTEGRATOR_MAKER)
#undef HOOKMD_CUDA_INTEGRATOR_MAKER

}  // namespace hookmd
