// The minimizer steps as per-system programs (CudaSystemProgram.cu.inc). Each pass mirrors one loop of the
// CPU reference, each finish() the per-system code between two loops, calling the same HD functions; only
// the order of the sums differs (a fixed tree instead of atom order).
#include "cuda/dynamics/CudaMinimizerSteps.cuh"

#include <cmath>

#include "cuda/dynamics/CudaSystemProgram.cu.inc"
#include "math/CappedStep.h"
#include "math/Reductions.h"

namespace hookmd::kernel {

namespace {

constexpr int kFireWidth = 4;

/** The batch velocity of atom i: an optimizer's step leaves it at rest. */
__device__ __forceinline__ void storeZero3(double* velocities, std::int64_t i) {
  const double zero[3] = {0.0, 0.0, 0.0};
  store3(velocities, i, zero);
}

/** Adds one atom's F·v, F·F and v·v to sums[0..2] through accumulatePower. */
__device__ __forceinline__ void addPower(double* sums, const double* velocity, const double* force) {
  FirePower power{sums[0], sums[1], sums[2]};
  accumulatePower(power, velocity, force);
  sums[0] = power.vf;
  sums[1] = power.ff;
  sums[2] = power.vv;
}

// dynamics/Fire.cpp: power (pass 0), fireAdvance, kick and |dr|² (pass 1), |dr|, capped step (pass 2).
struct FireProgram {
  MinimizerArrays a;
  const FireParameters* parameters;
  double* rows;

  struct System {
    FireMixing mixing;
    double dt;
    double maxStep;
    double stepNorm;
    bool first;
  };
  static constexpr int kPasses = 3;
  __host__ __device__ static constexpr int sums(int pass) { return pass == 0 ? 3 : (pass == 1 ? 1 : 0); }

  __device__ bool start(std::int64_t s, System& system) const {
    if (!a.selection.updates(s)) return false;
    system.first = rows[kFireWidth * s + 3] != 0.0;
    return true;
  }

  __device__ void atom(int pass, std::int64_t i, const System& system, double* sums) const {
    double v[3], f[3];
    load3(a.d_velocities, i, v);
    if (pass < 2) load3(a.d_forces, i, f);
    if (pass == 0) {
      // The first step zeroes the velocities and ignores the power, as the CPU loop skips it.
      if (!system.first) addPower(sums, v, f);
    } else if (pass == 1) {
      fireKick(v, f, system.mixing, system.dt);
      sums[0] += stepSquaredNorm(v, system.dt);
      store3(a.d_velocities, i, v);
    } else {
      double x[3];
      load3(a.d_positions, i, x);
      applyCappedStep(x, v, system.dt, system.stepNorm, system.maxStep);
      store3(a.d_positions, i, x);
      storeZero3(a.d_batchVelocities, i);
    }
  }

  __device__ void finish(int pass, std::int64_t s, const double* sums, System& system) const {
    if (pass == 0) {
      double* row = rows + kFireWidth * s;
      FireState state{row[0], row[1], row[2], row[3]};
      const FirePower power{sums[0], sums[1], sums[2]};
      const FireParameters& p = parameters[s];
      system.mixing = fireAdvance(state, p, power);
      row[0] = state.dt;
      row[1] = state.alpha;
      row[2] = state.nSteps;
      row[3] = state.first;
      system.dt = state.dt;
      system.maxStep = p.maxStep;
    } else {
      system.stepNorm = sqrt(sums[0]);
    }
  }
};

// dynamics/Fire2.cpp: P and |F| (pass 0), fire2Advance, reset and kick and |v|² (pass 1), mixing and |dr|²
// (pass 2), capped step with matching velocities (pass 3).
struct Fire2Program {
  MinimizerArrays a;
  const Fire2Parameters* parameters;
  double* rows;

  struct System {
    Fire2Reset reset;
    double dt;
    double alpha;
    double maxStep;
    double forceNorm;
    double speedNorm;
    double stepNorm;
  };
  static constexpr int kPasses = 4;
  __host__ __device__ static constexpr int sums(int pass) { return pass == 0 ? 2 : (pass < 3 ? 1 : 0); }

  __device__ bool start(std::int64_t s, System&) const { return a.selection.updates(s); }

