// The GPU small-system kernel (CudaSmallSystems.cuh): one group of lanes per free cluster runs a whole chunk
// of steps. Each step is the CPU reference's (cpu/CpuSmallSystemKernel): the integrator's update, all pairs,
// the post-force update, the convergence checks, through the same HD functions; only the sums over a
// system's atoms differ, as fixed xor-shuffle trees instead of atom order.
#include "cuda/dynamics/CudaSmallSystems.cuh"

#include "cuda/core/CudaLaunch.cuh"
#include "cuda/dynamics/CudaLangevinSteps.cuh"
#include "math/CappedStep.h"
#include "math/CounterRandom.h"
#include "math/DegreesOfFreedom.h"
#include "math/Fire2Update.h"
#include "math/FireUpdate.h"
#include "math/LangevinUpdate.h"
#include "math/PairEvaluators.h"
#include "math/Reductions.h"
#include "math/VelocityVerletUpdate.h"

namespace hookmd::kernel {

namespace {

constexpr int kBlock = 128;
/** Bits of a chunk's step count in SmallFlags::firstNonFinite (chunks are at most 1,024 steps). */
constexpr int kStepBits = 20;

/** The G lanes of one system inside a warp: shuffles and reductions stay within them. */
template <int G>
struct Group {
  unsigned mask;
  int lane;

