// The CPU reference of the pair-force kernel: per-system half neighbor lists with Newton's third law,
// threading and the stress bookkeeping, written once. The evaluator-specific pair loop comes from
// CpuPairLoop.h. Batches run one system per task; a system of at least kParallelAtoms atoms runs alone, its
// neighbor chunks split into one group per thread, each group accumulating into its own force buffer, and
// the buffers summed in group order, so results never depend on the thread count.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/PairForceKernel.h"

namespace hookmd {

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

class CpuPairForceKernel : public PairForceKernel {
 public:
  void execute(Backend& backend, const ComputeRequest& request, const AtomTypes& types, double skin,
               std::vector<double>& virial) override;
  NeighborStats neighborStats() const override { return neighbors_.stats(); }

 protected:
  CpuPairForceKernel(const char* model, double cutoff) : model_(model), cutoff_(cutoff) {}
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
  struct Pass {
    BatchStorage& storage;
    const ComputeRequest& request;
    const std::uint8_t* types;
    std::vector<double>& virial;
  };

  const double* localPositions(std::int64_t s, const BatchStorage& storage, Workspace& workspace) const;
  void computeSystem(std::int64_t s, const Pass& pass, Workspace& workspace);
  void computeLargeSystem(std::int64_t s, const Pass& pass);
  void finishSystem(std::int64_t s, const Pass& pass, const PairSums& sums);

  const char* model_;
  double cutoff_;
  std::vector<Workspace> workspaces_;
  NeighborCache neighbors_;
};

/** The CPU kernel for `spec`'s evaluator and tables. */
std::unique_ptr<PairForceKernel> createCpuPairForceKernel(const PairForceSpec& spec);

}  // namespace hookmd
