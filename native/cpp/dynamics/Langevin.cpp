#include "dynamics/Langevin.h"

#include <cmath>

#include "core/Error.h"
#include "cpu/AtomLoops.h"
#include "math/CounterRandom.h"
#include "math/LangevinUpdate.h"
#include "math/VelocityVerletUpdate.h"

namespace hookmd {

namespace {
// Doubles represent every integer up to 2^53 exactly; beyond that the seed the user wrote is not the one
// stored, and a non-integral or non-finite value has no integer meaning at all.
std::uint64_t seedFrom(double value) {
  if (!(std::fabs(value) <= 9007199254740992.0) || value != std::floor(value)) {
    fail("INVALID_PARAMETER", "Langevin: seed must be an integer with |seed| ≤ 2^53, got " + std::to_string(value));
  }
  return static_cast<std::uint64_t>(static_cast<std::int64_t>(value));
}
}  // namespace

Langevin::Langevin(const Parameters& parameters, std::int64_t numSystems) : rows_("Langevin", {}, numSystems) {
  updateParameters(parameters, numSystems);
}

void Langevin::updateParameters(const Parameters& parameters, std::int64_t numSystems) {
  const auto& dt = parameters.perSystem("Langevin", "dt", numSystems);
  const auto& temperature = parameters.perSystem("Langevin", "temperature", numSystems);
  const auto& friction = parameters.perSystem("Langevin", "friction", numSystems);
  const auto& seed = parameters.perSystem("Langevin", "seed", numSystems);
  std::vector<System> systems(static_cast<std::size_t>(numSystems));
  for (std::size_t s = 0; s < systems.size(); ++s) {
    const LangevinCoefficients coefficients = langevinCoefficients(friction[s], dt[s]);
    systems[s] = System{dt[s], temperature[s], coefficients.c1, coefficients.c2, seedFrom(seed[s])};
  }
  systems_ = std::move(systems);
}

void Langevin::baoab(const System& system, double* x, double* v, const double* f, double mass, double forceToAccel, double kB,
                     std::int32_t systemId, std::int64_t step, std::int64_t index) {
  halfKick(v, f, forceToAccel / mass, 0.5 * system.dt);
  drift(x, v, 0.5 * system.dt);
  double noise[3];
  atomGaussian3(system.seed, static_cast<std::uint32_t>(systemId), step, static_cast<std::uint32_t>(index), noise);
  ornsteinUhlenbeck(v, system.c1, system.c2 * thermalSpeed(kB * system.temperature, forceToAccel, mass), noise);
  drift(x, v, 0.5 * system.dt);
}

void Langevin::beforeForces(std::int64_t s, const SystemAtoms& atoms, std::int64_t step, double forceToAccel, double kB) {
  for (std::int32_t i = 0; i < atoms.count; ++i) {
    baoab(systems_[s], atoms.x + 3 * i, atoms.v + 3 * i, atoms.f + 3 * i, atoms.m[i], forceToAccel, kB, atoms.systemId, step, i);
  }
}

void Langevin::afterForces(std::int64_t s, const SystemAtoms& atoms, double forceToAccel) {
  for (std::int32_t i = 0; i < atoms.count; ++i) halfKick(atoms.v + 3 * i, atoms.f + 3 * i, forceToAccel / atoms.m[i], 0.5 * systems_[s].dt);
}

void Langevin::preUpdate(const StepContext& context) {
  BatchStorage& host = context.backend.arraysFor(
      Kernel::Integrator, {Field::Status, Field::Positions, Field::Velocities, Field::Forces, Field::Masses, Field::Ptr, Field::SystemId, Field::SystemIndex}, {Field::Positions, Field::Velocities});
  rows_.requireCount(host.numSystems(), systems_.size());
  context.backend.chargeAtomKernel(DeviceOp::LangevinBaoab);
  double* x = host.f64(Field::Positions);
  double* v = host.f64(Field::Velocities);
  const double* f = host.f64(Field::Forces);
  const double* m = host.f64(Field::Masses);
  const std::int32_t* ptr = host.i32(Field::Ptr);
  const std::int32_t* systemId = host.i32(Field::SystemId);
  const double forceToAccel = host.units.forceToAccel;
  const double kB = host.units.kB;
  forEachActiveAtom(host, context.active, [&](std::int64_t i, std::int32_t s) {
    baoab(systems_[s], x + 3 * i, v + 3 * i, f + 3 * i, m[i], forceToAccel, kB, systemId[s], context.step, i - ptr[s]);
  });
}

void Langevin::postUpdate(const StepContext& context) {
  BatchStorage& host = context.backend.arraysFor(Kernel::Integrator, {Field::Status, Field::Velocities, Field::Forces, Field::Masses, Field::SystemIndex, Field::Ptr}, {Field::Velocities});
  rows_.requireCount(host.numSystems(), systems_.size());
  context.backend.chargeAtomKernel(DeviceOp::VerletKick);
  double* v = host.f64(Field::Velocities);
  const double* f = host.f64(Field::Forces);
  const double* m = host.f64(Field::Masses);
  const double forceToAccel = host.units.forceToAccel;
  forEachActiveAtom(host, context.active, [&](std::int64_t i, std::int32_t s) {
    halfKick(v + 3 * i, f + 3 * i, forceToAccel / m[i], 0.5 * systems_[s].dt);
  });
}

}  // namespace hookmd
