// The Nosé–Hoover chain phases as per-system programs (CudaSystemProgram.cu.inc): pass 0 sums the kinetic
// energy, finish() advances the system's chain by dt/2 (one thread, the chain is a few scalars), and pass 1
// scales the velocities. The per-atom and per-chain math is math/NoseHooverChainUpdate.h, as on the CPU.
#include "cuda/dynamics/CudaNoseHooverSteps.cuh"

#include <cmath>

#include "cuda/dynamics/CudaSystemProgram.cu.inc"
#include "math/DegreesOfFreedom.h"
#include "math/NoseHooverChainUpdate.h"
#include "math/Reductions.h"
#include "math/VelocityVerletUpdate.h"

namespace hookmd::kernel {

namespace {

/**
 * NoseHooverChain::chainHalfSteps for system s with kinetic energy `kinetic`: advances the chain stored in
 * its row and returns the velocity scale factor.
 */
__device__ double chainHalfSteps(const NoseHooverArgs& a, std::int64_t s, double kinetic) {
  const ChainSystem system = a.d_systems[s];
  const int length = a.chainLength;
  const double dof = degreesOfFreedom(a.layout.d_ptr[s + 1] - a.layout.d_ptr[s], a.d_frozen == nullptr ? 0 : a.d_frozen[s]);
  const ChainConstants constants = chainConstants(dof, a.kB * system.temperature, system.tdamp, system.dt);
  double* row = a.d_rows + static_cast<std::int64_t>(2 * length + 1) * s;
  const double scale = chainHalfStep(row, row + length, length, 2.0 * kinetic, constants);
  row[2 * length] = chainEnergy(row, row + length, length, constants);
  return scale;
}

struct ChainSystemValues {
  double dt;
  double scale;
};

// preUpdate: kinetic energy (pass 0), chain half step, then scale, half kick and drift (pass 1).
struct NoseHooverPreProgram {
  NoseHooverArgs a;
  using System = ChainSystemValues;
  static constexpr int kPasses = 2;
  __host__ __device__ static constexpr int sums(int pass) { return pass == 0 ? 1 : 0; }

  __device__ bool start(std::int64_t s, System& system) const {
    if (!a.selection.updates(s)) return false;
    system.dt = a.d_systems[s].dt;
    return true;
  }

  __device__ void atom(int pass, std::int64_t i, const System& system, double* sums) const {
    double v[3];
    load3(a.d_velocities, i, v);
    const double mass = a.d_masses[i];
    if (pass == 0) {
      sums[0] += atomKineticEnergy(mass, v, a.forceToAccel);
      return;
    }
    double x[3], f[3];
    load3(a.d_positions, i, x);
    load3(a.d_forces, i, f);
    scaleVelocity(v, system.scale);
    halfKick(v, f, a.forceToAccel / mass, 0.5 * system.dt);
    drift(x, v, system.dt);
    store3(a.d_positions, i, x);
    store3(a.d_velocities, i, v);
  }

  __device__ void finish(int, std::int64_t s, const double* sums, System& system) const {
    system.scale = chainHalfSteps(a, s, sums[0]);
  }
};

// postUpdate: half kick and kinetic energy (pass 0), chain half step, then scale (pass 1).
struct NoseHooverPostProgram {
  NoseHooverArgs a;
  using System = ChainSystemValues;
  static constexpr int kPasses = 2;
  __host__ __device__ static constexpr int sums(int pass) { return pass == 0 ? 1 : 0; }

  __device__ bool start(std::int64_t s, System& system) const {
    if (!a.selection.updates(s)) return false;
    system.dt = a.d_systems[s].dt;
    return true;
  }

  __device__ void atom(int pass, std::int64_t i, const System& system, double* sums) const {
    double v[3];
    load3(a.d_velocities, i, v);
    if (pass == 0) {
      const double mass = a.d_masses[i];
      double f[3];
      load3(a.d_forces, i, f);
      halfKick(v, f, a.forceToAccel / mass, 0.5 * system.dt);
      sums[0] += atomKineticEnergy(mass, v, a.forceToAccel);
    } else {
      scaleVelocity(v, system.scale);
    }
    store3(a.d_velocities, i, v);
  }

  __device__ void finish(int, std::int64_t s, const double* sums, System& system) const {
    system.scale = chainHalfSteps(a, s, sums[0]);
  }
};

}  // namespace

cudaError_t noseHooverPre(const NoseHooverArgs& args) { return runProgram(NoseHooverPreProgram{args}, args.layout); }

cudaError_t noseHooverPost(const NoseHooverArgs& args) { return runProgram(NoseHooverPostProgram{args}, args.layout); }

}  // namespace hookmd::kernel
