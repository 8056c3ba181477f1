// Constructors of the individual CUDA integrators, for the factory in CudaIntegrators.cpp. Host-compiler
// safe; each is defined next to its class.
#pragma once

#include <cstdint>
#include <memory>

#include "kernels/Integrator.h"
#include "kernels/Parameters.h"

namespace hookmd {

class CudaBackend;

std::unique_ptr<Integrator> makeCudaVelocityVerlet(CudaBackend& backend, const Parameters& parameters, std::int64_t numSystems);
std::unique_ptr<Integrator> makeCudaLangevin(CudaBackend& backend, const Parameters& parameters, std::int64_t numSystems);
std::unique_ptr<Integrator> makeCudaNoseHooverChain(CudaBackend& backend, const Parameters& parameters, std::int64_t numSystems);
std::unique_ptr<Integrator> makeCudaFire(CudaBackend& backend, const Parameters& parameters, std::int64_t numSystems);
std::unique_ptr<Integrator> makeCudaFire2(CudaBackend& backend, const Parameters& parameters, std::int64_t numSystems);
std::unique_ptr<Integrator> makeCudaGradientDescent(CudaBackend& backend, const Parameters& parameters, std::int64_t numSystems);

}  // namespace hookmd
