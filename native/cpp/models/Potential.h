// The native force-field interface (docs/models.md). The dynamics engine's stepping loop calls compute() on the
// batch's backend directly, without crossing into JS; the TS models and the binding are thin handles to it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/Backend.h"
#include "kernels/PairForceKernel.h"
#include "kernels/SmallSystemKernel.h"
#include "neighbor/NeighborCache.h"

namespace hookmd {

class Potential {
 public:
  virtual ~Potential() = default;

  /** "LennardJones", "Morse", ...; starts every error message. */
  virtual const char* name() const noexcept = 0;
  /** Largest interaction range over every species pair (length units). */
  virtual double cutoff() const noexcept = 0;
  /** Verlet skin (length units); negative until set. */
  virtual double skin() const noexcept = 0;
  /** Sets the skin (finite, ≥ 0); a change rebuilds every neighbor list at the next compute. */
  virtual void setSkin(double skin) = 0;

  /**
   * Evaluates every system of the backend's batch: Energy[B] (energy units), Forces[N×3] (energy/length)
   * and, on request, Stress[B×9] (energy/length³, ASE's sign: σ = −W/V with W = Σ r⊗F), through the pair-force
   * kernel of the backend; the backend syncs only what the kernel reads.
   * Throws NativeError: MISSING_PAIR, SKIN_UNSET and INVALID_BATCH before any output is written;
   * INVALID_POSITIONS, SINGULAR_CELL, CELL_TOO_NARROW or SYSTEM_TOO_LARGE from a system's neighbor build,
   * when other systems' outputs may already be written; OVERLAPPING_ATOMS after every output is written,
   * when a system's energy is non-finite because two of its atoms overlap.
   */
  virtual void compute(Backend& backend, const ComputeRequest& request) = 0;
  /**
   * Completes the energies that computes with ComputeRequest::energies false left to a device kernel
   * (PairForceKernel::finishEnergies); the caller makes this call before anything reads them.
   */
  virtual void finishEnergies(Backend&) {}

  /** Virial W = Σ_pairs d⊗F (energy units), B×9 row-major, from the last compute that asked for stress. */
  virtual const std::vector<double>& virial() const noexcept = 0;

  /** Neighbor-list counters, for tests and benchmarks. */
  virtual NeighborStats neighborStats() const = 0;

  /**
   * For a pair potential, the checked tables and the species types of `backend`'s atoms (assigned now if
   * they changed: MISSING_PAIR, INVALID_BATCH as compute() throws them), which the small-system path
   * evaluates over all pairs without a neighbor list; false for other potentials.
   */
  virtual bool allPairs(Backend&, AllPairsModel&) { return false; }
  /**
   * The resident chunks of the force kernel this potential last computed with on `backend`
   * (kernels/ResidentStepKernel.h); null when it has none.
   */
  virtual ResidentStepKernel* residentSteps(Backend&) { return nullptr; }
};

}  // namespace hookmd