  __device__ Group() {
    const int warpLane = static_cast<int>(threadIdx.x & 31u);
    lane = warpLane % G;
    mask = G == 32 ? 0xffffffffu : ((1u << G) - 1u) << (warpLane / G * G);
  }
  /** The sum over the group, in one fixed tree: every lane gets the same bits, on every run. */
  __device__ double sum(double value) const {
    for (int offset = G / 2; offset > 0; offset >>= 1) value += __shfl_xor_sync(mask, value, offset, G);
    return value;
  }
  /** The largest value over the group (a lane with −∞ takes no part). */
  __device__ double largest(double value) const {
    for (int offset = G / 2; offset > 0; offset >>= 1) {
      const double other = __shfl_xor_sync(mask, value, offset, G);
      value = other > value ? other : value;
    }
    return value;
  }
  __device__ bool all(bool value) const { return __all_sync(mask, value) != 0; }
  template <typename T>
  __device__ T from(T value, int source) const {
    return __shfl_sync(mask, value, source, G);
  }
};

__device__ bool due(const SmallCheck& check, std::int64_t step) {
  return step >= check.phase && (step - check.phase) % check.frequency == 0;
}

/** math/CriterionValue.h for one system spread over the group's lanes (`atom`: this lane holds atom `lane`). */
template <int G>
__device__ double criterionValue(const Group<G>& g, const SmallCriterion& c, bool atom, const double* f, const double* v, double mass,
                                 int count, double energy, double forceToAccel, double kB) {
  if (c.key == 0 || c.key == 1) {
    const double* values = c.key == 0 ? f : v;
    if (count == 0) return 0.0;
    if (c.op == 6) return sqrt(g.sum(atom ? reduceAtomValue(4, values, 3) : 0.0));
    const double value = c.op == 4 ? reduceAtomValue(3, values, 3) : entryReduce(c.op == 5 ? 3 : c.op, values, 3);
    return g.largest(atom ? value : -INFINITY);
  }
  if (c.key == 2) return energy;
  const double kinetic = g.sum(atom ? atomKineticEnergy(mass, v, forceToAccel) : 0.0);
  if (c.key == 4) return kinetic;
  // The small-system path runs no native hook, so no atom is frozen.
  const double dof = degreesOfFreedom(count, 0);
  return dof > 0.0 ? 2.0 * kinetic / (dof * kB) : 0.0;
}

/** One pair of the table: energy and fOverR, false at or beyond the cutoff. */
__device__ bool pairTerm(const SmallSystemArgs& a, int pair, double r2, double& fOverR, double& energy) {
  bool inside = false;
  switch (static_cast<PairEvaluator>(a.evaluator)) {
#define HOOKMD_PAIR_TERM(Name)                                                                                 \
  case PairEvaluator::Name:                                                                                    \
    inside = Name##Eval::evaluate(static_cast<const Name##Eval::Params*>(a.d_params)[pair], r2, fOverR, energy); \
    break;
    HOOKMD_PAIR_EVALUATORS(HOOKMD_PAIR_TERM)
#undef HOOKMD_PAIR_TERM
  }
  if (inside && a.d_switches != nullptr) applySwitch(a.d_switches[pair], r2, energy, fOverR);
  return inside;
}

template <SmallIntegrator I, int G>
__global__ void __launch_bounds__(kBlock) smallSystems(SmallSystemArgs a) {
  const Group<G> g;
  const std::int64_t s = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / G;
  if (s >= a.numSystems) return;
  const int lane = g.lane;
  const std::int64_t begin = a.d_ptr[s];
  const int count = a.d_ptr[s + 1] - a.d_ptr[s];
  const bool atom = lane < count;
  std::int32_t status = a.d_status[s];
  if (status >= a.exitStatus) {
    if (lane == 0) a.d_convergedAt[s] = -1;
    return;
  }
  // An optimizer steps its own velocities (none for gradient descent) and holds the batch's at zero.
  constexpr bool kOptimizer = I == SmallIntegrator::Fire || I == SmallIntegrator::Fire2 || I == SmallIntegrator::GradientDescent;
  // What the convergence checks read as the batch velocities of an optimizer's systems.
  const double kAtRest[3] = {0.0, 0.0, 0.0};
  double* velocities = kOptimizer ? a.integrator.d_optimizerVelocities : a.d_velocities;
  double x[3] = {0.0, 0.0, 0.0}, v[3] = {0.0, 0.0, 0.0}, f[3] = {0.0, 0.0, 0.0};
  if (atom) {
    for (int c = 0; c < 3; ++c) {
      x[c] = a.d_positions[3 * (begin + lane) + c];
      if (velocities != nullptr) v[c] = velocities[3 * (begin + lane) + c];
      f[c] = a.d_forces[3 * (begin + lane) + c];
    }
  }
  const double mass = atom ? a.d_masses[begin + lane] : 1.0;
  const int type = a.d_types != nullptr && atom ? a.d_types[begin + lane] : 0;
  const double accel = a.forceToAccel / mass;
  double energy = a.d_energy[s];
  double* row = a.integrator.d_rows != nullptr ? a.integrator.d_rows + 4 * s : nullptr;
  double state[4] = {0.0, 0.0, 0.0, 0.0};
  if (row != nullptr) {
    for (int k = 0; k < 4; ++k) state[k] = row[k];
  }
  const double dt = a.integrator.d_dt != nullptr ? a.integrator.d_dt[s] : 0.0;

  std::int64_t taken = a.steps;
  std::int64_t convergedAt = -1;
  bool stopped = false;
  for (std::int64_t k = 0; k < a.steps; ++k) {
    const std::int64_t step = a.firstStep + k;
    // The integrator's preUpdate (dynamics/Fire.cpp, Fire2.cpp, GradientDescent.cpp, VelocityVerlet.cpp, Langevin.cpp).
    if constexpr (I == SmallIntegrator::Fire) {
      const FireParameters& p = static_cast<const FireParameters*>(a.integrator.d_parameters)[s];
      FireState st{state[0], state[1], state[2], state[3]};
      FirePower power;
      if (st.first == 0.0) {
        FirePower own;
        if (atom) accumulatePower(own, v, f);
        power.vf = g.sum(own.vf);
        power.ff = g.sum(own.ff);
        power.vv = g.sum(own.vv);
      }
      const FireMixing mixing = fireAdvance(st, p, power);
      double squared = 0.0;
      if (atom) {
        fireKick(v, f, mixing, st.dt);
        squared = stepSquaredNorm(v, st.dt);
      }
      const double stepNorm = sqrt(g.sum(squared));
      if (atom) applyCappedStep(x, v, st.dt, stepNorm, p.maxStep);
      state[0] = st.dt;
      state[1] = st.alpha;
      state[2] = st.nSteps;
      state[3] = st.first;
    } else if constexpr (I == SmallIntegrator::Fire2) {
      const Fire2Parameters& p = static_cast<const Fire2Parameters*>(a.integrator.d_parameters)[s];
      Fire2State st{state[0], state[1], state[2], state[3]};
      FirePower own;
      if (atom) accumulatePower(own, v, f);
      const double vf = g.sum(own.vf);
      const double ff = g.sum(own.ff);
      const Fire2Reset reset = fire2Advance(st, p, vf);
      if (atom) fire2Kick(x, v, f, reset, st.dt);
      const double forceNorm = sqrt(ff);
      const double speedNorm = sqrt(g.sum(atom ? squaredNorm3(v) : 0.0));
      if (atom && forceNorm > 0.0) mixVelocity(v, f, st.alpha, forceNorm, speedNorm);
      const double stepNorm = sqrt(g.sum(atom ? stepSquaredNorm(v, st.dt) : 0.0));
      if (atom) {
        applyCappedStep(x, v, st.dt, stepNorm, p.maxStep);
        fire2MatchVelocity(v, stepNorm, p.maxStep);
      }
      state[0] = st.dt;
      state[1] = st.alpha;
      state[2] = st.nPositive;
      state[3] = st.steps;
    } else if constexpr (I == SmallIntegrator::GradientDescent) {
      const double maxStep = a.integrator.d_maxStep[s];
      const double stepNorm = sqrt(g.sum(atom ? stepSquaredNorm(f, dt) : 0.0));
      if (atom) applyCappedStep(x, f, dt, stepNorm, maxStep);
    } else if constexpr (I == SmallIntegrator::VelocityVerlet) {
      if (atom) {
        halfKick(v, f, accel, 0.5 * dt);
        drift(x, v, dt);
      }
    } else {
      // dynamics/Langevin.cpp: B, A, O; the noise made momentum-free (no atom is frozen on this path); A.
      const LangevinSystem& system = static_cast<const LangevinSystem*>(a.integrator.d_parameters)[s];
      double momentum[3] = {0.0, 0.0, 0.0};
      if (atom) {
        halfKick(v, f, accel, 0.5 * dt);
        drift(x, v, 0.5 * dt);
        double noise[3];
        atomGaussian3(system.seed, static_cast<std::uint32_t>(a.d_systemId[s]), step, static_cast<std::uint32_t>(lane), noise);
        const double kick = system.c2 * thermalSpeed(a.kB * system.temperature, a.forceToAccel, mass);
        ornsteinUhlenbeck(v, system.c1, kick, noise);
        for (int c = 0; c < 3; ++c) momentum[c] = mass * kick * noise[c];
      }
      const double systemMass = g.sum(atom ? mass : 0.0);
      double driftVelocity[3];
      for (int c = 0; c < 3; ++c) {
        const double total = g.sum(momentum[c]);
        driftVelocity[c] = systemMass > 0.0 ? total / systemMass : 0.0;
      }
      if (atom) {
        for (int c = 0; c < 3; ++c) v[c] -= driftVelocity[c];
        drift(x, v, 0.5 * dt);
      }
    }
    if (!g.all(!atom || (isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2])))) {
      stopped = true;
      taken = k + 1;
      break;
    }

