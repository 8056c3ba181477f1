// The EAM force kernel: two passes over the same half neighbor lists as the pair-force kernel (densities,
// then forces), with the embedding in between. The API layer (models/Eam) validates the potential file and
// assigns species types; a backend may register its own kernel (platform/KernelFactory.h), and the CPU
// reference (cpu/CpuEamForceKernel) serves everywhere else, on the arrays arraysFor (platform/DeviceOperations.h) gives it.
#pragma once

#include <memory>
#include <vector>

#include "core/Backend.h"
#include "kernels/PairForceKernel.h"
#include "kernels/EamTables.h"
#include "neighbor/NeighborCache.h"

namespace hookmd {

/** Everything an EAM kernel needs, already validated. */
struct EamForceSpec {
  /** The model's name, first in every message. */
  const char* model;
  /** The splined tables; shared, so the kernel and the model keep one copy. */
  std::shared_ptr<const EamTables> tables;
};

class EamForceKernel {
 public:
  virtual ~EamForceKernel() = default;

  /**
   * Writes Energy[B] and, on request, Forces[N×3] and Stress[B×9] (σ = −W/V) for the flagged systems, and
   * each system's virial W = Σ d⊗F into `virial` (B×9) when stress is requested. `types` holds each atom's
   * element index in the potential. Throws NativeError INVALID_POSITIONS, SINGULAR_CELL, CELL_TOO_NARROW
   * or SYSTEM_TOO_LARGE from a neighbor build, OVERLAPPING_ATOMS for a non-finite energy.
   */
  virtual void execute(Backend& backend, const ComputeRequest& request, const AtomTypes& types, double skin,
                       std::vector<double>& virial) = 0;
  virtual NeighborStats neighborStats() const = 0;
};

}  // namespace hookmd
