// Launcher of the GPU small-system path (kernels/SmallSystemKernel.h, docs/dynamics.md "Small systems"):
// one group of 16 or 32 lanes per free cluster, one atom per lane, the atoms' positions, velocities and
// forces in registers for a whole chunk of steps; all pairs by shuffles, the integrator step and the
// convergence checks from the shared HD functions of native/cpp/math, sums as fixed xor-shuffle trees (the
// same bits on every run). Declarations only; the kernel lives in CudaSmallSystems.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/SmallSystemKernel.h"
#include "math/SmoothSwitch.h"

namespace hookmd::kernel {

/** The integrator steps the small-system kernel takes. */
enum class SmallIntegrator : int { Fire = 0, Fire2, GradientDescent, VelocityVerlet, Langevin };

/** An integrator's per-system tables on the device (its CUDA class's own buffers). */
struct SmallIntegratorArgs {
  SmallIntegrator type;
  /** FireParameters, Fire2Parameters or LangevinSystem per system; null otherwise. */
  const void* d_parameters;
  /** FIRE and FIRE2 state rows (4 doubles per system); null otherwise. */
  double* d_rows;
  /** The time step per system (VelocityVerlet, Langevin) or the step size (gradient descent). */
  const double* d_dt;
  /** Gradient descent's cap on a system's step. */
  const double* d_maxStep;
  /**
   * FIRE's and FIRE2's own velocities, indexed as the batch's (dynamics/Optimizer.h); null otherwise. An
   * optimizer holds the batch velocities of the systems it steps at zero.
   */
  double* d_optimizerVelocities;
};

/** What the host reads back after a chunk (the flag block); zeroed before the launch. */
struct SmallFlags {
  /** The most steps a system took (unsigned for atomicMax). */
  unsigned long long steps;
  unsigned long long active;
  unsigned long long converged;
  /**
   * max over stopped systems of ((numSystems − system) << 20) | the steps it took: the first stopped system
   * and its step; 0 for none.
   */
  unsigned long long firstNonFinite;
  unsigned long long unused;
};

struct SmallSystemArgs {
  std::int64_t numSystems;
  const std::int32_t* d_ptr;
  double* d_positions;
  double* d_velocities;
  double* d_forces;
  const double* d_masses;
  double* d_energy;
  std::int32_t* d_status;
  const std::int32_t* d_systemId;
  /** A PairEvaluator as int, the species count and the numTypes² tables (switches may be null). */
  int evaluator;
  int numTypes;
  const void* d_params;
  const SwitchParams* d_switches;
  /** Per atom (null with one species). */
  const std::uint8_t* d_types;
  SmallIntegratorArgs integrator;
  const SmallCriterion* d_criteria;
  const SmallCheck* d_checks;
  int numChecks;
  std::int64_t firstStep;
  std::int64_t steps;
  std::int32_t exitStatus;
  double forceToAccel;
  double kB;
  /** Lanes per system: 16 when every system has at most 16 atoms, else 32. */
  int lanes;
  SmallFlags* d_flags;
  /** Per system: the step a convergence check moved it in this chunk, else −1. */
  std::int64_t* d_convergedAt;
};

/** Runs one chunk: flag block reset (memset), then the kernel; the caller reads the flags back. */
cudaError_t runSmallSystems(const SmallSystemArgs& args);

}  // namespace hookmd::kernel
