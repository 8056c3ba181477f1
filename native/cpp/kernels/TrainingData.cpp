#include "kernels/TrainingData.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/Error.h"
#include "core/ThreadPool.h"
#include "math/PairGeometry.h"

namespace hookmd {

namespace {
// The potentials' rule (PairPotential::finishSystem): a cell of negligible volume has no stress.
double cellVolume(const double* cell) {
  double scale = 0.0;
  for (int k = 0; k < 9; ++k) scale = std::max(scale, std::fabs(cell[k]));
  const double volume = std::fabs(det3(cell));
  return scale > 0.0 && volume > 1e-12 * scale * scale * scale ? volume : 0.0;
}

bool allFinite(const double* values, std::int64_t count) {
  for (std::int64_t k = 0; k < count; ++k) {
    if (!std::isfinite(values[k])) return false;
  }
  return true;
}
}  // namespace

void TrainingData::requirePartition(const BatchStorage& storage, const char* owner) {
  const std::int32_t* ptr = storage.i32(Field::Ptr);
  bool ok = ptr[0] == 0 && ptr[storage.numSystems()] == storage.numAtoms();
  for (std::int64_t s = 0; ok && s < storage.numSystems(); ++s) ok = ptr[s + 1] >= ptr[s];
  if (!ok) fail("INVALID_BATCH", std::string(owner) + ": the batch's ptr offsets do not partition its atoms");
}

TrainingData::TrainingData(const BatchStorage& storage, const ReferenceArrays& refs, double cutoff, const char* owner) {
  const std::int64_t count = storage.numSystems();
  const std::int64_t atoms = storage.numAtoms();
  const std::int32_t* ptr = storage.i32(Field::Ptr);
  const double* x = storage.f64(Field::Positions);
  const double* cells = storage.f64(Field::Cell);
  const std::uint8_t* pbc = storage.u8(Field::Pbc);
  const std::int32_t* z = storage.i32(Field::AtomicNumbers);
  systems_.resize(static_cast<std::size_t>(count));
  positions_.resize(3 * static_cast<std::size_t>(atoms));
  refForces_.assign(refs.forces, refs.forces + 3 * atoms);
  atomicNumbers_.assign(z, z + atoms);

  for (std::int64_t s = 0; s < count; ++s) {
    TrainingSystem& system = systems_[s];
    system.atomBegin = ptr[s];
    system.atomCount = ptr[s + 1] - ptr[s];
    system.volume = cellVolume(cells + 9 * s);
    system.hasEnergy = refs.present[3 * s] != 0;
    system.hasForces = refs.present[3 * s + 1] != 0;
    system.hasStress = refs.present[3 * s + 2] != 0;
    system.refEnergy = refs.energy[s];
    std::copy(refs.stress + 9 * s, refs.stress + 9 * s + 9, system.refStress);
    const std::string where = std::string(owner) + ": system " + std::to_string(s);
    if ((system.hasEnergy && !std::isfinite(system.refEnergy)) || (system.hasStress && !allFinite(system.refStress, 9)) ||
        (system.hasForces && !allFinite(refForces_.data() + 3 * system.atomBegin, 3 * system.atomCount))) {
      fail("INVALID_REFERENCE", where + " has a non-finite reference value");
    }
    if (system.hasStress && system.volume == 0.0) {
      fail("INVALID_REFERENCE", where + " has a reference stress but no cell volume (stress is defined only for a cell)");
    }
  }

  ThreadPool& pool = ThreadPool::global();
  std::vector<NeighborScratch> scratch(static_cast<std::size_t>(pool.threads()));
  pool.parallelFor(0, count, 1, [&](std::int64_t lo, std::int64_t hi, int thread) {
    for (std::int64_t s = lo; s < hi; ++s) {
      TrainingSystem& system = systems_[s];
      const double* local = x + 3 * static_cast<std::int64_t>(system.atomBegin);
      system.list.atomBegin = system.atomBegin;
      buildNeighborList(system.list, local, system.atomCount, cells + 9 * s, pbc + 3 * s, cutoff, scratch[thread]);
      double* out = positions_.data() + 3 * static_cast<std::int64_t>(system.atomBegin);
      if (system.list.wrap.empty()) {
        std::copy(local, local + 3 * static_cast<std::int64_t>(system.atomCount), out);
      } else {
        wrappedPositions(system.list, local, out);
      }
      // The build-time copy serves only the skin check, which a fixed configuration never needs.
      std::vector<double>().swap(system.list.positions);
    }
  });
}

}  // namespace hookmd
