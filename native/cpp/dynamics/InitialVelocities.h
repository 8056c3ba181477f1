// Initial velocities for an MD integrator, as LAMMPS's `velocity create` before a run: the first time the
// wrapped integrator updates a system (its first step in a run, or its first step in a FusedStage sub-stage
// after it arrived from the previous one), the system's velocities are drawn from Maxwell–Boltzmann at the
// temperature (math/MaxwellBoltzmann.h) and its total momentum is removed (frozen atoms get none, and a
// system with frozen atoms keeps its momentum, math/DegreesOfFreedom.h). Later steps are the wrapped
// integrator's own.
//
// Parameters (one value per system): velocityTemperature (temperature units), velocitySeed (an integer,
// |seed| ≤ 2^53), and the wrapped integrator's own.
//
// state(): two joinState() parts (dynamics/StateParts.h): [numSystems, 1, then per system: drawn (1 once its
// velocities were drawn)], then the wrapped integrator's state.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/Integrator.h"
#include "kernels/Parameters.h"
#include "dynamics/SystemRows.h"

namespace hookmd {

class InitialVelocities final : public Integrator {
 public:
  InitialVelocities(std::unique_ptr<Integrator> integrator, const Parameters& parameters, std::int64_t numSystems);
  const char* name() const noexcept override { return integrator_->name(); }
  void preUpdate(const StepContext& context) override;
  void postUpdate(const StepContext& context) override { integrator_->postUpdate(context); }
  bool needsStress() const noexcept override { return integrator_->needsStress(); }
  void updateParameters(const Parameters& parameters, std::int64_t numSystems) override;
  std::vector<double> state() const override;
  void loadState(const std::vector<double>& state) override;
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added) override;

 private:
  /** Draws the velocities of the systems the step updates that have none drawn yet. */
  void draw(const StepContext& context);

  std::unique_ptr<Integrator> integrator_;
  std::vector<double> temperature_;
  std::vector<std::uint64_t> seed_;
  SystemRows drawn_;
};

}  // namespace hookmd
