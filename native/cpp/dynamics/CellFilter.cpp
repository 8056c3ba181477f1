#include "dynamics/CellFilter.h"

#include <algorithm>
#include <cmath>

#include "core/Error.h"
#include "cpu/AtomLoops.h"
#include "dynamics/PeriodicCells.h"
#include "math/CellFilterMath.h"
#include "math/CellMath.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

namespace {
constexpr int kRowWidth = 19;
constexpr int kStarted = 0, kOriginalCell = 1, kLog = 10;
constexpr int kCellRows = 3;
}  // namespace

CellFilter::CellFilter(std::unique_ptr<Optimizer> optimizer, const Parameters& parameters, std::int64_t numSystems)
    : optimizer_(std::move(optimizer)), rows_("CellFilter", std::vector<double>(kRowWidth, 0.0), numSystems) {
  optimizer_->setExtraRows(kCellRows);
  updateParameters(parameters, numSystems);
}

void CellFilter::updateParameters(const Parameters& parameters, std::int64_t numSystems) {
  auto get = [&](const char* name) { return parameters.perSystem("CellFilter", name, numSystems); };
  const auto pressure = get("scalarPressure"), hydrostatic = get("hydrostaticStrain"), factor = get("cellFactor");
  std::vector<Settings> systems(static_cast<std::size_t>(numSystems));
  for (std::size_t s = 0; s < systems.size(); ++s) {
    if (!std::isfinite(pressure[s])) fail("INVALID_PARAMETER", "CellFilter: scalarPressure must be finite");
    if (!(factor[s] >= 0.0) || !std::isfinite(factor[s])) fail("INVALID_PARAMETER", "CellFilter: cellFactor must be ≥ 0");
    systems[s] = Settings{pressure[s], hydrostatic[s] != 0.0, factor[s]};
  }
  optimizer_->updateParameters(parameters, numSystems);
  systems_ = std::move(systems);
}

void CellFilter::preUpdate(const StepContext& context) {
  BatchStorage& host = arraysFor(context.backend, Kernel::Integrator,
      {Field::Status, Field::Positions, Field::Velocities, Field::Forces, Field::Stress, Field::Cell, Field::Pbc, Field::Ptr},
      {Field::Positions, Field::Velocities, Field::Cell});
  const std::int64_t numSystems = host.numSystems();
  rows_.requireCount(numSystems, systems_.size());
  optimizer_->requireCount(numSystems);
  requirePeriodicCells("CellFilter", host, context.active);
  const std::int32_t* ptr = host.i32(Field::Ptr);
  optimizer_->fitVelocities(ptr, numSystems);
  const std::size_t rows = static_cast<std::size_t>(host.numAtoms() + kCellRows * numSystems);
  x_.resize(3 * rows);
  f_.resize(3 * rows);
  double* x = host.f64(Field::Positions);
  double* v = host.f64(Field::Velocities);
  const double* f = host.f64(Field::Forces);
  const double* stress = host.f64(Field::Stress);
  double* cells = host.f64(Field::Cell);
  forEachActiveSystem(host, context.active, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    const std::int64_t atoms = end - begin;
    const Settings& settings = systems_[s];
    const double factor = settings.cellFactor > 0.0 ? settings.cellFactor : static_cast<double>(atoms);
    double* row = rows_.row(s);
    double* cell = cells + 9 * s;
    if (row[kStarted] == 0.0) {
      for (int k = 0; k < 9; ++k) {
        row[kOriginalCell + k] = cell[k];
        row[kLog + k] = 0.0;
      }
      row[kStarted] = 1.0;
    }
    const double* logDeformation = row + kLog;
    double deformation[9], inverse[9];
    matrixExp(logDeformation, 3, deformation);
    if (!invert3(deformation, inverse)) fail("CELL_COLLAPSED", "CellFilter: the deformation gradient became singular");
    // The cell gradient of the unit-cell filter, G = W·F⁻ᵀ with the virial W = −V(σ + P·I) of E + P·V.
    const double volume = std::fabs(determinant(cell));
    double virial[9];
    for (int k = 0; k < 9; ++k) virial[k] = -volume * (stress[9 * s + k] + (k % 4 == 0 ? settings.scalarPressure : 0.0));
    if (settings.hydrostaticStrain) {
      const double mean = (virial[0] + virial[4] + virial[8]) / 3.0;
      for (int k = 0; k < 9; ++k) virial[k] = k % 4 == 0 ? mean : 0.0;
    }
    double gradient[9], logForce[9];
    for (int i = 0; i < 3; ++i) {
      for (int k = 0; k < 3; ++k) gradient[i * 3 + k] = virial[i * 3] * inverse[k * 3] + virial[i * 3 + 1] * inverse[k * 3 + 1] + virial[i * 3 + 2] * inverse[k * 3 + 2];
    }
    logDeformationForce(logDeformation, gradient, logForce);
    const std::int64_t first = begin + kCellRows * s;
    double* xs = x_.data() + 3 * first;
    double* fs = f_.data() + 3 * first;
    for (std::int64_t i = 0; i < atoms; ++i) {
      timesTransposed(x + 3 * (begin + i), inverse, xs + 3 * i);
      timesMatrix(f + 3 * (begin + i), deformation, fs + 3 * i);
    }
    for (int k = 0; k < 9; ++k) {
      xs[3 * atoms + k] = factor * logDeformation[k];
      fs[3 * atoms + k] = logForce[k] / factor;
    }
    std::fill(v + 3 * begin, v + 3 * end, 0.0);
    optimizer_->stepSystem(s, OptimizerRows{xs, optimizer_->velocities(s), fs, atoms + kCellRows});
    for (int k = 0; k < 9; ++k) row[kLog + k] = xs[3 * atoms + k] / factor;
    matrixExp(row + kLog, 3, deformation);
    const double* original = row + kOriginalCell;
    for (int r = 0; r < 3; ++r) timesTransposed(original + 3 * r, deformation, cell + 3 * r);
    for (std::int64_t i = 0; i < atoms; ++i) timesTransposed(xs + 3 * i, deformation, x + 3 * (begin + i));
  });
}

std::vector<double> CellFilter::state() const {
  const std::vector<double> inner = optimizer_->state();
  std::vector<double> out{static_cast<double>(inner.size())};
  out.insert(out.end(), inner.begin(), inner.end());
  const std::vector<double> own = rows_.save();
  out.insert(out.end(), own.begin(), own.end());
  return out;
}

void CellFilter::loadState(const std::vector<double>& state) {
  if (state.empty() || !(state[0] >= 0.0) || state[0] + 1.0 > static_cast<double>(state.size())) {
    fail("INVALID_STATE", "CellFilter: the saved state is malformed");
  }
  const auto split = state.begin() + 1 + static_cast<std::ptrdiff_t>(state[0]);
  optimizer_->loadState(std::vector<double>(state.begin() + 1, split));
  rows_.load(std::vector<double>(split, state.end()));
}

void CellFilter::remap(const std::vector<std::int64_t>& keep, std::int64_t added) {
  optimizer_->remap(keep, added);
  rows_.remap(keep, added);
}

}  // namespace hookmd
