// Prototype of the GPU design study, not part of the addon (docs/cuda.md, "Profiling on a device"; built and run
// by `scripts/gpu-check.sh proto`): whole FIRE relaxations of small clusters in one launch.
// One group of kGroup lanes per system (kGroup = 16: two systems per warp), one atom per lane, positions,
// velocities and forces in registers, all pairs (a 13-atom cluster inside a 10σ cutoff has no use for a list).
// A launch runs up to `iterations` FIRE steps per system and stops a system as soon as it converges (fmax ≤
// threshold after the step's force evaluation, as hookmd's ConvergenceHook at ON_CONVERGE), so the only
// traffic per launch is the state in and out; the host relaunches until the device counter of active systems
// is zero (or a JS hook is due). The math is hookmd's own HD code (math/FireUpdate.h, CappedStep.h,
// LennardJonesEval.h), in the order of dynamics/Fire.cpp.
//
// Build:  nvcc -O3 -std=c++17 -arch=sm_90 -Xptxas -v -I<hookmd>/native/cpp fire_lj13.cu -o fire_lj13
// Run:    ./fire_lj13 [systems=65536] [pos.bin] [ref.bin]      (GPU run + check against the host reference)
//         ./fire_lj13 --host-only [systems] [pos.bin] [ref.bin] (no GPU: host reference vs hookmd's own steps)
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "math/CappedStep.h"
#include "math/FireUpdate.h"
#include "math/LennardJonesEval.h"

using namespace hookmd;

#define CK(x)                                                                              \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__);         \
      std::exit(2);                                                                        \
    }                                                                                      \
  } while (0)

constexpr int kAtoms = 13;
constexpr int kStride = kAtoms * 3;

struct Setup {
  FireParameters fire;
  LennardJonesParams lj;
  double fmaxThreshold;
};

// ------------------------------------------------------------------------------------------------
// Device: one group of kGroup lanes per system.
// ------------------------------------------------------------------------------------------------

template <int kGroup>
__device__ __forceinline__ double groupSum(unsigned mask, double value) {
  // Fixed xor tree: the same bits on every run.
#pragma unroll
  for (int offset = kGroup / 2; offset > 0; offset >>= 1) value += __shfl_xor_sync(mask, value, offset, kGroup);
  return value;
}

template <int kGroup>
__device__ __forceinline__ double groupMax(unsigned mask, double value) {
#pragma unroll
  for (int offset = kGroup / 2; offset > 0; offset >>= 1) value = fmax(value, __shfl_xor_sync(mask, value, offset, kGroup));
  return value;
}

/** Forces on this lane's atom and its pair energy (full pairs: every pair in both atoms' sums), all pairs. */
template <int kGroup>
__device__ __forceinline__ void clusterForces(unsigned mask, int lane, bool active, const double* x, const LennardJonesParams& lj,
                                              double* f, double& energy) {
  f[0] = f[1] = f[2] = 0.0;
  energy = 0.0;
#pragma unroll
  for (int j = 0; j < kAtoms; ++j) {
    const double xj0 = __shfl_sync(mask, x[0], j, kGroup);
    const double xj1 = __shfl_sync(mask, x[1], j, kGroup);
    const double xj2 = __shfl_sync(mask, x[2], j, kGroup);
    if (!active || j == lane) continue;
    const double d[3] = {xj0 - x[0], xj1 - x[1], xj2 - x[2]};
    const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    double fOverR, pairEnergy;
    if (!LennardJonesEval::evaluate(lj, r2, fOverR, pairEnergy)) continue;
    energy += pairEnergy;
    f[0] -= fOverR * d[0];
    f[1] -= fOverR * d[1];
    f[2] -= fOverR * d[2];
  }
}