  __device__ void atom(int pass, std::int64_t i, const System& system, double* sums) const {
    double v[3], f[3];
    load3(a.d_velocities, i, v);
    if (pass < 3) load3(a.d_forces, i, f);
    if (pass == 0) {
      double power[3] = {sums[0], sums[1], 0.0};
      addPower(power, v, f);
      sums[0] = power[0];
      sums[1] = power[1];
    } else if (pass == 1) {
      // Only the inertia correction moves the positions in this pass.
      const bool stepBack = system.reset == Fire2Reset::StepBackAndZero;
      double x[3] = {0.0, 0.0, 0.0};
      if (stepBack) load3(a.d_positions, i, x);
      fire2Kick(x, v, f, system.reset, system.dt);
      if (stepBack) store3(a.d_positions, i, x);
      sums[0] += squaredNorm3(v);
      store3(a.d_velocities, i, v);
    } else if (pass == 2) {
      // F = 0 means P = 0, so the velocities were just reset to zero and there is nothing to mix.
      if (system.forceNorm > 0.0) mixVelocity(v, f, system.alpha, system.forceNorm, system.speedNorm);
      sums[0] += stepSquaredNorm(v, system.dt);
      store3(a.d_velocities, i, v);
    } else {
      double x[3];
      load3(a.d_positions, i, x);
      applyCappedStep(x, v, system.dt, system.stepNorm, system.maxStep);
      fire2MatchVelocity(v, system.stepNorm, system.maxStep);
      store3(a.d_positions, i, x);
      store3(a.d_velocities, i, v);
      storeZero3(a.d_batchVelocities, i);
    }
  }

  __device__ void finish(int pass, std::int64_t s, const double* sums, System& system) const {
    if (pass == 0) {
      double* row = rows + kFireWidth * s;
      Fire2State state{row[0], row[1], row[2], row[3]};
      const Fire2Parameters& p = parameters[s];
      system.reset = fire2Advance(state, p, sums[0]);
      row[0] = state.dt;
      row[1] = state.alpha;
      row[2] = state.nPositive;
      row[3] = state.steps;
      system.dt = state.dt;
      system.alpha = state.alpha;
      system.maxStep = p.maxStep;
      system.forceNorm = sqrt(sums[1]);
    } else if (pass == 1) {
      system.speedNorm = sqrt(sums[0]);
    } else {
      system.stepNorm = sqrt(sums[0]);
    }
  }
};

// dynamics/GradientDescent.cpp: |dr|² of stepSize·F (pass 0), capped step (pass 1).
struct GradientDescentProgram {
  MinimizerArrays a;
  const double* stepSize;
  const double* maxStep;

  struct System {
    double stepSize;
    double maxStep;
    double stepNorm;
  };
  static constexpr int kPasses = 2;
  __host__ __device__ static constexpr int sums(int pass) { return pass == 0 ? 1 : 0; }

  __device__ bool start(std::int64_t s, System& system) const {
    if (!a.selection.updates(s)) return false;
    system.stepSize = stepSize[s];
    system.maxStep = maxStep[s];
    return true;
  }

  __device__ void atom(int pass, std::int64_t i, const System& system, double* sums) const {
    double f[3];
    load3(a.d_forces, i, f);
    if (pass == 0) {
      sums[0] += stepSquaredNorm(f, system.stepSize);
    } else {
      double x[3];
      load3(a.d_positions, i, x);
      applyCappedStep(x, f, system.stepSize, system.stepNorm, system.maxStep);
      store3(a.d_positions, i, x);
      storeZero3(a.d_batchVelocities, i);
    }
  }

  __device__ void finish(int, std::int64_t, const double* sums, System& system) const { system.stepNorm = sqrt(sums[0]); }
};

}  // namespace

cudaError_t fireStep(const FireStepArgs& args) {
  return runProgram(FireProgram{args.arrays, args.d_parameters, args.d_rows}, args.arrays.layout);
}

cudaError_t fire2Step(const Fire2StepArgs& args) {
  return runProgram(Fire2Program{args.arrays, args.d_parameters, args.d_rows}, args.arrays.layout);
}

cudaError_t gradientDescentStep(const GradientDescentStepArgs& args) {
  return runProgram(GradientDescentProgram{args.arrays, args.d_stepSize, args.d_maxStep}, args.arrays.layout);
}

}  // namespace hookmd::kernel
