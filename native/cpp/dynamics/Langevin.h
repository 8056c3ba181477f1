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

#include "dynamics/Integrator.h"
#include "dynamics/Parameters.h"
#include "dynamics/SystemRows.h"

namespace hookmd {

class Langevin final : public Integrator {
 public:
  Langevin(const Parameters& parameters, std::int64_t numSystems);
  const char* name() const noexcept override { return "Langevin"; }
  void preUpdate(const StepContext& context) override;
  void postUpdate(const StepContext& context) override;
  void updateParameters(const Parameters& parameters, std::int64_t numSystems) override;
  std::vector<double> state() const override { return rows_.save(); }
  void loadState(const std::vector<double>& state) override { rows_.load(state); }
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added) override { rows_.remap(keep, added); }

 private:
  struct System {
    double dt;
    double temperature;
    double c1;
    double c2;
    std::uint64_t seed;
  };
  std::vector<System> systems_;
  SystemRows rows_;
  /** Scratch of preUpdate: each atom's noise momentum m·c2·σ·ξ, and each system's drift from it. */
  std::vector<double> noiseMomentum_;
  std::vector<double> drift_;
};

}  // namespace hookmd
