#include "neighbor/NeighborCache.h"

#include <algorithm>

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

bool NeighborCache::stale(std::int64_t s, const BatchStorage& storage) const {
  const SystemNeighborList& list = lists_[s];
  const std::int32_t* ptr = storage.i32(Field::Ptr);
  if (!list.valid || list.atomBegin != ptr[s] || list.atomCount != ptr[s + 1] - ptr[s]) return true;
  const double* cell = storage.f64(Field::Cell) + 9 * s;
  const std::uint8_t* pbc = storage.u8(Field::Pbc) + 3 * s;
  if (!std::equal(cell, cell + 9, list.cell) || !std::equal(pbc, pbc + 3, list.pbc)) return true;
  const double* x = storage.f64(Field::Positions) + 3 * static_cast<std::int64_t>(list.atomBegin);
  return movedBeyond(list, x, 0.5 * skin_);
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
