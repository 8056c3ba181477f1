// The pair-force kernel (docs/ARCHITECTURE.md): neighbor lists with a Verlet skin plus the pair loop of one
// header-only evaluator, over every system of a batch. The API layer (models/PairPotential) validates the
// parameters and assigns species types; a backend creates the kernel that runs them. The CPU reference is
// cpu/CpuPairForceKernel; the CUDA backend brings its own.
#pragma once

#include <cstdint>
#include <vector>

#include "core/Backend.h"
#include "kernels/ResidentStepKernel.h"
#include "math/PairEvaluators.h"
#include "math/SmoothSwitch.h"
#include "neighbor/NeighborCache.h"

namespace hookmd {

/** What one compute writes. Energy is always written. */
struct ComputeRequest {
  /** Forces[N×3]; false leaves the forces field untouched. */
  bool forces = true;
  /** Stress[B×9] and the virial; false leaves the stress field untouched. */
  bool stress = false;
  /**
   * One flag per system: evaluate only the flagged ones (null: all). Engines pass their active systems;
   * a finished system does not move, so its previous energy and forces stay valid.
   */
  const std::uint8_t* systems = nullptr;
  /**
   * false: nothing reads the per-system energies before PairForceKernel::finishEnergies, so a device kernel
   * may leave their sums until then (docs/cuda.md, "Energies only when asked"). The forces, and the check
   * for a non-finite energy, are the same either way.
   */
  bool energies = true;

  /** The fields a force kernel writes: energy, and forces and stress when asked for. */
  FieldSet writes() const { return FieldSet{Field::Energy}.with(Field::Forces, forces).with(Field::Stress, stress); }
  /**
   * The fields it reads. Systems left out keep their results, so a partial compute must also start from the
   * current outputs.
   */
  FieldSet reads() const {
    const FieldSet geometry{Field::Positions, Field::Cell, Field::Pbc, Field::Ptr};
    return systems == nullptr ? geometry : geometry | writes();
  }
};

/** Everything a pair-force kernel needs, already validated. */
struct PairForceSpec {
  PairEvaluator evaluator;
  /** The model's name, first in every message. */
  const char* model;
  /** Species types; 1 when one parameter set serves every pair (then no types are assigned). */
  int numTypes = 1;
  /** numTypes² evaluator parameter structs, (a, b) at a·numTypes + b, as raw bytes. */
  std::vector<unsigned char> params;
  /** numTypes² switches, or empty when no pair is switched. */
  std::vector<SwitchParams> switches;
  /** Largest cutoff over every pair (length units). */
  double cutoff = 0.0;
};

/** Per-atom species types (uint8, in batch atom order) and the version they were computed at. */
struct AtomTypes {
  const std::vector<std::uint8_t>* types;
  std::uint64_t version;
};

class PairForceKernel {
 public:
  virtual ~PairForceKernel() = default;

  /**
   * Writes Energy[B] and, on request, Forces[N×3] and Stress[B×9] (σ = −W/V, ASE's sign) for the flagged
   * systems, and the virial W = Σ d⊗F of each into `virial` (B×9) when stress is requested. `skin` is the
   * Verlet skin (length units, ≥ 0). Throws NativeError INVALID_POSITIONS, SINGULAR_CELL, CELL_TOO_NARROW
   * or SYSTEM_TOO_LARGE from a system's neighbor build.
   */
  virtual void execute(Backend& backend, const ComputeRequest& request, const AtomTypes& types, double skin,
                       std::vector<double>& virial) = 0;
  /**
   * Completes the energies an execute() with `energies` false left unsummed; nothing when none are pending.
   * A kernel that always sums them (the CPU's) has nothing to do.
   */
  virtual void finishEnergies(Backend&) {}
  /** Neighbor-list counters, for tests and benchmarks. */
  virtual NeighborStats neighborStats() const = 0;
  /** A device kernel's resident chunks over its own lists (kernels/ResidentStepKernel.h); null where it has none. */
  virtual ResidentStepKernel* residentSteps() { return nullptr; }
};

}  // namespace hookmd
