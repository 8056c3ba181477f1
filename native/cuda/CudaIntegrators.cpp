#include "cuda/CudaIntegrators.h"

#include "cuda/CudaIntegratorTypes.h"

namespace hookmd {

std::unique_ptr<Integrator> createCudaIntegrator(CudaBackend& backend, const std::string& type, const Parameters& parameters,
                                                 std::int64_t numSystems) {
  if (type == "VelocityVerlet") return makeCudaVelocityVerlet(backend, parameters, numSystems);
  if (type == "Langevin") return makeCudaLangevin(backend, parameters, numSystems);
  if (type == "NoseHooverChain") return makeCudaNoseHooverChain(backend, parameters, numSystems);
  if (type == "FIRE") return makeCudaFire(backend, parameters, numSystems);
  if (type == "FIRE2") return makeCudaFire2(backend, parameters, numSystems);
  if (type == "GradientDescent") return makeCudaGradientDescent(backend, parameters, numSystems);
  return nullptr;
}

}  // namespace hookmd
