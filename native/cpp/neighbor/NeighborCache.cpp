#include "neighbor/NeighborCache.h"

#include <algorithm>
#include <cmath>

#include "math/CellMath.h"

namespace hookmd {

void NeighborCache::bind(const BatchStorage& storage, double cutoff, double skin) {
  const double rlist = cutoff + skin;
  if (storage.id() == storageId_ && storage.generation() == generation_ && storage.numAtoms() == numAtoms_ &&
      rlist == rlist_ && skin == skin_ && static_cast<std::int64_t>(lists_.size()) == storage.numSystems()) {
    return;
  }
  storageId_ = storage.id();
  generation_ = storage.generation();
  numAtoms_ = storage.numAtoms();
  cutoff_ = cutoff;
  rlist_ = rlist;
  skin_ = skin;
  lists_.clear();
  lists_.resize(static_cast<std::size_t>(storage.numSystems()));
  ++resets_;
}

namespace {
/**
 * The deformation T = C_build⁻¹·C_now of a fully periodic cell, and the displacement an atom may have
 * relative to its carried build position: (σ·rlist − cutoff)/2 with σ = 1/(1 + ‖T⁻¹ − I‖_F) ≤ σ_min(T).
 * Returns a limit ≤ 0 when the list cannot follow (a singular cell, or too large a deformation).
 */
double deformationLimit(const double* built, const double* now, double rlist, double cutoff, double* deformation) {
  double inverseBuilt[9], inverseNow[9], back[9];
  if (!invert3(built, inverseBuilt) || !invert3(now, inverseNow)) return 0.0;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      double forward = 0.0, backward = 0.0;
      for (int k = 0; k < 3; ++k) {
        forward += inverseBuilt[3 * i + k] * now[3 * k + j];
        backward += inverseNow[3 * i + k] * built[3 * k + j];
      }
      deformation[3 * i + j] = forward;
      back[3 * i + j] = backward;
    }
  }
  double norm = 0.0;
  for (int k = 0; k < 9; ++k) {
    const double d = back[k] - (k % 4 == 0 ? 1.0 : 0.0);
    norm += d * d;
  }
  const double sigma = 1.0 / (1.0 + std::sqrt(norm));
  return 0.5 * (sigma * rlist - cutoff);
}

bool fullyPeriodic(const std::uint8_t* pbc) { return pbc[0] != 0 && pbc[1] != 0 && pbc[2] != 0; }
}  // namespace

bool NeighborCache::stale(std::int64_t s, const BatchStorage& storage, std::vector<double>* wrapped, bool& wrote) const {
  const SystemNeighborList& list = lists_[s];
  const std::int32_t* ptr = storage.i32(Field::Ptr);
  if (!list.valid || list.atomBegin != ptr[s] || list.atomCount != ptr[s + 1] - ptr[s]) return true;
  const double* cell = storage.f64(Field::Cell) + 9 * s;
  const std::uint8_t* pbc = storage.u8(Field::Pbc) + 3 * s;
  if (!std::equal(pbc, pbc + 3, list.pbc)) return true;
  const double* x = storage.f64(Field::Positions) + 3 * static_cast<std::int64_t>(list.atomBegin);
  if (std::equal(cell, cell + 9, list.cell)) {
    // wrappedPositions uses the current basis: the check's build basis gives the same positions only while
    // the two are equal (a cell that deformed and came back keeps the basis it followed).
    double* out = nullptr;
    if (wrapped != nullptr && !list.wrap.empty() && std::equal(list.basis, list.basis + 9, list.buildBasis)) {
      wrapped->resize(3 * static_cast<std::size_t>(list.atomCount));
      out = wrapped->data();
    }
    const bool moved = movedBeyond(list, x, 0.5 * skin_, out);
    wrote = out != nullptr && !moved;
    return moved;
  }
  if (!fullyPeriodic(pbc)) return true;
  double deformation[9];
  const double limit = deformationLimit(list.cell, cell, rlist_, cutoff_, deformation);
  return !(limit > 0.0) || movedBeyondDeformed(list, x, deformation, cell, limit);
}

bool NeighborCache::update(std::int64_t s, const BatchStorage& storage, NeighborScratch& scratch, std::vector<double>* wrapped) {
  bool wrote = false;
  if (stale(s, storage, wrapped, wrote)) {
    build(s, storage, scratch);
    return false;
  }
  follow(s, storage);
  return wrote;
}

void NeighborCache::follow(std::int64_t s, const BatchStorage& storage) {
  SystemNeighborList& list = lists_[s];
  const double* cell = storage.f64(Field::Cell) + 9 * s;
  if (!fullyPeriodic(list.pbc) || std::equal(cell, cell + 9, list.basis)) return;
  double deformation[9];
  deformationLimit(list.cell, cell, rlist_, cutoff_, deformation);
  followDeformation(list, deformation, cell);
}

void NeighborCache::build(std::int64_t s, const BatchStorage& storage, NeighborScratch& scratch) {
  const std::int32_t* ptr = storage.i32(Field::Ptr);
  const std::int32_t begin = ptr[s];
  const std::int32_t count = ptr[s + 1] - begin;
  const double* x = storage.f64(Field::Positions) + 3 * static_cast<std::int64_t>(begin);
  SystemNeighborList& list = lists_[s];
  list.atomBegin = begin;
  buildNeighborList(list, x, count, storage.f64(Field::Cell) + 9 * s, storage.u8(Field::Pbc) + 3 * s, rlist_,
                    scratch, cutoff_);
  // Different systems build on different threads; the counter is the only state they share.
  builds_.fetch_add(1, std::memory_order_relaxed);
}

NeighborStats NeighborCache::stats() const {
  NeighborStats stats;
  stats.builds = builds_.load(std::memory_order_relaxed);
  stats.resets = resets_;
  stats.bytes = static_cast<std::int64_t>(lists_.capacity() * sizeof(SystemNeighborList));
  for (const SystemNeighborList& list : lists_) {
    if (!list.valid) continue;
    ++stats.systems;
    stats.pairs += list.pairs;
    stats.bytes += static_cast<std::int64_t>(list.bytes());
  }
  return stats;
}

}  // namespace hookmd
