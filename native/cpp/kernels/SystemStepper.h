// An integrator's step of one system, as the CPU small-system path takes it (kernels/SmallSystemKernel.h):
// the same update as its preUpdate and postUpdate over the batch, on copies of one system's atoms that stay
// in cache for a whole chunk of steps. CPU integrators that offer it (FIRE, FIRE2, gradient descent,
// VelocityVerlet, Langevin) inherit this next to Integrator.
#pragma once

#include <cstdint>

namespace hookmd {

/** One system's atoms: `count` rows of positions, velocities and forces (3 each), and masses. */
struct SystemAtoms {
  double* x;
  double* v;
  double* f;
  const double* m;
  std::int32_t count;
  /** The system's stable id (Langevin keys its noise on it). */
  std::int32_t systemId;
};

class SystemStepper {
 public:
  virtual ~SystemStepper() = default;
  /**
   * Before a chunk, on the batch layout `ptr` of `numSystems` systems: the preUpdate checks (the per-system
   * parameters and state cover them), and per-atom state sized as preUpdate sizes it.
   */
  virtual void prepareSystems(const std::int32_t* ptr, std::int64_t numSystems) = 0;
  /** System s's preUpdate at `step`; `forceToAccel` and `kB` are the batch's units. */
  virtual void beforeForces(std::int64_t s, const SystemAtoms& atoms, std::int64_t step, double forceToAccel, double kB) = 0;
  /** System s's postUpdate, with the forces of the new positions. */
  virtual void afterForces(std::int64_t, const SystemAtoms&, double) {}
};

}  // namespace hookmd
