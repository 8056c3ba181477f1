// Velocity Verlet (NVE): preUpdate kicks half a step and drifts, postUpdate kicks the second half.
#pragma once

#include <vector>

#include "dynamics/Integrator.h"
#include "dynamics/Parameters.h"

namespace hookmd {

class VelocityVerlet final : public Integrator {
 public:
  VelocityVerlet(const Parameters& parameters, std::int64_t numSystems);
  const char* name() const noexcept override { return "VelocityVerlet"; }
  void preUpdate(const StepContext& context) override;
  void postUpdate(const StepContext& context) override;
  void remap(const std::vector<std::int64_t>&, std::int64_t) override {}
  void updateParameters(const Parameters& parameters, std::int64_t numSystems) override;

 private:
  std::vector<double> dt_;
};

}  // namespace hookmd
