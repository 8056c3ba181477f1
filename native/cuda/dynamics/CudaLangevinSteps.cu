// dynamics/Langevin.cpp's preUpdate as a per-system program (CudaSystemProgram.cu.inc): the system's mass
// (pass 0); B, A and O per atom with the noise's momentum summed (pass 1); then the noise's drift removed and
// the second A (pass 2). The per-atom math is the CPU's; only the order of the sums differs (a fixed tree).
#include "cuda/dynamics/CudaLangevinSteps.cuh"

#include <cmath>

#include "cuda/dynamics/CudaSystemProgram.cu.inc"
#include "math/CounterRandom.h"
#include "math/LangevinUpdate.h"
#include "math/VelocityVerletUpdate.h"

namespace hookmd::kernel {

namespace {

struct LangevinProgram {
  LangevinArgs a;

  struct System {
    LangevinSystem thermostat;
    double dt;
    double mass;
    double drift[3];
    std::int64_t firstAtom;
    std::uint32_t systemId;
    bool momentumFree;
  };
  static constexpr int kPasses = 3;
  __host__ __device__ static constexpr int sums(int pass) { return pass == 0 ? 1 : (pass == 1 ? 3 : 0); }

  __device__ bool start(std::int64_t s, System& system) const {
    if (!a.selection.updates(s)) return false;
    system.thermostat = a.d_systems[s];
    system.dt = a.d_dt[s];
    system.firstAtom = a.layout.d_ptr[s];
    system.systemId = static_cast<std::uint32_t>(a.d_systemId[s]);
    system.momentumFree = a.d_frozen == nullptr || a.d_frozen[s] == 0;
    return true;
  }

  __device__ void atom(int pass, std::int64_t i, const System& system, double* sums) const {
    const double mass = a.d_masses[i];
    if (pass == 0) {
      sums[0] += mass;
      return;
    }
    double x[3], v[3];
    load3(a.d_positions, i, x);
    load3(a.d_velocities, i, v);
    if (pass == 1) {
      double f[3];
      load3(a.d_forces, i, f);
      halfKick(v, f, a.forceToAccel / mass, 0.5 * system.dt);
      drift(x, v, 0.5 * system.dt);
      double noise[3];
      atomGaussian3(system.thermostat.seed, system.systemId, a.step, static_cast<std::uint32_t>(i - system.firstAtom), noise);
      const double kick = system.thermostat.c2 * thermalSpeed(a.kB * system.thermostat.temperature, a.forceToAccel, mass);
      ornsteinUhlenbeck(v, system.thermostat.c1, kick, noise);
      for (int c = 0; c < 3; ++c) sums[c] += mass * kick * noise[c];
    } else {
      for (int c = 0; c < 3; ++c) v[c] -= system.drift[c];
      drift(x, v, 0.5 * system.dt);
    }
    store3(a.d_positions, i, x);
    store3(a.d_velocities, i, v);
  }

  __device__ void finish(int pass, std::int64_t, const double* sums, System& system) const {
    if (pass == 0) {
      system.mass = sums[0];
      return;
    }
    const bool remove = system.momentumFree && system.mass > 0.0;
    for (int c = 0; c < 3; ++c) system.drift[c] = remove ? sums[c] / system.mass : 0.0;
  }
};

}  // namespace

cudaError_t langevinBaoab(const LangevinArgs& args) { return runProgram(LangevinProgram{args}, args.layout); }

}  // namespace hookmd::kernel
