#include "cuda/dynamics/CudaIntegrators.h"

#include "cuda/dynamics/CudaIntegratorTypes.h"

namespace hookmd {

std::unique_ptr<Integrator> createCudaIntegrator(CudaBackend& backend, const std::string& type, const Parameters& parameters,
                                                 std::int64_t numSystems) {
#define HOOKMD_CUDA_INTEGRATOR(name, Class, kind, small, cuda) \
  HOOKMD_WHEN(cuda, if (type == #name) return makeCuda##Class(backend, parameters, numSystems);)
  HOOKMD_INTEGRATORS(HOOKMD_CUDA_INTEGRATOR)
#undef HOOKMD_CUDA_INTEGRATOR
  return nullptr;
}

}  // namespace hookmd