    // Every pair: this lane's atom against every other, its half of each pair energy.
    double fi[3] = {0.0, 0.0, 0.0};
    double half = 0.0;
    for (int j = 0; j < count; ++j) {
      const double xj[3] = {g.from(x[0], j), g.from(x[1], j), g.from(x[2], j)};
      const int typeJ = g.from(type, j);
      if (!atom || j == lane) continue;
      const double d[3] = {xj[0] - x[0], xj[1] - x[1], xj[2] - x[2]};
      const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      double fOverR;
      double e;
      if (!pairTerm(a, a.numTypes == 1 ? 0 : type * a.numTypes + typeJ, r2, fOverR, e)) continue;
      for (int c = 0; c < 3; ++c) fi[c] -= fOverR * d[c];
      half += 0.5 * e;
    }
    for (int c = 0; c < 3; ++c) f[c] = fi[c];
    energy = g.sum(half);
    if (!isfinite(energy)) {
      stopped = true;
      taken = k + 1;
      break;
    }
    if constexpr (I == SmallIntegrator::VelocityVerlet || I == SmallIntegrator::Langevin) {
      if (atom) halfKick(v, f, accel, 0.5 * dt);
    }

    for (int c = 0; c < a.numChecks; ++c) {
      const SmallCheck check = a.d_checks[c];
      if (status != check.source || !due(check, step)) continue;
      bool meets = true;
      for (int k2 = check.first; k2 < check.first + check.count; ++k2) {
        const SmallCriterion criterion = a.d_criteria[k2];
        const double value = criterionValue(g, criterion, atom, f, kOptimizer ? kAtRest : v, mass, count, energy, a.forceToAccel, a.kB);
        meets = meets && value <= criterion.threshold;
      }
      if (meets) {
        status = check.target;
        convergedAt = step;
      }
    }
    if (status >= a.exitStatus) {
      taken = k + 1;
      break;
    }
  }

