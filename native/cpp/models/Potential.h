// The native force-field interface (DESIGN §6). The dynamics engine's stepping loop calls compute() on the
// batch's backend directly, without crossing into JS; the TS models and the binding are thin handles to it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/Backend.h"
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
};

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
   * and, on request, Stress[B×9] (energy/length³, ASE's sign: σ = −W/V with W = Σ r⊗F). Works on the host
   * arrays; a non-CPU backend is synced to host before and back to the device after.
   * Throws NativeError: MISSING_PAIR, SKIN_UNSET and INVALID_BATCH before any output is written;
   * INVALID_POSITIONS, SINGULAR_CELL, CELL_TOO_NARROW or SYSTEM_TOO_LARGE from a system's neighbor build,
   * when other systems' outputs may already be written; OVERLAPPING_ATOMS after every output is written,
   * when a system's energy is non-finite because two of its atoms overlap.
   */
  virtual void compute(Backend& backend, const ComputeRequest& request) = 0;

  /** Virial W = Σ_pairs d⊗F (energy units), B×9 row-major, from the last compute that asked for stress. */
  virtual const std::vector<double>& virial() const noexcept = 0;

  /** Neighbor-list counters, for tests and benchmarks. */
  virtual NeighborStats neighborStats() const = 0;
};

}  // namespace hookmd
