// NPT: Nosé–Hoover chains on the particles and on the barostat, with the Martyna–Tobias–Klein barostat, step
// for step as LAMMPS's `fix npt ... iso` / `aniso` (fix_nh.cpp, default chains of 3, mtk yes). preUpdate is
// LAMMPS's initial_integrate: barostat chain, particle chain, ω̇ half kick (with the stress of the current
// positions), velocity scaling, velocity half kick, half box remap, drift, half box remap. postUpdate is
// final_integrate: velocity half kick, velocity scaling, ω̇ half kick with the new stress, particle chain,
// barostat chain. Cells must be orthorhombic (diagonal); every compute evaluates the stress.
//
// Parameters (one value per system): dt, temperature, pressure (energy/volume), tdamp and pdamp (time),
// couple (0: iso, one strain rate for all axes; 1: aniso, one per axis, each towards the same pressure);
// chainLength M (one value for the batch). The particle chain counts hookmd's dof (math/DegreesOfFreedom.h:
// 3N − 3, or 3·N_mobile with frozen atoms). Masses, as LAMMPS sets
// them: Q1 = dof·kB·T·tdamp², Qk = kB·T·tdamp²; barostat W = (N + 1)·kB·T·pdamp²; barostat chain kB·T·pdamp²
// for every link, its first link driven towards kB·T (iso) or 3·kB·T (aniso).
//
// state(): [numSystems, 4M + 3, then per system ξ (M), v_ξ (M), ξ_p (M), v_ξp (M), ω̇ (3)].
#pragma once

#include <cstdint>
#include <vector>

#include "core/BatchStorage.h"
#include "kernels/Integrator.h"
#include "kernels/Parameters.h"
#include "dynamics/SystemRows.h"

namespace hookmd {

class Npt final : public Integrator {
 public:
  Npt(const Parameters& parameters, std::int64_t numSystems);
  const char* name() const noexcept override { return "NPT"; }
  void preUpdate(const StepContext& context) override;
  void postUpdate(const StepContext& context) override;
  bool needsStress() const noexcept override { return true; }
  void updateParameters(const Parameters& parameters, std::int64_t numSystems) override;
  std::vector<double> state() const override { return rows_.save(); }
  void loadState(const std::vector<double>& state) override { rows_.load(state); }
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added) override { rows_.remap(keep, added); }

 private:
  struct System {
    double dt, temperature, pressure, tdamp, pdamp;
    bool iso;
  };
  /** Both chains by dt/2 around the particle scaling: the order of LAMMPS's initial or final integrate. */
  /** The particle and barostat chains of system s; `frozen` atoms change the particles' degrees of freedom. */
  void thermostats(BatchStorage& host, std::int64_t s, std::int32_t begin, std::int32_t end, std::int64_t frozen, bool barostatFirst);
  /** ω̇ half kick from the current kinetic tensor and stress, then the velocity scaling of nh_v_press. */
  void barostatHalf(BatchStorage& host, std::int64_t s, std::int32_t begin, std::int32_t end);

  int chainLength_;
  std::vector<System> systems_;
  SystemRows rows_;
};

}  // namespace hookmd
