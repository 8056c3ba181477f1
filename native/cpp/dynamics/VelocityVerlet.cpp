#include "dynamics/VelocityVerlet.h"

#include "core/Error.h"
#include "cpu/AtomLoops.h"
#include "math/VelocityVerletUpdate.h"

namespace hookmd {

VelocityVerlet::VelocityVerlet(const Parameters& parameters, std::int64_t numSystems) {
  updateParameters(parameters, numSystems);
}

void VelocityVerlet::updateParameters(const Parameters& parameters, std::int64_t numSystems) {
  dt_ = parameters.perSystem("VelocityVerlet", "dt", numSystems);
}

namespace {
void requireSystems(std::size_t parameters, std::int64_t systems) {
  if (static_cast<std::int64_t>(parameters) != systems) {
    fail("INVALID_PARAMETER", "VelocityVerlet: the parameters cover " + std::to_string(parameters) + " systems but the batch has " +
                                  std::to_string(systems) + " (updateParameters after a refill)");
  }
}
}  // namespace

void VelocityVerlet::preUpdate(const StepContext& context) {
  BatchStorage& host = context.backend.arraysFor(Kernel::Integrator, {Field::Status, Field::Positions, Field::Velocities, Field::Forces, Field::Masses, Field::SystemIndex, Field::Ptr}, {Field::Positions, Field::Velocities});
  requireSystems(dt_.size(), host.numSystems());
  context.backend.chargeAtomKernel(DeviceOp::VerletKickDrift);
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
  BatchStorage& host = context.backend.arraysFor(Kernel::Integrator, {Field::Status, Field::Velocities, Field::Forces, Field::Masses, Field::SystemIndex, Field::Ptr}, {Field::Velocities});
  requireSystems(dt_.size(), host.numSystems());
  context.backend.chargeAtomKernel(DeviceOp::VerletKick);
  double* v = host.f64(Field::Velocities);
  const double* f = host.f64(Field::Forces);
  const double* m = host.f64(Field::Masses);
  const double forceToAccel = host.units.forceToAccel;
  forEachActiveAtom(host, context.active, [&](std::int64_t i, std::int32_t s) {
    halfKick(v + 3 * i, f + 3 * i, forceToAccel / m[i], 0.5 * dt_[s]);
  });
}

}  // namespace hookmd
