// The CUDA backend's integrators (docs/cuda.md): every phase runs on the device arrays, and the per-system
// parameters and state live on the device. Host-compiler safe: CudaBackend.cpp, built by the C++ compiler,
// includes it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "kernels/Integrator.h"
#include "kernels/Parameters.h"

namespace hookmd {

class CudaBackend;

/**
 * The CUDA twin of the entry of HOOKMD_INTEGRATORS (kernels/Integrator.h) called `type` where it is marked
 * cuda, or null for any other type: a FusedStage is the CPU FusedIntegrator
 * composing CUDA sub-stages. Parameters are checked as the CPU integrators check them, and state() has
 * their layout, so checkpoints move between backends.
 */
std::unique_ptr<Integrator> createCudaIntegrator(CudaBackend& backend, const std::string& type, const Parameters& parameters,
                                                 std::int64_t numSystems);

}  // namespace hookmd
