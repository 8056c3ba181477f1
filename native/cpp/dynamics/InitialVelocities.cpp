#include "dynamics/InitialVelocities.h"

#include <cmath>

#include "core/Error.h"
#include "cpu/AtomLoops.h"
#include "dynamics/StateParts.h"
#include "math/MaxwellBoltzmann.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

InitialVelocities::InitialVelocities(std::unique_ptr<Integrator> integrator, const Parameters& parameters, std::int64_t numSystems)
    : integrator_(std::move(integrator)), drawn_("InitialVelocities", {0.0}, numSystems) {
  updateParameters(parameters, numSystems);
}

void InitialVelocities::updateParameters(const Parameters& parameters, std::int64_t numSystems) {
  const auto& temperature = parameters.perSystem("InitialVelocities", "velocityTemperature", numSystems);
  const auto& seed = parameters.perSystem("InitialVelocities", "velocitySeed", numSystems);
  std::vector<std::uint64_t> seeds;
  for (std::size_t s = 0; s < temperature.size(); ++s) {
    if (!(temperature[s] >= 0.0) || !std::isfinite(temperature[s])) {
      fail("INVALID_PARAMETER", "InitialVelocities: velocityTemperature must be a finite number ≥ 0, got " + std::to_string(temperature[s]));
    }
    seeds.push_back(seedParameter("InitialVelocities", "velocitySeed", seed[s]));
  }
  integrator_->updateParameters(parameters, numSystems);
  temperature_ = temperature;
  seed_ = std::move(seeds);
}

void InitialVelocities::preUpdate(const StepContext& context) {
  draw(context);
  integrator_->preUpdate(context);
}

void InitialVelocities::draw(const StepContext& context) {
  const std::int64_t numSystems = context.backend.numSystems();
  drawn_.requireCount(numSystems, temperature_.size());
  // Only steps where some updated system has no velocities drawn yet touch the arrays (a device backend
  // then syncs its velocities once, around the draw).
  bool pending = false;
  for (std::int64_t s = 0; s < numSystems && !pending; ++s) pending = context.active[s] && drawn_.row(s)[0] == 0.0;
  if (!pending) return;
  BatchStorage& host = arraysFor(context.backend, Kernel::Integrator, {Field::Status, Field::Velocities, Field::Masses, Field::Ptr, Field::SystemId}, {Field::Velocities});
  double* v = host.f64(Field::Velocities);
  const double* m = host.f64(Field::Masses);
  const std::int32_t* systemId = host.i32(Field::SystemId);
  const double kB = host.units.kB;
  const double forceToAccel = host.units.forceToAccel;
  forEachActiveSystem(host, context.active, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    double* drawn = drawn_.row(s);
    if (*drawn != 0.0) return;
    double momentum[3] = {0.0, 0.0, 0.0};
    double mass = 0.0;
    for (std::int32_t i = begin; i < end; ++i) {
      maxwellBoltzmannVelocity(seed_[s], static_cast<std::uint32_t>(systemId[s]), static_cast<std::uint32_t>(i - begin),
                               kB * temperature_[s], forceToAccel, m[i], v + 3 * i);
      if (context.frozenAtoms != nullptr && context.frozenAtoms[i]) {
        for (int c = 0; c < 3; ++c) v[3 * i + c] = 0.0;
      }
      for (int c = 0; c < 3; ++c) momentum[c] += m[i] * v[3 * i + c];
      mass += m[i];
    }
    // The system's centre of mass stays at rest, as ASE's Stationary() and LAMMPS's `mom yes` leave it, where
    // the dynamics conserve it: with frozen atoms every mobile coordinate is thermal (math/DegreesOfFreedom.h).
    const bool conserved = context.frozenCount == nullptr || context.frozenCount[s] == 0;
    if (conserved && mass > 0.0) {
      for (std::int32_t i = begin; i < end; ++i) {
        for (int c = 0; c < 3; ++c) v[3 * i + c] -= momentum[c] / mass;
      }
    }
    *drawn = 1.0;
  });
}

std::vector<double> InitialVelocities::state() const { return joinState({drawn_.save(), integrator_->state()}); }

void InitialVelocities::loadState(const std::vector<double>& state) {
  const std::vector<std::vector<double>> parts = splitState(state, 2, "InitialVelocities");
  SystemRows drawn = drawn_;
  drawn.load(parts[0]);
  integrator_->loadState(parts[1]);
  drawn_ = std::move(drawn);
}

void InitialVelocities::remap(const std::vector<std::int64_t>& keep, std::int64_t added) {
  integrator_->remap(keep, added);
  drawn_.remap(keep, added);
}

}  // namespace hookmd
