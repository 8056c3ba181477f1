#include "dynamics/Npt.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/Error.h"
#include "cpu/AtomLoops.h"
#include "dynamics/PeriodicCells.h"
#include "math/DegreesOfFreedom.h"
#include "math/MtkBarostatUpdate.h"
#include "math/NoseHooverChainUpdate.h"
#include "math/Reductions.h"
#include "math/VelocityVerletUpdate.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

namespace {
constexpr int kMaxChainLength = 64;

int chainLengthFrom(const Parameters& parameters) {
  const double value = parameters.scalar("chainLength", 3.0);
  if (!(value >= 1.0 && value <= kMaxChainLength) || value != std::floor(value)) {
    fail("INVALID_PARAMETER", "NPT: chainLength must be an integer in [1, " + std::to_string(kMaxChainLength) + "], got " + std::to_string(value));
  }
  return static_cast<int>(value);
}

/** Σ m·v_c² per axis over atoms [begin, end), in energy units. */
void twiceKineticDiagonal(const double* v, const double* m, std::int32_t begin, std::int32_t end, double forceToAccel, double* out) {
  out[0] = out[1] = out[2] = 0.0;
  for (std::int64_t i = begin; i < end; ++i) {
    for (int c = 0; c < 3; ++c) out[c] += m[i] * v[3 * i + c] * v[3 * i + c];
  }
  for (int c = 0; c < 3; ++c) out[c] /= forceToAccel;
}
}  // namespace

Npt::Npt(const Parameters& parameters, std::int64_t numSystems)
    : chainLength_(chainLengthFrom(parameters)),
      rows_("NPT", std::vector<double>(4 * chainLength_ + 3, 0.0), numSystems) {
  updateParameters(parameters, numSystems);
}

void Npt::updateParameters(const Parameters& parameters, std::int64_t numSystems) {
  if (chainLengthFrom(parameters) != chainLength_) fail("INVALID_PARAMETER", "NPT: chainLength cannot change after the integrator was created");
  auto get = [&](const char* name) { return parameters.perSystem("NPT", name, numSystems); };
  const auto dt = get("dt"), temperature = get("temperature"), pressure = get("pressure"), tdamp = get("tdamp"), pdamp = get("pdamp"),
             couple = get("couple");
  std::vector<System> systems(static_cast<std::size_t>(numSystems));
  for (std::size_t s = 0; s < systems.size(); ++s) {
    systems[s] = System{dt[s], temperature[s], pressure[s], tdamp[s], pdamp[s], couple[s] == 0.0};
  }
  systems_ = std::move(systems);
}

void Npt::thermostats(BatchStorage& host, std::int64_t s, std::int32_t begin, std::int32_t end, std::int64_t frozen, bool barostatFirst) {
  double* v = host.f64(Field::Velocities);
  const double* m = host.f64(Field::Masses);
  const double forceToAccel = host.units.forceToAccel;
  const double kT = host.units.kB * systems_[s].temperature;
  const System& system = systems_[s];
  const int length = chainLength_;
  double* row = rows_.row(s);
  double* omegaDot = row + 4 * length;
  const auto barostatChain = [&] {
    const double q = kT * system.pdamp * system.pdamp;
    const ChainConstants constants{system.iso ? kT : 3.0 * kT, kT, q, q, system.dt};
    const double mass = (end - begin + 1) * kT * system.pdamp * system.pdamp;
    double twoKE = 0.0;
    for (int i = 0; i < 3; ++i) twoKE += mass * omegaDot[i] * omegaDot[i];
    const double scale = chainHalfStep(row + 2 * length, row + 3 * length, length, twoKE, constants);
    for (int i = 0; i < 3; ++i) omegaDot[i] *= scale;
  };
  const auto particleChain = [&] {
    double twoKE = 0.0;
    for (std::int64_t i = begin; i < end; ++i) twoKE += 2.0 * atomKineticEnergy(m[i], v + 3 * i, forceToAccel);
    const double dof = degreesOfFreedom(end - begin, frozen);
    const double scale = chainHalfStep(row, row + length, length, twoKE, chainConstants(dof, kT, system.tdamp, system.dt));
    for (std::int64_t i = begin; i < end; ++i) scaleVelocity(v + 3 * i, scale);
  };
  if (barostatFirst) {
    barostatChain();
    particleChain();
  } else {
    particleChain();
    barostatChain();
  }
}

