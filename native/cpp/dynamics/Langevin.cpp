#include "dynamics/Langevin.h"

#include <cmath>

#include "core/Error.h"
#include "cpu/AtomLoops.h"
#include "math/CounterRandom.h"
#include "math/LangevinUpdate.h"
#include "math/VelocityVerletUpdate.h"

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

void Langevin::preUpdate(const StepContext& context) {
  BatchStorage& host = context.backend.arraysFor(
      Kernel::Integrator, {Field::Status, Field::Positions, Field::Velocities, Field::Forces, Field::Masses, Field::Ptr, Field::SystemId, Field::SystemIndex}, {Field::Positions, Field::Velocities});
  rows_.requireCount(host.numSystems(), systems_.size());
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
    const System& system = systems_[s];
    double* xi = x + 3 * i;
    double* vi = v + 3 * i;
    halfKick(vi, f + 3 * i, forceToAccel / m[i], 0.5 * system.dt);
    drift(xi, vi, 0.5 * system.dt);
    double noise[3];
    atomGaussian3(system.seed, static_cast<std::uint32_t>(systemId[s]), context.step,
                  static_cast<std::uint32_t>(i - ptr[s]), noise);
    const double kick = system.c2 * thermalSpeed(kB * system.temperature, forceToAccel, m[i]);
    ornsteinUhlenbeck(vi, system.c1, kick, noise);
    for (int c = 0; c < 3; ++c) noiseMomentum_[3 * i + c] = m[i] * kick * noise[c];
  });
  // Where no atom is frozen the noise gives the system no momentum (LAMMPS's fix langevin `zero yes`): the
  // dynamics then conserve it, as the temperature's 3N − 3 degrees of freedom assume (math/DegreesOfFreedom.h).
  // Each system's sum runs in atom order, whatever the thread count.
  drift_.assign(3 * static_cast<std::size_t>(host.numSystems()), 0.0);
  forEachActiveSystem(host, context.active, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    if (context.frozenCount != nullptr && context.frozenCount[s] > 0) return;
    double momentum[3] = {0.0, 0.0, 0.0};
    double mass = 0.0;
    for (std::int32_t i = begin; i < end; ++i) {
      mass += m[i];
      for (int c = 0; c < 3; ++c) momentum[c] += noiseMomentum_[3 * i + c];
    }
    if (mass > 0.0) {
      for (int c = 0; c < 3; ++c) drift_[3 * s + c] = momentum[c] / mass;
    }
  });
  forEachActiveAtom(host, context.active, [&](std::int64_t i, std::int32_t s) {
    for (int c = 0; c < 3; ++c) v[3 * i + c] -= drift_[3 * s + c];
    drift(x + 3 * i, v + 3 * i, 0.5 * systems_[s].dt);
  });
}

void Langevin::postUpdate(const StepContext& context) {
  BatchStorage& host = context.backend.arraysFor(Kernel::Integrator, {Field::Status, Field::Velocities, Field::Forces, Field::Masses, Field::SystemIndex, Field::Ptr}, {Field::Velocities});
  rows_.requireCount(host.numSystems(), systems_.size());
  double* v = host.f64(Field::Velocities);
  const double* f = host.f64(Field::Forces);
  const double* m = host.f64(Field::Masses);
  const double forceToAccel = host.units.forceToAccel;
  forEachActiveAtom(host, context.active, [&](std::int64_t i, std::int32_t s) {
    halfKick(v + 3 * i, f + 3 * i, forceToAccel / m[i], 0.5 * systems_[s].dt);
  });
}

}  // namespace hookmd
