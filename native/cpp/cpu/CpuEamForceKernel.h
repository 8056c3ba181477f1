// The CPU reference of the EAM force kernel, over the same per-system half neighbor lists (NeighborCache)
// as the pair potentials: a density pass with Newton's third law, the embedding of every atom, then a force
// pass, over the thread schedule of SystemSchedule.h (a large system's chunk groups accumulate densities
// and forces into buffers of their own, added in group order).
//
// The density pass also reorders each owner's pairs so those inside the cutoff come first, and records
// where they end: the force pass then visits exactly those pairs, with no cutoff test and no work
// for the skin shell. Both passes read the tables packed per pair interval (kernels/EamPairRows.h).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cpu/SystemSchedule.h"
#include "kernels/EamForceKernel.h"
#include "kernels/EamPairRows.h"

namespace hookmd {

class CpuEamForceKernel final : public EamForceKernel {
 public:
  explicit CpuEamForceKernel(const EamForceSpec& spec);

  void execute(Backend& backend, const ComputeRequest& request, const AtomTypes& types, double skin,
               std::vector<double>& virial) override;
  NeighborStats neighborStats() const override { return neighbors_.stats(); }

  /** One neighbor chunk, in the system's local atom numbering. */
  struct Chunk {
    const SystemNeighborList* list;
    /** Mutable: the density pass reorders each owner's pairs. */
    NeighborChunk* chunk;
    const double* x;
    const std::uint8_t* types;
    /** Per owner slot of the list: the end of its pairs inside the cutoff (set by the density pass). */
    std::uint32_t* insideEnd;
    /** The owner slots [slotBegin, slotEnd) of `chunk` to run: all of its own, or one group's part (SystemSchedule.h). */
    std::int32_t slotBegin = 0;
    std::int32_t slotEnd = 0;

    /** Points the task at owner slots [begin, end) of `c`. */
    void cover(NeighborChunk& c, std::int32_t begin, std::int32_t end) {
      chunk = &c;
      slotBegin = begin;
      slotEnd = end;
    }
    /** Points the task at all of `c`. */
    void cover(NeighborChunk& c) { cover(c, c.ownerBegin, c.ownerEnd); }
  };

 private:
  struct Workspace {
    NeighborScratch scratch;
    std::vector<double> wrapped;
    std::vector<double> rho;
    std::vector<double> fp;
    /** A group's density and force buffers; only the atom range the group touches is ever zeroed. */
    std::unique_ptr<double[]> groupRho;
    std::unique_ptr<double[]> groupForces;
    std::size_t groupCapacity = 0;
  };

  void computeSystem(std::int64_t s, const ForcePass& pass, Workspace& workspace);
  void computeLargeSystem(std::int64_t s, const ForcePass& pass);
  /** The chunk-independent part of a system's chunk tasks. */
  Chunk systemChunk(std::int64_t s, const ForcePass& pass, Workspace& workspace);
  void density(const Chunk& chunk, double* rho) const;
  /** F and F' of atoms [begin, end); returns the sum of F. */
  double embed(const std::uint8_t* types, const double* rho, double* fp, std::int64_t begin, std::int64_t end) const;
  void forces(const Chunk& chunk, const double* fp, double* f, bool virial, SystemSums& sums) const;

  const char* model_;
  std::shared_ptr<const EamTables> tables_;
  EamGrid grid_;
  int numTypes_;
  EamPairRows rows_;
  /** Offsets (in doubles) of each type's embedding spline table. */
  std::vector<std::size_t> frhoOffset_;
  std::vector<Workspace> workspaces_;
  /** Per system, the insideEnd array of its chunks (indexed by owner slot). */
  std::vector<std::vector<std::uint32_t>> insideEnd_;
  NeighborCache neighbors_;
};

}  // namespace hookmd
