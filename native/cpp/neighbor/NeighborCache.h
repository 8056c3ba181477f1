// The neighbor state a potential keeps between computes: one half list per system, the positions each list
// was built from, and the key of the storage it belongs to. A system is rebuilt when it has never been
// built, when its atom range or pbc changed, or when one of its atoms moved more than skin/2 since the build
// (then no pair can have crossed from beyond rc + skin to inside rc). A fully periodic cell that deformed
// since the build (x_now = x_build·T) keeps its list while every atom stays within (σ_min(T)·(rc + skin) − rc)/2
// of its build position carried by T, σ_min(T) a lower bound on T's smallest singular value: a pair at least
// rc + skin apart at the build is then still beyond rc. The list's translations then follow the cell, as
// LAMMPS keeps its lists across box changes. Everything is dropped when the storage (id, generation) or the
// list radius changes.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "core/BatchStorage.h"
#include "neighbor/NeighborList.h"

namespace hookmd {

struct NeighborStats {
  /** System lists built since the potential was created. */
  std::int64_t builds = 0;
  /** Times the whole state was dropped (new storage, new layout, new cutoff or skin). */
  std::int64_t resets = 0;
  /** Pairs held now, over every system. */
  std::int64_t pairs = 0;
  /** Systems with a list now. */
  std::int64_t systems = 0;
  /** Heap bytes of the lists, the positions saved at build time included. */
  std::int64_t bytes = 0;
};

class NeighborCache {
 public:
  /** Attaches to `storage`, dropping every list if the storage, its layout or rlist = cutoff + skin changed. */
  void bind(const BatchStorage& storage, double cutoff, double skin);

  /**
   * After update() found system s's list still good: points its lattice translations at the storage's
   * current cell, when it deformed since the build.
   */
  void follow(std::int64_t s, const BatchStorage& storage);

  /**
   * Makes system s's list usable for the storage's current state: a rebuild when stale, else follow(). With
   * `wrapped`, when the list stays and runs on wrapped positions (NeighborList.h, `wrap`), the skin check
   * also writes those positions there: it computes them anyway, and one pass over the atoms is cheaper than
   * two. True when it did.
   */
  bool update(std::int64_t s, const BatchStorage& storage, NeighborScratch& scratch, std::vector<double>* wrapped = nullptr);

  /** Builds system s from the storage's current positions, cell and pbc. */
  void build(std::int64_t s, const BatchStorage& storage, NeighborScratch& scratch);

  const SystemNeighborList& list(std::int64_t s) const { return lists_[s]; }
  /**
   * For a kernel that reorders the pairs within each owner's range (EAM keeps those inside the cutoff
   * first); the set of pairs, and so the list's meaning, must stay the same.
   */
  SystemNeighborList& list(std::int64_t s) { return lists_[s]; }
  NeighborStats stats() const;

 private:
  /** Whether system s needs a (re)build before its pairs can be used; `wrapped` and `wrote` as update()'s. */
  bool stale(std::int64_t s, const BatchStorage& storage, std::vector<double>* wrapped, bool& wrote) const;

  std::uint64_t storageId_ = 0;
  std::uint64_t generation_ = 0;
  std::int64_t numAtoms_ = -1;
  double cutoff_ = 0.0;
  double rlist_ = 0.0;
  double skin_ = 0.0;
  std::vector<SystemNeighborList> lists_;
  std::atomic<std::int64_t> builds_{0};
  std::int64_t resets_ = 0;
};

}  // namespace hookmd
