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
void requireParameterCount(std::size_t parameters, std::int64_t systems) {
  if (static_cast<std::int64_t>(parameters) != systems) {
    fail("INVALID_PARAMETER", "VelocityVerlet: the parameters cover " + std::to_string(parameters) + " systems but the batch has " +
                                  std::to_string(systems) + " (updateParameters after a refill)");
  }
}

/** The first half of a step for one atom: v += (dt/2)·F/m, then x += dt·v. */
void kickAndDrift(double* x, double* v, const double* f, double accel, double dt) {
  halfKick(v, f, accel, 0.5 * dt);
  drift(x, v, dt);
}
}  // namespace

void VelocityVerlet::prepareSystems(const std::int32_t*, std::int64_t numSystems) { requireParameterCount(dt_.size(), numSystems); }

void VelocityVerlet::beforeForces(std::int64_t s, const SystemAtoms& atoms, std::int64_t, double forceToAccel, double) {
  for (std::int32_t i = 0; i < atoms.count; ++i) kickAndDrift(atoms.x + 3 * i, atoms.v + 3 * i, atoms.f + 3 * i, forceToAccel / atoms.m[i], dt_[s]);
}

void VelocityVerlet::afterForces(std::int64_t s, const SystemAtoms& atoms, double forceToAccel) {
  for (std::int32_t i = 0; i < atoms.count; ++i) halfKick(atoms.v + 3 * i, atoms.f + 3 * i, forceToAccel / atoms.m[i], 0.5 * dt_[s]);
}

void VelocityVerlet::preUpdate(const StepContext& context) {
  BatchStorage& host = context.backend.arraysFor(Kernel::Integrator, {Field::Status, Field::Positions, Field::Velocities, Field::Forces, Field::Masses, Field::SystemIndex, Field::Ptr}, {Field::Positions, Field::Velocities});
  requireParameterCount(dt_.size(), host.numSystems());
  context.backend.chargeAtomKernel(DeviceOp::VerletKickDrift);
  double* x = host.f64(Field::Positions);
  double* v = host.f64(Field::Velocities);
  const double* f = host.f64(Field::Forces);
  const double* m = host.f64(Field::Masses);
  const double forceToAccel = host.units.forceToAccel;
  forEachActiveAtom(host, context.active, [&](std::int64_t i, std::int32_t s) {
    kickAndDrift(x + 3 * i, v + 3 * i, f + 3 * i, forceToAccel / m[i], dt_[s]);
  });
}

void VelocityVerlet::postUpdate(const StepContext& context) {
  BatchStorage& host = context.backend.arraysFor(Kernel::Integrator, {Field::Status, Field::Velocities, Field::Forces, Field::Masses, Field::SystemIndex, Field::Ptr}, {Field::Velocities});
  requireParameterCount(dt_.size(), host.numSystems());
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
