// The CPU reference of the many-body force kernel: per system, the full lists within the cutoff
// (cpu/ShortNeighbors.h) from the same half lists with skin as the pair potentials (NeighborCache), then the
// style's centre routine (native/cpp/math) for every atom, whose forces on the centre's neighbours are added
// into the system's forces. Systems run in parallel over the thread schedule of SystemSchedule.h; a system
// that runs alone splits its centres into one contiguous range per thread, each adding into a force buffer
// of its own, and the buffers are added in thread order.
#pragma once

#include <cstdint>
#include <vector>

#include "cpu/ShortNeighbors.h"
#include "cpu/SystemSchedule.h"
#include "kernels/ManyBodyForceKernel.h"

namespace hookmd {

class CpuManyBodyForceKernel final : public ManyBodyForceKernel {
 public:
  explicit CpuManyBodyForceKernel(const ManyBodyForceSpec& spec);

  void execute(Backend& backend, const ComputeRequest& request, const AtomTypes& types, double skin,
               std::vector<double>& virial) override;
  NeighborStats neighborStats() const override { return neighbors_.stats(); }

  /** Per-neighbour scratch of one centre, sized to the most neighbours any atom has. */
  struct CentreScratch {
    std::vector<double> values;
    std::vector<unsigned char> flags;
    int capacity = 0;
    /** Array a (of kArrays) of the scratch. */
    double* array(int a) { return values.data() + static_cast<std::size_t>(a) * capacity; }
    void reserve(int count);
    static constexpr int kArrays = 10;
  };
  /** Centre i of the system whose short lists are `lists`: adds its energy, forces (on `f`, local) and virial. */
  using CentreFn = void (*)(const unsigned char* rows, int numTypes, int ti, const ManyBodyNeighbors& nb, CentreScratch& scratch,
                            double& energy, double* fx, double* fy, double* fz);

 private:
  struct Workspace {
    NeighborScratch scratch;
    std::vector<double> wrapped;
    ShortNeighbors lists;
    CentreScratch centre;
    /** A thread's force buffer, for a system that runs alone. */
    std::vector<double> forces;
  };

  void computeSystem(std::int64_t s, const ForcePass& pass, Workspace& workspace);
  void computeLargeSystem(std::int64_t s, const ForcePass& pass);
  /** The short lists of system s, in `workspace`; returns the system's local types. */
  const std::uint8_t* prepareSystem(std::int64_t s, const ForcePass& pass, Workspace& workspace);
  /** Centres [begin, end) of a system: their energy and virial into `sums`, forces into `f` (local, 3 per atom) when set. */
  void centres(const ShortNeighbors& lists, const std::uint8_t* types, std::int32_t begin, std::int32_t end,
               CentreScratch& scratch, double* f, bool virial, SystemSums& sums) const;

  const char* model_;
  int numTypes_;
  std::vector<unsigned char> rows_;
  double cutoffSq_;
  CentreFn centre_;
  std::vector<Workspace> workspaces_;
  NeighborCache neighbors_;
};

}  // namespace hookmd
