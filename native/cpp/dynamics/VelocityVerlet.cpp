#include "dynamics/VelocityVerlet.h"

#include "cpu/AtomLoops.h"
#include "math/VelocityVerletUpdate.h"

namespace hookmd {

VelocityVerlet::VelocityVerlet(const Parameters& parameters, std::int64_t numSystems) {
  updateParameters(parameters, numSystems);
}

void VelocityVerlet::updateParameters(const Parameters& parameters, std::int64_t numSystems) {
  dt_ = parameters.perSystem("VelocityVerlet", "dt", numSystems);
}

void VelocityVerlet::preUpdate(const StepContext& context) {
  BatchStorage& host = context.backend.arraysFor(Kernel::Integrator, {Field::Positions, Field::Velocities, Field::Forces, Field::Masses, Field::SystemIndex, Field::Ptr}, {Field::Positions, Field::Velocities});
  double* x = host.f64(Field::Positions);
  double* v = host.f64(Field::Velocities);
  const double* f = host.f64(Field::Forces);
  const double* m = host.f64(Field::Masses);
  const double forceToAccel = host.units.forceToAccel;
  forEachActiveAtom(host, context.active, [&](std::int64_t i, std::int32_t s) {
    halfKick(v + 3 * i, f + 3 * i, forceToAccel / m[i], 0.5 * dt_[s]);
    drift(x + 3 * i, v + 3 * i, dt_[s]);
  });
}

void VelocityVerlet::postUpdate(const StepContext& context) {
  BatchStorage& host = context.backend.arraysFor(Kernel::Integrator, {Field::Velocities, Field::Forces, Field::Masses, Field::SystemIndex, Field::Ptr}, {Field::Velocities});
  double* v = host.f64(Field::Velocities);
  const double* f = host.f64(Field::Forces);
  const double* m = host.f64(Field::Masses);
  const double forceToAccel = host.units.forceToAccel;
  forEachActiveAtom(host, context.active, [&](std::int64_t i, std::int32_t s) {
    halfKick(v + 3 * i, f + 3 * i, forceToAccel / m[i], 0.5 * dt_[s]);
  });
}

}  // namespace hookmd
