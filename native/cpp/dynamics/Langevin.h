// Langevin dynamics (NVT) with the BAOAB splitting (Leimkuhler & Matthews, Appl. Math. Res. Express 2013).
// preUpdate runs B (v += dt/2·a), A (x += dt/2·v), O (v ← c1·v + c2·√(kB·T/m)·ξ), A; postUpdate runs the
// final B with the new forces. In a system without frozen atoms the O step's noise is made momentum-free
// (its mass-weighted mean is removed, LAMMPS's fix langevin `zero yes`, as ASE's Langevin fixes the centre
// of mass), so the 3N − 3 degrees of freedom of the reported temperature are the ones thermalized. ξ comes from counter-based Philox noise keyed by (seed, system id, step,
// atom index within the system), so a trajectory depends only on the seed, never on the thread count or on
// where the system sits in the batch.
//
// Parameters (one value per system): dt (time), temperature, friction γ (1/time), seed (an integer stored
// in a double, |seed| ≤ 2^53). With γ = 0 the scheme is velocity Verlet.
// state(): [numSystems, 0] — the noise is a function of the step, so there is no per-system state.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/Integrator.h"
#include "dynamics/FrozenCountsUpload.h"
#include "kernels/Parameters.h"
#include "dynamics/ProgramLayout.h"
#include "dynamics/SystemRows.h"
#include "kernels/SystemStepper.h"
#include "kernels/SmallSystemKernel.h"

namespace hookmd {

class Langevin final : public Integrator, public SystemStepper {
 public:
  Langevin(const Parameters& parameters, std::int64_t numSystems);
  const char* name() const noexcept override { return "Langevin"; }
  bool readsEnergy() const noexcept override { return false; }
  void preUpdate(const StepContext& context) override;
  void postUpdate(const StepContext& context) override;
  void updateParameters(const Parameters& parameters, std::int64_t numSystems) override;
  std::vector<double> state() const override { return rows_.save(); }
  void loadState(const std::vector<double>& state) override { rows_.load(state); }
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added) override { rows_.remap(keep, added); }

  void prepareSystems(const std::int32_t*, std::int64_t numSystems) override { rows_.requireCount(numSystems, systems_.size()); }
  void beforeForces(std::int64_t s, const SystemAtoms& atoms, std::int64_t step, double forceToAccel, double kB) override;
  void afterForces(std::int64_t s, const SystemAtoms& atoms, double forceToAccel) override;

 private:
  struct System {
    double dt;
    double temperature;
    double c1;
    double c2;
    std::uint64_t seed;
  };
  /**
   * B, A and O of one atom (`index` within its system, whose id keys the noise) at `step`; the momentum the
   * noise gave it into `momentum` (3).
   */
  static void kickDriftNoise(const System& system, double* x, double* v, const double* f, double mass, double forceToAccel, double kB,
                             std::int32_t systemId, std::int64_t step, std::int64_t index, double* momentum);
  /** The velocity of a system's noise momentum: Σ momenta / Σ masses over `count` atoms, in atom order (0 for no mass). */
  static void noiseDrift(const double* masses, const double* momenta, std::int32_t count, double* out);
  std::vector<System> systems_;
  SystemRows rows_;
  ProgramLayout layout_;
  FrozenCountsUpload frozenUpload_;
  /** Scratch of preUpdate: each atom's noise momentum m·c2·σ·ξ, and each system's drift from it. */
  std::vector<double> noiseMomentum_;
  std::vector<double> drift_;
};

}  // namespace hookmd
