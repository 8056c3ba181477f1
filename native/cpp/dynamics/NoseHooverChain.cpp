#include "dynamics/NoseHooverChain.h"

#include <algorithm>
#include <cmath>

#include "core/Error.h"
#include "cpu/AtomLoops.h"
#include "math/DegreesOfFreedom.h"
#include "math/NoseHooverChainUpdate.h"
#include "math/Reductions.h"
#include "math/VelocityVerletUpdate.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

namespace {
// Far beyond any useful chain (3 to 5 links); it only rejects values that would be typos.
constexpr int kMaxChainLength = 64;

// The chain length fixes the state layout, so it is one integer for the whole batch.
int chainLengthFrom(const Parameters& parameters) {
  if (!parameters.has("chainLength")) fail("MISSING_PARAMETER", "NoseHooverChain: parameter 'chainLength' is missing");
  const double value = parameters.scalar("chainLength", 0.0);
  if (!(value >= 1.0 && value <= kMaxChainLength) || value != std::floor(value)) {
    fail("INVALID_PARAMETER", "NoseHooverChain: chainLength must be an integer in [1, " +
                                  std::to_string(kMaxChainLength) + "], got " + std::to_string(value));
  }
  return static_cast<int>(value);
}
}  // namespace

NoseHooverChain::NoseHooverChain(const Parameters& parameters, std::int64_t numSystems)
    : chainLength_(chainLengthFrom(parameters)),
      rows_("NoseHooverChain", std::vector<double>(2 * chainLength_ + 1, 0.0), numSystems) {
  updateParameters(parameters, numSystems);
}

void NoseHooverChain::updateParameters(const Parameters& parameters, std::int64_t numSystems) {
  if (chainLengthFrom(parameters) != chainLength_) {
    fail("INVALID_PARAMETER", "NoseHooverChain: chainLength cannot change after the integrator was created");
  }
  const auto& dt = parameters.perSystem("NoseHooverChain", "dt", numSystems);
  const auto& temperature = parameters.perSystem("NoseHooverChain", "temperature", numSystems);
  const auto& tdamp = parameters.perSystem("NoseHooverChain", "tdamp", numSystems);
  std::vector<System> systems(static_cast<std::size_t>(numSystems));
  for (std::size_t s = 0; s < systems.size(); ++s) systems[s] = System{dt[s], temperature[s], tdamp[s]};
  systems_ = std::move(systems);
}

void NoseHooverChain::chainHalfSteps(const BatchStorage& host, const StepContext& context) {
  const double* v = host.f64(Field::Velocities);
  const double* m = host.f64(Field::Masses);
  const double forceToAccel = host.units.forceToAccel;
  const double kB = host.units.kB;
  const int length = chainLength_;
  scale_.resize(static_cast<std::size_t>(host.numSystems()));
  forEachActiveSystem(host, context.active, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    double kinetic = 0.0;
    for (std::int64_t i = begin; i < end; ++i) kinetic += atomKineticEnergy(m[i], v + 3 * i, forceToAccel);
    const System& system = systems_[s];
    const double dof = degreesOfFreedom(end - begin, context.frozenCount == nullptr ? 0 : context.frozenCount[s]);
    const ChainConstants constants = chainConstants(dof, kB * system.temperature, system.tdamp, system.dt);
    double* row = rows_.row(s);
    scale_[s] = chainHalfStep(row, row + length, length, 2.0 * kinetic, constants);
    row[2 * length] = chainEnergy(row, row + length, length, constants);
  });
}

void NoseHooverChain::chargeProgram(const StepContext& context) {
  // Each phase is one per-system program on the device (docs/cuda.md, "The device ledger"), after the frozen
  // counts it reads.
  frozenUpload_.due(context, context.backend.numSystems());
  layout_.update(context.backend, name());
  layout_.chargeStep(context.backend, DeviceOp::NoseHooverProgram, DeviceOp::NoseHooverProgramChunked);
}

void NoseHooverChain::preUpdate(const StepContext& context) {
  BatchStorage& host = arraysFor(context.backend, Kernel::Integrator,
      {Field::Status, Field::Positions, Field::Velocities, Field::Forces, Field::Masses, Field::SystemIndex, Field::Ptr},
      {Field::Positions, Field::Velocities});
  rows_.requireCount(host.numSystems(), systems_.size());
  chargeProgram(context);
  chainHalfSteps(host, context);
  double* x = host.f64(Field::Positions);
  double* v = host.f64(Field::Velocities);
  const double* f = host.f64(Field::Forces);
  const double* m = host.f64(Field::Masses);
  const double forceToAccel = host.units.forceToAccel;
  forEachActiveAtom(host, context.active, [&](std::int64_t i, std::int32_t s) {
    scaleVelocity(v + 3 * i, scale_[s]);
    halfKick(v + 3 * i, f + 3 * i, forceToAccel / m[i], 0.5 * systems_[s].dt);
    drift(x + 3 * i, v + 3 * i, systems_[s].dt);
  });
}

void NoseHooverChain::postUpdate(const StepContext& context) {
  BatchStorage& host = arraysFor(context.backend, Kernel::Integrator, {Field::Status, Field::Velocities, Field::Forces, Field::Masses, Field::SystemIndex, Field::Ptr},
      {Field::Velocities});
  rows_.requireCount(host.numSystems(), systems_.size());
  chargeProgram(context);
  double* v = host.f64(Field::Velocities);
  const double* f = host.f64(Field::Forces);
  const double* m = host.f64(Field::Masses);
  const double forceToAccel = host.units.forceToAccel;
  forEachActiveAtom(host, context.active, [&](std::int64_t i, std::int32_t s) {
    halfKick(v + 3 * i, f + 3 * i, forceToAccel / m[i], 0.5 * systems_[s].dt);
  });
  chainHalfSteps(host, context);
  forEachActiveAtom(host, context.active, [&](std::int64_t i, std::int32_t s) { scaleVelocity(v + 3 * i, scale_[s]); });
}

}  // namespace hookmd
