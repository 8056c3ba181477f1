// What a CUDA integrator hands the GPU small-system kernel (CudaSmallSystems.cuh): its per-system tables on
// the device. The CUDA FIRE, FIRE2, gradient descent, VelocityVerlet and Langevin inherit it next to
// Integrator. Host-compiler safe.
#pragma once

#include <cstdint>

#include "cuda/dynamics/CudaSmallSystems.cuh"

namespace hookmd {

class CudaSmallStep {
 public:
  virtual ~CudaSmallStep() = default;
  /** The tables, after the checks its preUpdate makes: they cover `numSystems` (INVALID_PARAMETER, INVALID_STATE). */
  virtual kernel::SmallIntegratorArgs smallStep(std::int64_t numSystems) = 0;
};

}  // namespace hookmd
