// NPT with Langevin dynamics for the atoms (BAOAB, as dynamics/Langevin.h) and stochastic cell rescaling for
// the cell (Bernetti–Bussi "C-rescale", isotropic; math/CRescaleUpdate.h). preUpdate takes the pressure of
// the current positions (the step's stress and kinetic energy), runs Langevin's B A O A, then rescales the
// system by μ, so the step's compute sees the rescaled positions; postUpdate is Langevin's last B. Being
// first order and stochastic, it relaxes robustly from far away, and samples the isothermal–isobaric
// ensemble; any cell shape keeps its shape.
//
// Parameters (one value per system): Langevin's dt, temperature, friction and seed; pressure (energy/volume),
// tauP (the barostat's relaxation time) and compressibility β_T (volume/energy, for example 4.5e-5 /bar for
// water: only the barostat's speed depends on it, not the ensemble). The barostat noise is counter-based
// like Langevin's, on a stream of its own.
//
// state(): [numSystems, 0] — no per-system state besides the batch.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/Integrator.h"
#include "dynamics/Langevin.h"
#include "kernels/Parameters.h"

namespace hookmd {

class NptLangevin final : public Integrator {
 public:
  NptLangevin(const Parameters& parameters, std::int64_t numSystems);
  const char* name() const noexcept override { return "NPTLangevin"; }
  void preUpdate(const StepContext& context) override;
  void postUpdate(const StepContext& context) override { langevin_.postUpdate(context); }
  bool needsStress() const noexcept override { return true; }
  void updateParameters(const Parameters& parameters, std::int64_t numSystems) override;
  std::vector<double> state() const override { return langevin_.state(); }
  void loadState(const std::vector<double>& state) override { langevin_.loadState(state); }
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added) override { langevin_.remap(keep, added); }

 private:
  struct System {
    double pressure, tau, compressibility, temperature, dt;
    std::uint64_t seed;
  };
  Langevin langevin_;
  std::vector<System> systems_;
  /** Per system, the pressure at the start of the step. */
  std::vector<double> pressure_;
};

}  // namespace hookmd
