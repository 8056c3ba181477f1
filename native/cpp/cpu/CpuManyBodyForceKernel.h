// The CPU reference of the many-body force kernel: per system, a full list (cpu/FullNeighbors.h) made from
// the same half lists with skin as the pair potentials (NeighborCache); for every centre atom, its neighbours
// within the cutoff gathered from it and the potential's centre routine (cpu/ManyBodyCentre.h: a row style of
// kernels/ManyBodyForceKernel.h, or SNAP's), whose forces on the centre's neighbours are added into the
// system's forces. Systems run in parallel over the thread schedule of SystemSchedule.h; a system
// that runs alone splits its centres into one contiguous range per thread, each adding into a force buffer
// of its own, and the buffers are added in thread order.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cpu/FullNeighbors.h"
#include "cpu/ManyBodyCentre.h"
#include "cpu/SystemSchedule.h"
#include "kernels/ManyBodyForceKernel.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

class CpuManyBodyForceKernel final : public ManyBodyForceKernel {
 public:
  /** A row style's kernel (Tersoff, Stillinger–Weber). */
  explicit CpuManyBodyForceKernel(const ManyBodyForceSpec& spec);
  /**
   * The kernel of any centre routine, for neighbours within `cutoff`, on the arrays Backend::arraysFor gives
   * `kernel`; `model` starts every message.
   */
  CpuManyBodyForceKernel(const char* model, double cutoff, std::shared_ptr<const ManyBodyCentre> centre, Kernel kernel);

  void execute(Backend& backend, const ComputeRequest& request, const AtomTypes& types, double skin,
               std::vector<double>& virial) override;
  NeighborStats neighborStats() const override { return neighbors_.stats(); }
  /** The neighbours within the cutoff of the centres of the last execute(): what a device kernel's rows must hold. */
  struct CentreCounts {
    /** The most any centre had. */
    std::int64_t longest = 0;
    /** Over every centre. */
    std::int64_t entries = 0;
  };
  CentreCounts centreCounts() const;

  /** The gathered neighbours of the centres run at once, the forces on them, and the centre routine's own scratch. */
  struct CentreScratch {
    /** One centre's neighbours and the forces on them; one per lane of the centre routine. */
    struct Slot {
      CentreNeighbors neighbors;
      std::vector<double> fx, fy, fz;
    };
    std::vector<Slot> slots;
    std::unique_ptr<ManyBodyCentre::Work> work;
    /** The neighbours the centres gathered since execute() began. */
    CentreCounts counts;
    /** Grows every per-neighbour array to `count`. */
    void reserve(std::size_t count);
  };

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
  Kernel kernel_;
  double cutoffSq_;
  std::shared_ptr<const ManyBodyCentre> centre_;
  std::vector<Workspace> workspaces_;
  /** Per system, its full list. */
  std::vector<FullNeighbors> full_;
  NeighborCache neighbors_;
};

}  // namespace hookmd
