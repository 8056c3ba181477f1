#include "dynamics/GradientDescent.h"

#include <cmath>

#include "cpu/AtomLoops.h"
#include "math/CappedStep.h"

namespace hookmd {

GradientDescent::GradientDescent(const Parameters& parameters, std::int64_t numSystems)
    : rows_("GradientDescent", {}, numSystems) {
  updateParameters(parameters, numSystems);
}

void GradientDescent::updateParameters(const Parameters& parameters, std::int64_t numSystems) {
  stepSize_ = parameters.perSystem("GradientDescent", "stepSize", numSystems);
  maxStep_ = parameters.perSystem("GradientDescent", "maxStep", numSystems);
}

// One task per system: |dr| sums over all its atoms in atom order, independent of the thread count.
void GradientDescent::preUpdate(const StepContext& context) {
  BatchStorage& host = context.backend.arraysFor(Kernel::Integrator, {Field::Status, Field::Positions, Field::Forces, Field::Ptr}, {Field::Positions});
  rows_.requireCount(host.numSystems(), stepSize_.size());
  double* x = host.f64(Field::Positions);
  const double* f = host.f64(Field::Forces);
  forEachActiveSystem(host, context.active, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    double stepSquared = 0.0;
    for (std::int64_t i = begin; i < end; ++i) stepSquared += stepSquaredNorm(f + 3 * i, stepSize_[s]);
    const double stepNorm = std::sqrt(stepSquared);
    for (std::int64_t i = begin; i < end; ++i) applyCappedStep(x + 3 * i, f + 3 * i, stepSize_[s], stepNorm, maxStep_[s]);
  });
}

}  // namespace hookmd