template <int kGroup>
__global__ void __launch_bounds__(128) fireClusters(int numSystems, Setup setup, int iterations, double* positions,
                                                    double* velocities, double* forces, FireState* states,
                                                    double* energies, int* status, int* convergedAt, int* stepOf,
                                                    unsigned* activeCount) {
  const int global = blockIdx.x * blockDim.x + threadIdx.x;
  const int system = global / kGroup;
  const int lane = global % kGroup;
  if (system >= numSystems) return;  // uniform per group
  const unsigned mask = kGroup == 32 ? 0xffffffffu : (0xffffu << ((threadIdx.x & 31) & ~(kGroup - 1)));
  if (status[system] != 0) return;  // converged earlier: uniform per group

  const bool active = lane < kAtoms;
  const std::int64_t base = static_cast<std::int64_t>(system) * kStride + 3 * (active ? lane : 0);
  double x[3] = {0.0, 0.0, 0.0}, v[3] = {0.0, 0.0, 0.0}, f[3] = {0.0, 0.0, 0.0};
  if (active) {
    for (int c = 0; c < 3; ++c) {
      x[c] = positions[base + c];
      v[c] = velocities[base + c];
      f[c] = forces[base + c];
    }
  }
  FireState state = states[system];
  int step = stepOf[system];
  double energy = 0.0;
  bool done = false;
  for (int it = 0; it < iterations; ++it, ++step) {
    // dynamics/Fire.cpp::stepSystem, with the sums as fixed trees over the group.
    FirePower power;
    if (state.first == 0.0) {
      FirePower mine;
      if (active) accumulatePower(mine, v, f);
      power.vf = groupSum<kGroup>(mask, mine.vf);
      power.ff = groupSum<kGroup>(mask, mine.ff);
      power.vv = groupSum<kGroup>(mask, mine.vv);
    }
    const FireMixing mixing = fireAdvance(state, setup.fire, power);
    double stepSquared = 0.0;
    if (active) {
      fireKick(v, f, mixing, state.dt);
      stepSquared = stepSquaredNorm(v, state.dt);
    }
    const double stepNorm = sqrt(groupSum<kGroup>(mask, stepSquared));
    if (active) applyCappedStep(x, v, state.dt, stepNorm, setup.fire.maxStep);
    // The step's compute, then the convergence check on the new forces.
    double pairEnergy;
    clusterForces<kGroup>(mask, lane, active, x, setup.lj, f, pairEnergy);
    energy = 0.5 * groupSum<kGroup>(mask, pairEnergy);
    const double fmaxSystem = groupMax<kGroup>(mask, active ? sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]) : 0.0);
    if (fmaxSystem <= setup.fmaxThreshold) {
      done = true;
      break;
    }
  }
  if (active) {
    for (int c = 0; c < 3; ++c) {
      positions[base + c] = x[c];
      velocities[base + c] = v[c];
      forces[base + c] = f[c];
    }
  }
  if (lane == 0) {
    states[system] = state;
    energies[system] = energy;
    stepOf[system] = done ? step + 1 : step;
    if (done) {
      status[system] = 1;
      convergedAt[system] = step;
    } else {
      atomicAdd(activeCount, 1u);  // one word back per launch tells the host whether to go on
    }
  }
}

/** The engine's compute before the first step (forces of the start positions). */
template <int kGroup>
__global__ void __launch_bounds__(128) startForces(int numSystems, Setup setup, const double* positions, double* forces,
                                                   double* energies) {
  const int global = blockIdx.x * blockDim.x + threadIdx.x;
  const int system = global / kGroup;
  const int lane = global % kGroup;
  if (system >= numSystems) return;
  const unsigned mask = kGroup == 32 ? 0xffffffffu : (0xffffu << ((threadIdx.x & 31) & ~(kGroup - 1)));
  const bool active = lane < kAtoms;
  const std::int64_t base = static_cast<std::int64_t>(system) * kStride + 3 * (active ? lane : 0);
  double x[3] = {0.0, 0.0, 0.0}, f[3];
  if (active)
    for (int c = 0; c < 3; ++c) x[c] = positions[base + c];
  double pairEnergy;
  clusterForces<kGroup>(mask, lane, active, x, setup.lj, f, pairEnergy);
  const double energy = 0.5 * groupSum<kGroup>(mask, pairEnergy);
  if (active)
    for (int c = 0; c < 3; ++c) forces[base + c] = f[c];
  if (lane == 0) energies[system] = energy;
}

// ------------------------------------------------------------------------------------------------
// Host reference: the same algorithm, serial sums in atom order (dynamics/Fire.cpp's order).
// ------------------------------------------------------------------------------------------------

static void hostForces(const double* x, const LennardJonesParams& lj, double* f, double& energy) {
  energy = 0.0;
  for (int i = 0; i < kAtoms; ++i) {
    double fi[3] = {0.0, 0.0, 0.0}, ei = 0.0;
    for (int j = 0; j < kAtoms; ++j) {
      if (j == i) continue;
      const double d[3] = {x[3 * j] - x[3 * i], x[3 * j + 1] - x[3 * i + 1], x[3 * j + 2] - x[3 * i + 2]};
      const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      double fOverR, pe;
      if (!LennardJonesEval::evaluate(lj, r2, fOverR, pe)) continue;
      ei += pe;
      for (int c = 0; c < 3; ++c) fi[c] -= fOverR * d[c];
    }
    for (int c = 0; c < 3; ++c) f[3 * i + c] = fi[c];
    energy += 0.5 * ei;
  }
}

