#include "dynamics/GradientDescent.h"

#include <cmath>

#include "math/CappedStep.h"

namespace hookmd {

GradientDescent::GradientDescent(const Parameters& parameters, std::int64_t numSystems)
    : Optimizer("GradientDescent", false, numSystems), rows_("GradientDescent", {}, numSystems) {
  updateParameters(parameters, numSystems);
}

void GradientDescent::updateParameters(const Parameters& parameters, std::int64_t numSystems) {
  stepSize_ = parameters.perSystem("GradientDescent", "stepSize", numSystems);
  maxStep_ = parameters.perSystem("GradientDescent", "maxStep", numSystems);
}

void GradientDescent::stepSystem(std::int64_t s, const OptimizerRows& rows) {
  double stepSquared = 0.0;
  for (std::int64_t i = 0; i < rows.count; ++i) stepSquared += stepSquaredNorm(rows.f + 3 * i, stepSize_[s]);
  const double stepNorm = std::sqrt(stepSquared);
  for (std::int64_t i = 0; i < rows.count; ++i) applyCappedStep(rows.x + 3 * i, rows.f + 3 * i, stepSize_[s], stepNorm, maxStep_[s]);
}

}  // namespace hookmd
