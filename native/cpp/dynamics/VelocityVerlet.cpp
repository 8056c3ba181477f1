#include "dynamics/VelocityVerlet.h"

#include <algorithm>

#include "core/Error.h"
#include "cpu/AtomLoops.h"
#include "math/VelocityVerletUpdate.h"
#include "platform/DeviceOperations.h"

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

// The large-system loops take a run of atoms in blocks: each block first turns masses into accelerations,
// one per force component, then updates all its components in one flat loop the compiler vectorizes. Atom
// by atom, through pointers that might alias, it did not, and the two half steps of in.lj cost 4% of a
// step. Each component sees the operations of halfKick and drift in the same order: the same bits.
constexpr std::int64_t kBlockAtoms = 256;

/** forceToAccel/m for `count` atoms, each repeated for its 3 components. */
void blockAccelerations(const double* __restrict m, std::int64_t count, double forceToAccel, double* __restrict perComponent) {
  double perAtom[kBlockAtoms];
  for (std::int64_t j = 0; j < count; ++j) perAtom[j] = forceToAccel / m[j];
  for (std::int64_t j = 0; j < count; ++j) {
    perComponent[3 * j] = perAtom[j];
    perComponent[3 * j + 1] = perAtom[j];
    perComponent[3 * j + 2] = perAtom[j];
  }
}

/** fn(first, count, accel) for each block [first, first + count) of atoms [lo, hi), accel = forceToAccel/m per component. */
template <class Fn>
void forEachAccelerationBlock(const double* m, std::int64_t lo, std::int64_t hi, double forceToAccel, Fn&& fn) {
  double accel[3 * kBlockAtoms];
  for (std::int64_t first = lo; first < hi; first += kBlockAtoms) {
    const std::int64_t count = std::min(kBlockAtoms, hi - first);
    blockAccelerations(m + first, count, forceToAccel, accel);
    fn(first, count, accel);
  }
}

/** kickAndDrift over `components` consecutive values. */
void kickAndDriftBlock(double* __restrict x, double* __restrict v, const double* __restrict f, const double* __restrict accel,
                       std::int64_t components, double dt) {
  const double halfDt = 0.5 * dt;
  for (std::int64_t k = 0; k < components; ++k) {
    v[k] += halfDt * f[k] * accel[k];
    x[k] += dt * v[k];
  }
}

/** halfKick over `components` consecutive values. */
void halfKickBlock(double* __restrict v, const double* __restrict f, const double* __restrict accel, std::int64_t components, double dt) {
  const double halfDt = 0.5 * dt;
  for (std::int64_t k = 0; k < components; ++k) v[k] += halfDt * f[k] * accel[k];
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
  BatchStorage& host = arraysFor(context.backend, Kernel::Integrator, {Field::Status, Field::Positions, Field::Velocities, Field::Forces, Field::Masses, Field::SystemIndex, Field::Ptr}, {Field::Positions, Field::Velocities});
  requireParameterCount(dt_.size(), host.numSystems());
  context.backend.chargeAtomKernel(DeviceOp::VerletKickDrift);
  double* x = host.f64(Field::Positions);
  double* v = host.f64(Field::Velocities);
  const double* f = host.f64(Field::Forces);
  const double* m = host.f64(Field::Masses);
  const double forceToAccel = host.units.forceToAccel;
  forEachActiveRun(host, context.active, [&](std::int32_t s, std::int64_t lo, std::int64_t hi) {
    forEachAccelerationBlock(m, lo, hi, forceToAccel, [&](std::int64_t first, std::int64_t count, const double* accel) {
      kickAndDriftBlock(x + 3 * first, v + 3 * first, f + 3 * first, accel, 3 * count, dt_[s]);
    });
  });
}

void VelocityVerlet::postUpdate(const StepContext& context) {
  BatchStorage& host = arraysFor(context.backend, Kernel::Integrator, {Field::Status, Field::Velocities, Field::Forces, Field::Masses, Field::SystemIndex, Field::Ptr}, {Field::Velocities});
  requireParameterCount(dt_.size(), host.numSystems());
  context.backend.chargeAtomKernel(DeviceOp::VerletKick);
  double* v = host.f64(Field::Velocities);
  const double* f = host.f64(Field::Forces);
  const double* m = host.f64(Field::Masses);
  const double forceToAccel = host.units.forceToAccel;
  forEachActiveRun(host, context.active, [&](std::int32_t s, std::int64_t lo, std::int64_t hi) {
    forEachAccelerationBlock(m, lo, hi, forceToAccel, [&](std::int64_t first, std::int64_t count, const double* accel) {
      halfKickBlock(v + 3 * first, f + 3 * first, accel, 3 * count, dt_[s]);
    });
  });
}

}  // namespace hookmd