static int hostRelax(const Setup& s, double* x, int maxSteps, double& energy) {
  double v[kStride] = {}, f[kStride];
  FireState state{0.0, 0.0, 0.0, 1.0};
  hostForces(x, s.lj, f, energy);
  for (int step = 0; step < maxSteps; ++step) {
    FirePower power;
    if (state.first == 0.0)
      for (int i = 0; i < kAtoms; ++i) accumulatePower(power, v + 3 * i, f + 3 * i);
    const FireMixing mixing = fireAdvance(state, s.fire, power);
    double stepSquared = 0.0;
    for (int i = 0; i < kAtoms; ++i) {
      fireKick(v + 3 * i, f + 3 * i, mixing, state.dt);
      stepSquared += stepSquaredNorm(v + 3 * i, state.dt);
    }
    const double stepNorm = std::sqrt(stepSquared);
    for (int i = 0; i < kAtoms; ++i) applyCappedStep(x + 3 * i, v + 3 * i, state.dt, stepNorm, s.fire.maxStep);
    hostForces(x, s.lj, f, energy);
    double fmax = 0.0;
    for (int i = 0; i < kAtoms; ++i)
      fmax = std::fmax(fmax, std::sqrt(f[3 * i] * f[3 * i] + f[3 * i + 1] * f[3 * i + 1] + f[3 * i + 2] * f[3 * i + 2]));
    if (fmax <= s.fmaxThreshold) return step;
  }
  return -1;
}

// ------------------------------------------------------------------------------------------------
// Inputs: bench/lib/systems.mjs rattledLj13 (or a file written by it).
// ------------------------------------------------------------------------------------------------

static std::vector<double> rattled(int count, double stdev, std::uint32_t seed = 2026) {
  std::uint32_t a = seed;
  auto uniform = [&]() {
    a += 0x6d2b79f5u;
    std::uint32_t t = a;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return static_cast<double>(t ^ (t >> 14)) / 4294967296.0;
  };
  const double phi = (1 + std::sqrt(5.0)) / 2, radius = std::hypot(1.0, phi), d = 1.1;
  std::vector<double> base = {0, 0, 0};
  for (int sa : {-1, 1})
    for (double b : {-phi, phi}) {
      const double vs[3][3] = {{0, double(sa), b}, {double(sa), b, 0}, {b, 0, double(sa)}};
      for (auto& vtx : vs)
        for (double c : vtx) base.push_back(c * d / radius);
    }
  std::vector<double> out(static_cast<std::size_t>(count) * kStride);
  for (int s = 0; s < count; ++s)
    for (int k = 0; k < kStride; ++k) {
      const double u = 1 - uniform(), w = uniform();
      out[static_cast<std::size_t>(s) * kStride + k] = base[k] + stdev * std::sqrt(-2 * std::log(u)) * std::cos(2 * M_PI * w);
    }
  return out;
}

static bool readFile(const char* path, std::vector<double>& out, std::size_t count) {
  FILE* file = std::fopen(path, "rb");
  if (!file) return false;
  out.resize(count);
  const std::size_t got = std::fread(out.data(), sizeof(double), count, file);
  std::fclose(file);
  return got == count;
}

