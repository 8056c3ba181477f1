// The CPU reference for every pair potential: species tables, neighbor lists, threading and the stress
// bookkeeping, written once. A concrete potential (PairPotentialOf<Eval>) only supplies the per-chunk pair
// loop over its header-only evaluator. Batches run one system per task; a system of at least
// kParallelAtoms atoms runs alone, its neighbor chunks split into one group per thread, each group
// accumulating into its own force buffer, and the buffers summed in group order.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "math/SmoothSwitch.h"
#include "models/Potential.h"

namespace hookmd {

/** One species pair of a parameter table. z1 = z2 = 0 is the default for every pair (alone in its table). */
struct PairKey {
  int z1 = 0;
  int z2 = 0;
  /** Interaction range (length units). */
  double cutoff = 0.0;
};

/** Per-group sums of one system's pair loop. */
struct PairSums {
  double energy = 0.0;
  /** xx, yy, zz, xy, xz, yz of W = Σ d⊗F. */
  double virial[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
};

/** One neighbor chunk's pair loop, with everything in the system's local atom numbering. */
struct ChunkTask {
  const SystemNeighborList* list;
  const NeighborChunk* chunk;
  const double* x;
  /** Null for an energy-only compute. */
  double* f;
  /** Species type of each atom; unused when the table has one type. */
  const std::uint8_t* types;
  bool virial;
};

/**
 * A system runs alone, parallel over its atoms, when it has at least this many atoms (below it the
 * threads' overhead exceeds the gain; measured, bench/RESULTS.md) and more than a thread's share of the
 * batch (otherwise the per-system schedule already keeps every thread busy).
 */
constexpr std::int32_t kParallelAtoms = 1024;

class PairPotential : public Potential {
 public:
  const char* name() const noexcept override { return name_; }
  double cutoff() const noexcept override { return maxCutoff_; }
  double skin() const noexcept override { return skin_; }
  void setSkin(double skin) override;
  void compute(Backend& backend, const ComputeRequest& request) override;
  const std::vector<double>& virial() const noexcept override { return virial_; }
  NeighborStats neighborStats() const override { return neighbors_.stats(); }

 protected:
  /**
   * Validates the species and cutoffs of `keys` (model name first in every message) and lays out the
   * type tables. `switchOn` > 0 switches every pair off smoothly between switchOn and its cutoff; without
   * `skin` the potential cannot compute until setSkin() (the TS model sets the batch units' default).
   */
  PairPotential(const char* name, const std::vector<PairKey>& keys, double switchOn, std::optional<double> skin);

  int numTypes() const { return numTypes_; }
  /** Both table slots (a, b) and (b, a) of a validated key. */
  std::size_t slot(const PairKey& key, bool swapped) const;
  std::size_t tableSize() const { return static_cast<std::size_t>(numTypes_) * numTypes_; }
  bool switched() const { return !switches_.empty(); }
  const SwitchParams* switches() const { return switches_.data(); }
  /** "Ar-Kr", or "default" for the every-pair key: how messages name a table row. */
  static std::string label(const PairKey& key);

  /** Adds one chunk's pairs to `sums` (and to task.f when forces are requested). */
  virtual void evaluateChunk(const ChunkTask& task, PairSums& sums) const = 0;

 private:
  struct Workspace {
    NeighborScratch scratch;
    std::vector<double> wrapped;
    /** A thread's force buffer; left uninitialised so only the atom range it covers is ever paged in. */
    std::unique_ptr<double[]> forces;
    std::size_t forceCapacity = 0;
  };

  void checkLayout(const BatchStorage& storage) const;
  void assignTypes(const BatchStorage& storage);
  const double* localPositions(std::int64_t s, const BatchStorage& storage, Workspace& workspace) const;
  void computeSystem(std::int64_t s, BatchStorage& storage, const ComputeRequest& request, Workspace& workspace);
  void computeLargeSystem(std::int64_t s, BatchStorage& storage, const ComputeRequest& request);
  void finishSystem(std::int64_t s, BatchStorage& storage, const ComputeRequest& request, const PairSums& sums);

  const char* name_;
  double maxCutoff_ = 0.0;
  double skin_ = -1.0;
  int numTypes_ = 1;
  bool wildcard_ = false;
  /** Type of each atomic number (−1: no table row mentions it). */
  std::vector<int> typeOfZ_;
  std::vector<int> zOfType_;
  /** numTypes² flags: whether the table defines the pair. */
  std::vector<std::uint8_t> defined_;
  std::vector<SwitchParams> switches_;
  std::vector<std::uint8_t> types_;
  std::vector<double> virial_;
  std::vector<Workspace> workspaces_;
  NeighborCache neighbors_;
};

}  // namespace hookmd