  if (atom) {
    for (int c = 0; c < 3; ++c) {
      a.d_positions[3 * (begin + lane) + c] = x[c];
      if (velocities != nullptr) velocities[3 * (begin + lane) + c] = v[c];
      if (kOptimizer) a.d_velocities[3 * (begin + lane) + c] = 0.0;
      a.d_forces[3 * (begin + lane) + c] = f[c];
    }
  }
  if (lane != 0) return;
  if (row != nullptr) {
    for (int k = 0; k < 4; ++k) row[k] = state[k];
  }
  a.d_energy[s] = energy;
  a.d_status[s] = status;
  a.d_convergedAt[s] = convergedAt;
  atomicMax(&a.d_flags->steps, static_cast<unsigned long long>(taken));
  if (status < a.exitStatus) atomicAdd(&a.d_flags->active, 1ull);
  if (convergedAt >= 0) atomicAdd(&a.d_flags->converged, 1ull);
  if (stopped) {
    atomicMax(&a.d_flags->firstNonFinite,
              (static_cast<unsigned long long>(a.numSystems - s) << kStepBits) | static_cast<unsigned long long>(taken));
  }
}

template <SmallIntegrator I>
cudaError_t launchFor(const SmallSystemArgs& a) {
  const auto threads = a.numSystems * a.lanes;
  const auto blocks = static_cast<unsigned int>((threads + kBlock - 1) / kBlock);
  if (a.lanes == 16) return device::launch(smallSystems<I, 16>, blocks, kBlock, 0, a);
  return device::launch(smallSystems<I, 32>, blocks, kBlock, 0, a);
}

}  // namespace

cudaError_t runSmallSystems(const SmallSystemArgs& a) {
  cudaError_t status = device::memsetAsync(a.d_flags, 0, sizeof(SmallFlags));
  if (status != cudaSuccess || a.numSystems == 0) return status;
  switch (a.integrator.type) {
    case SmallIntegrator::Fire: return launchFor<SmallIntegrator::Fire>(a);
    case SmallIntegrator::Fire2: return launchFor<SmallIntegrator::Fire2>(a);
    case SmallIntegrator::GradientDescent: return launchFor<SmallIntegrator::GradientDescent>(a);
    case SmallIntegrator::VelocityVerlet: return launchFor<SmallIntegrator::VelocityVerlet>(a);
    case SmallIntegrator::Langevin: return launchFor<SmallIntegrator::Langevin>(a);
  }
  return cudaErrorInvalidValue;
}

}  // namespace hookmd::kernel
