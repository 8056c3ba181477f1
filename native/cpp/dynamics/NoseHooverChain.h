// Nosé–Hoover chain (NVT) with the Martyna–Tuckerman–Klein splitting of LAMMPS fix nvt: preUpdate advances
// the chain by dt/2 and scales the velocities, then kicks by dt/2 and drifts; postUpdate kicks by dt/2 with
// the new forces, then advances the chain by dt/2 and scales again.
//
// Parameters: dt (time), temperature and tdamp (the thermostat period, time) per system; chainLength (the
// number of links M ≥ 1, one value for the whole batch, fixed for the integrator's life). The thermostat
// counts the degrees of freedom every temperature in hookmd counts (math/DegreesOfFreedom.h): 3N − 3, or
// 3·N_mobile with frozen atoms; with dof ≤ 0 it leaves the system alone. Masses are Q1 = dof·kB·T·tdamp² and
// Qk = kB·T·tdamp² (k ≥ 2).
//
// state(): [numSystems, 2M + 1, then per system ξ1..ξM, v_ξ1..v_ξM, E_thermostat], where
// E_thermostat = Σ ½Q_k v_ξk² + dof·kB·T·ξ1 + Σ_{k≥2} kB·T·ξk as of the last chain half step (0 for a
// fresh system). E_pot + E_kin + E_thermostat is the conserved quantity of the extended system.
#pragma once

#include <cstdint>
#include <vector>

#include "core/BatchStorage.h"
#include "dynamics/FrozenCountsUpload.h"
#include "kernels/Integrator.h"
#include "kernels/Parameters.h"
#include "dynamics/ProgramLayout.h"
#include "dynamics/SystemRows.h"

namespace hookmd {

class NoseHooverChain final : public Integrator {
 public:
  NoseHooverChain(const Parameters& parameters, std::int64_t numSystems);
  const char* name() const noexcept override { return "NoseHooverChain"; }
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
    double tdamp;
  };
  /** Advances each active system's chain by dt/2 and stores its velocity scale factor in scale_. */
  void chainHalfSteps(const BatchStorage& host, const StepContext& context);
  /** Charges one phase's device program to the ledger. */
  void chargeProgram(const StepContext& context);

  int chainLength_;
  std::vector<System> systems_;
  SystemRows rows_;
  std::vector<double> scale_;
  ProgramLayout layout_;
  FrozenCountsUpload frozenUpload_;
};

}  // namespace hookmd
