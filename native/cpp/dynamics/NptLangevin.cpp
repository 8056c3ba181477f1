#include "dynamics/NptLangevin.h"

#include <cmath>
#include <string>

#include "core/Error.h"
#include "cpu/AtomLoops.h"
#include "dynamics/PeriodicCells.h"
#include "math/CRescaleUpdate.h"
#include "math/CellMath.h"
#include "math/CounterRandom.h"
#include "math/Reductions.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

namespace {
// The barostat's normal deviates come from Langevin's counter stream at an atom index no system reaches.
constexpr std::uint32_t kBarostatStream = 0xFFFFFFFFu;
}  // namespace

NptLangevin::NptLangevin(const Parameters& parameters, std::int64_t numSystems) : langevin_(parameters, numSystems) {
  updateParameters(parameters, numSystems);
}

void NptLangevin::updateParameters(const Parameters& parameters, std::int64_t numSystems) {
  langevin_.updateParameters(parameters, numSystems);
  auto get = [&](const char* name) { return parameters.perSystem("NPTLangevin", name, numSystems); };
  const auto pressure = get("pressure"), tau = get("tauP"), compressibility = get("compressibility"), temperature = get("temperature"),
             dt = get("dt"), seed = get("seed");
  std::vector<System> systems(static_cast<std::size_t>(numSystems));
  for (std::size_t s = 0; s < systems.size(); ++s) {
    systems[s] = System{pressure[s], tau[s], compressibility[s], temperature[s], dt[s], static_cast<std::uint64_t>(static_cast<std::int64_t>(seed[s]))};
  }
  systems_ = std::move(systems);
}

void NptLangevin::preUpdate(const StepContext& context) {
  {
    const BatchStorage& host = arraysFor(context.backend, Kernel::Integrator, {Field::Status, Field::Velocities, Field::Masses, Field::Stress, Field::Cell, Field::Pbc, Field::Ptr});
    if (static_cast<std::int64_t>(systems_.size()) != host.numSystems()) {
      fail("INVALID_PARAMETER", "NPTLangevin: parameters cover " + std::to_string(systems_.size()) + " systems, the batch has " + std::to_string(host.numSystems()));
    }
    requirePeriodicCells("NPTLangevin", host, context.active);
    const double* v = host.f64(Field::Velocities);
    const double* m = host.f64(Field::Masses);
    const double* stress = host.f64(Field::Stress);
    const double* cells = host.f64(Field::Cell);
    const double forceToAccel = host.units.forceToAccel;
    pressure_.assign(systems_.size(), 0.0);
    forEachActiveSystem(host, context.active, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
      const double volume = std::fabs(determinant(cells + 9 * s));
      if (!(volume > 0.0)) fail("INVALID_CELL", "NPTLangevin: system " + std::to_string(s) + " has no cell volume");
      double kinetic = 0.0;
      for (std::int64_t i = begin; i < end; ++i) kinetic += atomKineticEnergy(m[i], v + 3 * i, forceToAccel);
      const double* sigma = stress + 9 * s;
      pressure_[s] = 2.0 * kinetic / (3.0 * volume) - (sigma[0] + sigma[4] + sigma[8]) / 3.0;
    });
  }
  langevin_.preUpdate(context);
  BatchStorage& host = arraysFor(context.backend, Kernel::Integrator, {Field::Status, Field::Positions, Field::Velocities, Field::Cell, Field::Ptr, Field::SystemId},
      {Field::Positions, Field::Velocities, Field::Cell});
  double* x = host.f64(Field::Positions);
  double* v = host.f64(Field::Velocities);
  double* cells = host.f64(Field::Cell);
  const std::int32_t* systemId = host.i32(Field::SystemId);
  const double kB = host.units.kB;
  forEachActiveSystem(host, context.active, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    const System& system = systems_[s];
    double* cell = cells + 9 * s;
    const double volume = std::fabs(determinant(cell));
    double noise[3];
    atomGaussian3(system.seed, static_cast<std::uint32_t>(systemId[s]), context.step, kBarostatStream, noise);
    const CRescaleConstants constants{system.pressure, system.compressibility, system.tau, kB * system.temperature, system.dt};
    const double mu = cRescaleFactor(pressure_[s], volume, noise[0], constants);
    for (int k = 0; k < 9; ++k) cell[k] *= mu;
    for (std::int64_t k = 3 * static_cast<std::int64_t>(begin); k < 3 * static_cast<std::int64_t>(end); ++k) {
      x[k] *= mu;
      v[k] /= mu;
    }
  });
}

}  // namespace hookmd
