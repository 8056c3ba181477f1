#include "dynamics/Langevin.h"

#include <cmath>

#include "core/Error.h"
#include "cpu/AtomLoops.h"
#include "math/CounterRandom.h"
#include "math/LangevinUpdate.h"
#include "math/VelocityVerletUpdate.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

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
    systems[s] = System{dt[s], temperature[s], coefficients.c1, coefficients.c2, seedParameter("Langevin", "seed", seed[s])};
  }
  systems_ = std::move(systems);
}

void Langevin::kickDriftNoise(const System& system, double* x, double* v, const double* f, double mass, double forceToAccel, double kB,
                              std::int32_t systemId, std::int64_t step, std::int64_t index, double* momentum) {
  halfKick(v, f, forceToAccel / mass, 0.5 * system.dt);
  drift(x, v, 0.5 * system.dt);
  double noise[3];
  atomGaussian3(system.seed, static_cast<std::uint32_t>(systemId), step, static_cast<std::uint32_t>(index), noise);
  const double kick = system.c2 * thermalSpeed(kB * system.temperature, forceToAccel, mass);
  ornsteinUhlenbeck(v, system.c1, kick, noise);
  for (int c = 0; c < 3; ++c) momentum[c] = mass * kick * noise[c];
}

void Langevin::noiseDrift(const double* masses, const double* momenta, std::int32_t count, double* out) {
  double momentum[3] = {0.0, 0.0, 0.0};
  double mass = 0.0;
  for (std::int32_t i = 0; i < count; ++i) {
    mass += masses[i];
    for (int c = 0; c < 3; ++c) momentum[c] += momenta[3 * i + c];
  }
  for (int c = 0; c < 3; ++c) out[c] = mass > 0.0 ? momentum[c] / mass : 0.0;
}

// The small-system path runs no native hook, so no atom of its systems is frozen: the noise is always made
// momentum-free, with the general path's operations in its order.
void Langevin::beforeForces(std::int64_t s, const SystemAtoms& atoms, std::int64_t step, double forceToAccel, double kB) {
  const System& system = systems_[s];
  double momenta[3 * kSmallSystemAtoms];
  for (std::int32_t i = 0; i < atoms.count; ++i) {
    kickDriftNoise(system, atoms.x + 3 * i, atoms.v + 3 * i, atoms.f + 3 * i, atoms.m[i], forceToAccel, kB, atoms.systemId, step, i, momenta + 3 * i);
  }
  double driftVelocity[3];
  noiseDrift(atoms.m, momenta, atoms.count, driftVelocity);
  for (std::int32_t i = 0; i < atoms.count; ++i) {
    for (int c = 0; c < 3; ++c) atoms.v[3 * i + c] -= driftVelocity[c];
    drift(atoms.x + 3 * i, atoms.v + 3 * i, 0.5 * system.dt);
  }
}

void Langevin::afterForces(std::int64_t s, const SystemAtoms& atoms, double forceToAccel) {
  for (std::int32_t i = 0; i < atoms.count; ++i) halfKick(atoms.v + 3 * i, atoms.f + 3 * i, forceToAccel / atoms.m[i], 0.5 * systems_[s].dt);
}

void Langevin::preUpdate(const StepContext& context) {
  BatchStorage& host = arraysFor(context.backend, Kernel::Integrator, {Field::Status, Field::Positions, Field::Velocities, Field::Forces, Field::Masses, Field::Ptr, Field::SystemId, Field::SystemIndex}, {Field::Positions, Field::Velocities});
  rows_.requireCount(host.numSystems(), systems_.size());
  // One per-system program on the device (docs/cuda.md, "The device ledger"), after the frozen counts it reads.
  frozenUpload_.due(context, host.numSystems());
  layout_.update(context.backend, name());
  layout_.chargeStep(context.backend, DeviceOp::LangevinProgram, DeviceOp::LangevinProgramChunked);
  double* x = host.f64(Field::Positions);
  double* v = host.f64(Field::Velocities);
  const double* f = host.f64(Field::Forces);
  const double* m = host.f64(Field::Masses);
  const std::int32_t* ptr = host.i32(Field::Ptr);
  const std::int32_t* systemId = host.i32(Field::SystemId);
  const double forceToAccel = host.units.forceToAccel;
  const double kB = host.units.kB;
  noiseMomentum_.resize(3 * static_cast<std::size_t>(host.numAtoms()));
  forEachActiveAtom(host, context.active, [&](std::int64_t i, std::int32_t s) {
    kickDriftNoise(systems_[s], x + 3 * i, v + 3 * i, f + 3 * i, m[i], forceToAccel, kB, systemId[s], context.step, i - ptr[s],
                   noiseMomentum_.data() + 3 * i);
  });
  // Where no atom is frozen the noise gives the system no momentum (LAMMPS's fix langevin `zero yes`): the
  // dynamics then conserve it, as the temperature's 3N − 3 degrees of freedom assume (math/DegreesOfFreedom.h).
  // Each system's sum runs in atom order, whatever the thread count.
  drift_.assign(3 * static_cast<std::size_t>(host.numSystems()), 0.0);
  forEachActiveSystem(host, context.active, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    if (context.frozenCount != nullptr && context.frozenCount[s] > 0) return;
    noiseDrift(m + begin, noiseMomentum_.data() + 3 * static_cast<std::size_t>(begin), end - begin, drift_.data() + 3 * s);
  });
  forEachActiveAtom(host, context.active, [&](std::int64_t i, std::int32_t s) {
    for (int c = 0; c < 3; ++c) v[3 * i + c] -= drift_[3 * s + c];
    drift(x + 3 * i, v + 3 * i, 0.5 * systems_[s].dt);
  });
}

void Langevin::postUpdate(const StepContext& context) {
  BatchStorage& host = arraysFor(context.backend, Kernel::Integrator, {Field::Status, Field::Velocities, Field::Forces, Field::Masses, Field::SystemIndex, Field::Ptr}, {Field::Velocities});
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
