// Launchers of the minimizer steps (FIRE, FIRE2, gradient descent) on the device: each takes a whole
// preUpdate of every selected system, as dynamics/Fire.cpp, Fire2.cpp and GradientDescent.cpp do on the
// host, through the HD updates of math/FireUpdate.h, math/Fire2Update.h and math/CappedStep.h. Declarations
// only; the programs live in CudaMinimizerSteps.cu.
#pragma once

#include <cuda_runtime_api.h>

#include "cuda/dynamics/CudaSystemProgram.cuh"
#include "cuda/dynamics/StepSelection.h"
#include "math/Fire2Update.h"
#include "math/FireUpdate.h"

namespace hookmd::kernel {

/** What every minimizer step reads and writes. */
struct MinimizerArrays {
  SystemLayout layout;
  SystemSelection selection;
  double* d_positions;
  /** The optimizer's own velocities (cuda/dynamics/CudaAtomRows.h), indexed as the batch's atoms; null when it keeps none. */
  double* d_velocities;
  const double* d_forces;
  /** The batch's velocities, which every step holds at zero for the systems it updates (dynamics/Optimizer.h). */
  double* d_batchVelocities;
};

struct FireStepArgs {
  MinimizerArrays arrays;
  const FireParameters* d_parameters;
  /** numSystems rows of Fire's state (dt, α, nSteps, first). */
  double* d_rows;
};

struct Fire2StepArgs {
  MinimizerArrays arrays;
  const Fire2Parameters* d_parameters;
  /** numSystems rows of Fire2's state (dt, α, nPositive, steps). */
  double* d_rows;
};

struct GradientDescentStepArgs {
  MinimizerArrays arrays;
  const double* d_stepSize;
  const double* d_maxStep;
};

cudaError_t fireStep(const FireStepArgs& args);
cudaError_t fire2Step(const Fire2StepArgs& args);
/** Keeps no velocities of its own (arrays.d_velocities may be null). */
cudaError_t gradientDescentStep(const GradientDescentStepArgs& args);

}  // namespace hookmd::kernel
