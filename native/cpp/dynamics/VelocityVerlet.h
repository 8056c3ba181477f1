// Velocity Verlet (NVE): preUpdate kicks half a step and drifts, postUpdate kicks the second half.
#pragma once

#include <vector>

#include "kernels/Integrator.h"
#include "kernels/Parameters.h"
#include "kernels/SystemStepper.h"

namespace hookmd {

class VelocityVerlet final : public Integrator, public SystemStepper {
 public:
  VelocityVerlet(const Parameters& parameters, std::int64_t numSystems);
  const char* name() const noexcept override { return "VelocityVerlet"; }
  bool readsEnergy() const noexcept override { return false; }
  void preUpdate(const StepContext& context) override;
  void postUpdate(const StepContext& context) override;
  void remap(const std::vector<std::int64_t>&, std::int64_t) override {}
  void updateParameters(const Parameters& parameters, std::int64_t numSystems) override;

  void prepareSystems(const std::int32_t* ptr, std::int64_t numSystems) override;
  void beforeForces(std::int64_t s, const SystemAtoms& atoms, std::int64_t step, double forceToAccel, double kB) override;
  void afterForces(std::int64_t s, const SystemAtoms& atoms, double forceToAccel) override;

 private:
  std::vector<double> dt_;
};

}  // namespace hookmd
