// The CPU reference of the many-body force kernel: per system, a full list (cpu/FullNeighbors.h) made from
// the same half lists with skin as the pair potentials (NeighborCache); for every centre atom, its neighbours
// within the cutoff gathered from it and the style's centre routine (native/cpp/math), whose forces on the
// centre's neighbours are added into the system's forces. Systems run in parallel over the thread schedule of SystemSchedule.h; a system
// that runs alone splits its centres into one contiguous range per thread, each adding into a force buffer
// of its own, and the buffers are added in thread order.
#pragma once

#include <cstdint>
#include <vector>

#include "cpu/FullNeighbors.h"
#include "cpu/SystemSchedule.h"
#include "kernels/ManyBodyForceKernel.h"

namespace hookmd {

class CpuManyBodyForceKernel final : public ManyBodyForceKernel {
 public:
  explicit CpuManyBodyForceKernel(const ManyBodyForceSpec& spec);

  void execute(Backend& backend, const ComputeRequest& request, const AtomTypes& types, double skin,
               std::vector<double>& virial) override;
  NeighborStats neighborStats() const override { return neighbors_.stats(); }

  /** Per-neighbour scratch of one centre (the forces on its neighbours, then the style's), sized to the most neighbours. */
  struct CentreScratch {
    CentreNeighbors neighbors;
    std::vector<double> values;
    std::vector<unsigned char> flags;
    std::size_t capacity = 0;
    /** Array a (of kArrays) of the scratch. */
    double* array(int a) { return values.data() + static_cast<std::size_t>(a) * capacity; }
    void reserve(std::size_t count);
    static constexpr int kArrays = 10;
  };
  /** A style's centre routine: adds centre i's energy, and the forces on its neighbours to fx, fy, fz. */
  using CentreFn = void (*)(const unsigned char* rows, int numTypes, int ti, const ManyBodyNeighbors& nb, CentreScratch& scratch,
                            double& energy, double* fx, double* fy, double* fz);

 private:
  struct Workspace {
    NeighborScratch scratch;
    std::vector<double> wrapped;
    CentreScratch centre;
    /** A thread's force buffer, for a system that runs alone. */
    std::vector<double> forces;
  };

  void computeSystem(std::int64_t s, const ForcePass& pass, Workspace& workspace);
  void computeLargeSystem(std::int64_t s, const ForcePass& pass);
  /** One system's lists made current: its full list and the positions it runs on. */
  struct SystemView {
    const FullNeighbors* full;
    const double* x;
    const std::uint8_t* types;
  };
  SystemView prepareSystem(std::int64_t s, const ForcePass& pass, Workspace& workspace);
  /** Centres [begin, end) of a system: their energy and virial into `sums`, forces into `f` (local, 3 per atom) when set. */
  void centres(const SystemView& system, std::int32_t begin, std::int32_t end, CentreScratch& scratch, double* f, bool virial,
               SystemSums& sums) const;

  const char* model_;
  int numTypes_;
  std::vector<unsigned char> rows_;
  double cutoffSq_;
  CentreFn centre_;
  std::vector<Workspace> workspaces_;
  /** Per system, its full list. */
  std::vector<FullNeighbors> full_;
  NeighborCache neighbors_;
};

}  // namespace hookmd