namespace {
/** nh_v_press: v_c ← v_c·exp(−dt/2·(ω̇_c + mtk2)), with mtk2 = Σ ω̇/(3N). */
void pressVelocities(double* v, std::int32_t begin, std::int32_t end, const double* omegaDot, double dt) {
  const double mtk2 = (omegaDot[0] + omegaDot[1] + omegaDot[2]) / (3.0 * (end - begin));
  double factor[3];
  for (int c = 0; c < 3; ++c) factor[c] = barostatVelocityScale(omegaDot[c], mtk2, dt);
  for (std::int64_t i = begin; i < end; ++i) {
    for (int c = 0; c < 3; ++c) v[3 * i + c] *= factor[c];
  }
}

/**
 * The cell's volume; throws unless the cell is orthorhombic with positive lengths. Off-diagonal entries up to
 * 1e-12 of the longest side count as zero: a cell relaxed through a cell filter carries rounding there.
 */
double orthorhombicVolume(const double* cell, std::int64_t s) {
  const double tolerance = 1e-12 * std::max({std::fabs(cell[0]), std::fabs(cell[4]), std::fabs(cell[8])});
  for (int k = 0; k < 9; ++k) {
    if (k % 4 != 0 && !(std::fabs(cell[k]) <= tolerance)) {
      // The way on for a triclinic cell: the barostat that keeps any shape, or constant volume.
      fail("INVALID_CELL", "NPT: system " + std::to_string(s) +
                               " has a triclinic cell; NPT (MTK, as LAMMPS's fix npt iso/aniso) needs orthorhombic (diagonal) "
                               "cells. NPTLangevin keeps any cell shape, and Langevin or NoseHooverChain run any cell at constant "
                               "volume");
    }
  }
  if (!(cell[0] > 0.0 && cell[4] > 0.0 && cell[8] > 0.0)) fail("INVALID_CELL", "NPT: system " + std::to_string(s) + " needs a cell with positive lengths");
  return cell[0] * cell[4] * cell[8];
}
}  // namespace

void Npt::barostatHalf(BatchStorage& host, std::int64_t s, std::int32_t begin, std::int32_t end) {
  const double* v = host.f64(Field::Velocities);
  const double* m = host.f64(Field::Masses);
  const double* cell = host.f64(Field::Cell) + 9 * s;
  const double* stress = host.f64(Field::Stress) + 9 * s;
  const System& system = systems_[s];
  const double volume = orthorhombicVolume(cell, s);
  double kinetic[3], pressure[3];
  twiceKineticDiagonal(v, m, begin, end, host.units.forceToAccel, kinetic);
  axisPressures(kinetic, stress, volume, system.iso, pressure);
  const double kT = host.units.kB * system.temperature;
  const double atoms = end - begin;
  const BarostatConstants constants{system.pressure, (atoms + 1.0) * kT * system.pdamp * system.pdamp, atoms, system.dt};
  barostatKick(rows_.row(s) + 4 * chainLength_, pressure, volume, kinetic[0] + kinetic[1] + kinetic[2], constants);
}

// Each system is one task (its chains, kinetic tensor and box are per-system sums and state), so results do
// not depend on the thread count.
void Npt::preUpdate(const StepContext& context) {
  BatchStorage& host = arraysFor(context.backend, Kernel::Integrator,
      {Field::Status, Field::Positions, Field::Velocities, Field::Forces, Field::Masses, Field::Stress, Field::Cell, Field::Pbc, Field::Ptr},
      {Field::Positions, Field::Velocities, Field::Cell});
  rows_.requireCount(host.numSystems(), systems_.size());
  requirePeriodicCells("NPT", host, context.active);
  double* x = host.f64(Field::Positions);
  double* v = host.f64(Field::Velocities);
  const double* f = host.f64(Field::Forces);
  const double* m = host.f64(Field::Masses);
  double* cells = host.f64(Field::Cell);
  const double forceToAccel = host.units.forceToAccel;
  forEachActiveSystem(host, context.active, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    if (end == begin) return;
    const System& system = systems_[s];
    const double* omegaDot = rows_.row(s) + 4 * chainLength_;
    thermostats(host, s, begin, end, context.frozenCount == nullptr ? 0 : context.frozenCount[s], true);
    barostatHalf(host, s, begin, end);
    pressVelocities(v, begin, end, omegaDot, system.dt);
    for (std::int64_t i = begin; i < end; ++i) halfKick(v + 3 * i, f + 3 * i, forceToAccel / m[i], 0.5 * system.dt);
    double scale[3];
    for (int c = 0; c < 3; ++c) scale[c] = barostatBoxScale(omegaDot[c], system.dt);
    double* cell = cells + 9 * s;
    const auto remap = [&] {
      for (int c = 0; c < 3; ++c) cell[4 * c] *= scale[c];
      for (std::int64_t i = begin; i < end; ++i) {
        for (int c = 0; c < 3; ++c) x[3 * i + c] *= scale[c];
      }
    };
    remap();
    for (std::int64_t i = begin; i < end; ++i) drift(x + 3 * i, v + 3 * i, system.dt);
    remap();
  });
}

void Npt::postUpdate(const StepContext& context) {
  BatchStorage& host = arraysFor(context.backend, Kernel::Integrator,
      {Field::Status, Field::Velocities, Field::Forces, Field::Masses, Field::Stress, Field::Cell, Field::Ptr},
      {Field::Velocities});
  rows_.requireCount(host.numSystems(), systems_.size());
  double* v = host.f64(Field::Velocities);
  const double* f = host.f64(Field::Forces);
  const double* m = host.f64(Field::Masses);
  const double forceToAccel = host.units.forceToAccel;
  forEachActiveSystem(host, context.active, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    if (end == begin) return;
    const System& system = systems_[s];
    for (std::int64_t i = begin; i < end; ++i) halfKick(v + 3 * i, f + 3 * i, forceToAccel / m[i], 0.5 * system.dt);
    pressVelocities(v, begin, end, rows_.row(s) + 4 * chainLength_, system.dt);
    barostatHalf(host, s, begin, end);
    thermostats(host, s, begin, end, context.frozenCount == nullptr ? 0 : context.frozenCount[s], false);
  });
}

}  // namespace hookmd
