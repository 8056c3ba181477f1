// The CPU reference of the pair-force kernel: per-system half neighbor lists with Newton's third law, over
// the thread schedule of SystemSchedule.h. The evaluator-specific pair loop comes from CpuPairLoop.h.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cpu/SystemSchedule.h"
#include "kernels/PairForceKernel.h"

namespace hookmd {

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
  /** The owner slots [slotBegin, slotEnd) of `chunk` to run: all of its own, or one group's part (SystemSchedule.h). */
  std::int32_t slotBegin = 0;
  std::int32_t slotEnd = 0;

  /** Points the task at owner slots [begin, end) of `c`. */
  void cover(const NeighborChunk& c, std::int32_t begin, std::int32_t end) {
    chunk = &c;
    slotBegin = begin;
    slotEnd = end;
  }
  /** Points the task at all of `c`. */
  void cover(const NeighborChunk& c) { cover(c, c.ownerBegin, c.ownerEnd); }
};

class CpuPairForceKernel : public PairForceKernel {
 public:
  void execute(Backend& backend, const ComputeRequest& request, const AtomTypes& types, double skin,
               std::vector<double>& virial) override;
  NeighborStats neighborStats() const override { return neighbors_.stats(); }

 protected:
  CpuPairForceKernel(const char* model, double cutoff) : model_(model), cutoff_(cutoff) {}
  /** Adds one chunk's pairs to `sums` (and to task.f when forces are requested). */
  virtual void evaluateChunk(const ChunkTask& task, SystemSums& sums) const = 0;

 private:
  struct Workspace {
    NeighborScratch scratch;
    std::vector<double> wrapped;
    /** A thread's force buffer; left uninitialised so only the atom range it covers is ever paged in. */
    std::unique_ptr<double[]> forces;
    std::size_t forceCapacity = 0;
  };

  void computeSystem(std::int64_t s, const ForcePass& pass, Workspace& workspace);
  void computeLargeSystem(std::int64_t s, const ForcePass& pass);

  const char* model_;
  double cutoff_;
  std::vector<Workspace> workspaces_;
  NeighborCache neighbors_;
};

/** The CPU kernel for `spec`'s evaluator and tables. */
std::unique_ptr<PairForceKernel> createCpuPairForceKernel(const PairForceSpec& spec);

}  // namespace hookmd