int main(int argc, char** argv) {
  bool hostOnly = argc > 1 && std::strcmp(argv[1], "--host-only") == 0;
  const int shift = hostOnly ? 1 : 0;
  const int n = argc > 1 + shift ? std::atoi(argv[1 + shift]) : 65536;
  std::vector<double> x0, ref;
  if (!(argc > 2 + shift && readFile(argv[2 + shift], x0, static_cast<std::size_t>(n) * kStride))) x0 = rattled(n, 0.1);
  const bool haveRef = argc > 3 + shift && readFile(argv[3 + shift], ref, static_cast<std::size_t>(n) * 2);

  Setup setup;
  setup.fire = FireParameters{0.1, 1.0, 0.002, 0.2, 5, 1.1, 0.5, 0.1, 0.99};  // hookmd FIRE defaults (dtMin 0.02·dt)
  setup.lj = makeLennardJonesParams(1.0, 1.0, 10.0, false);
  setup.fmaxThreshold = 1e-3;
  const int maxSteps = 10000;

  // Host reference on up to 4096 systems, against hookmd's own convergence steps when given.
  const int checked = hostOnly ? n : std::min(n, 4096);
  std::vector<int> hostAt(checked);
  std::vector<double> hostEnergy(checked);
  const auto h0 = std::chrono::steady_clock::now();
  for (int s = 0; s < checked; ++s) {
    std::vector<double> x(x0.begin() + static_cast<std::ptrdiff_t>(s) * kStride, x0.begin() + static_cast<std::ptrdiff_t>(s + 1) * kStride);
    hostAt[s] = hostRelax(setup, x.data(), maxSteps, hostEnergy[s]);
  }
  const double hostSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - h0).count();
  if (haveRef) {
    int sameSteps = 0, within1 = 0;
    double worstDe = 0.0;
    for (int s = 0; s < checked; ++s) {
      const int hookmdAt = static_cast<int>(ref[2 * s]);
      sameSteps += hostAt[s] == hookmdAt;
      within1 += std::abs(hostAt[s] - hookmdAt) <= 1;
      worstDe = std::max(worstDe, std::fabs(hostEnergy[s] - ref[2 * s + 1]));
    }
    std::printf("{\"check\":\"host reference vs hookmd cpu\",\"systems\":%d,\"sameStepCount\":%d,\"within1\":%d,\"maxAbsEnergyDiff\":%.3e,\"hostSeconds\":%.3f}\n",
                checked, sameSteps, within1, worstDe, hostSeconds);
  }
  if (hostOnly) return 0;

  const std::size_t bytes = static_cast<std::size_t>(n) * kStride * sizeof(double);
  double *dX, *dV, *dF, *dE;
  FireState* dState;
  int *dStatus, *dAt, *dStep;
  unsigned* dActive;
  CK(cudaMalloc(&dX, bytes));
  CK(cudaMalloc(&dV, bytes));
  CK(cudaMalloc(&dF, bytes));
  CK(cudaMalloc(&dE, n * sizeof(double)));
  CK(cudaMalloc(&dState, n * sizeof(FireState)));
  CK(cudaMalloc(&dStatus, n * sizeof(int)));
  CK(cudaMalloc(&dAt, n * sizeof(int)));
  CK(cudaMalloc(&dStep, n * sizeof(int)));
  CK(cudaMalloc(&dActive, sizeof(unsigned)));
  std::vector<FireState> fresh(n, FireState{0.0, 0.0, 0.0, 1.0});
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (int chunk : {10000, 50, 10}) {  // iterations per launch: one launch, or a hook-sized chunk
    CK(cudaMemcpy(dX, x0.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaMemset(dV, 0, bytes));
    CK(cudaMemcpy(dState, fresh.data(), n * sizeof(FireState), cudaMemcpyHostToDevice));
    CK(cudaMemset(dStatus, 0, n * sizeof(int)));
    CK(cudaMemset(dAt, 0xff, n * sizeof(int)));
    CK(cudaMemset(dStep, 0, n * sizeof(int)));
    constexpr int kGroup = 16;
    const unsigned blocks = static_cast<unsigned>((static_cast<long long>(n) * kGroup + 127) / 128);
    CK(cudaDeviceSynchronize());
    CK(cudaEventRecord(e0));
    startForces<kGroup><<<blocks, 128>>>(n, setup, dX, dF, dE);
    int launches = 0;
    unsigned active = 1;
    for (int done = 0; active > 0 && done < maxSteps; done += chunk) {
      CK(cudaMemsetAsync(dActive, 0, sizeof(unsigned)));
      fireClusters<kGroup><<<blocks, 128>>>(n, setup, chunk, dX, dV, dF, dState, dE, dStatus, dAt, dStep, dActive);
      CK(cudaMemcpy(&active, dActive, sizeof active, cudaMemcpyDeviceToHost));  // 4 bytes and one sync per launch
      ++launches;
    }
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0.0f;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    std::vector<int> at(n);
    std::vector<double> energy(n);
    CK(cudaMemcpy(at.data(), dAt, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(energy.data(), dE, n * sizeof(double), cudaMemcpyDeviceToHost));
    int same = 0, converged = 0, maxAt = 0;
    double meanAt = 0.0, worstDe = 0.0;
    for (int s = 0; s < n; ++s) {
      converged += at[s] >= 0;
      maxAt = std::max(maxAt, at[s]);
      meanAt += at[s];
      if (s < checked) {
        same += at[s] == hostAt[s];
        worstDe = std::max(worstDe, std::fabs(energy[s] - hostEnergy[s]));
      }
    }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    std::printf("{\"gpu\":\"%s\",\"systems\":%d,\"iterationsPerLaunch\":%d,\"launches\":%d,\"ms\":%.3f,\"systemsPerSecond\":%.4g,"
                "\"converged\":%d,\"maxSteps\":%d,\"meanSteps\":%.1f,\"sameStepsAsHostRef\":%d,\"of\":%d,\"maxAbsEnergyDiff\":%.3e}\n",
                prop.name, n, chunk, launches, ms, n / (ms / 1000.0), converged, maxAt, meanAt / n, same, checked, worstDe);
  }
  return 0;
}
