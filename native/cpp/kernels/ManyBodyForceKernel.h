// The many-body force kernel (docs/ARCHITECTURE.md, "Adding a potential"): potentials whose energy is a sum
// over centre atoms of a function of all their neighbours (Tersoff, Stillinger–Weber), evaluated by the
// centre routines of native/cpp/math over each centre's neighbours within the cutoff. The API layer
// (models/ManyBodyPotential) validates the file's rows and assigns species types; a backend may create its
// own kernel (platform/KernelFactory.h), and the CPU reference (cpu/CpuManyBodyForceKernel) serves
// everywhere else, on the arrays arraysFor (platform/DeviceOperations.h) gives it.
#pragma once

#include <vector>

#include "core/Backend.h"
#include "kernels/PairForceKernel.h"
#include "neighbor/NeighborCache.h"

namespace hookmd {

/**
 * Every many-body style, one line each: its name, LAMMPS's pair style name and the numbers after the element names in one entry of
 * its file. Every dispatcher (the CPU centre table, the style names and entry lengths the binding checks)
 * expands this list; a new style adds one line here and its centre routine in native/cpp/math.
 */
#define HOOKMD_MANY_BODY_STYLES(X)   \
  X(Tersoff, "tersoff", 14)          \
  X(TersoffMod, "tersoff/mod", 17)   \
  X(TersoffZbl, "tersoff/zbl", 18)   \
  X(StillingerWeber, "sw", 11)

enum class ManyBodyStyle : int {
#define HOOKMD_STYLE_ENUM(name, lammps, length) name,
  HOOKMD_MANY_BODY_STYLES(HOOKMD_STYLE_ENUM)
#undef HOOKMD_STYLE_ENUM
};

/** Everything a many-body kernel needs, already validated. */
struct ManyBodyForceSpec {
  ManyBodyStyle style;
  /** The model's name, first in every message. */
  const char* model;
  /** Species types; the rows hold numTypes³ entries, (a, b, c) at (a·numTypes + b)·numTypes + c. */
  int numTypes = 1;
  /** The style's parameter rows (its math header's struct), as raw bytes. */
  std::vector<unsigned char> rows;
  /** Largest cutoff over every entry (length units). */
  double cutoff = 0.0;
};

class ManyBodyForceKernel {
 public:
  virtual ~ManyBodyForceKernel() = default;

  /**
   * Writes Energy[B] and, on request, Forces[N×3] and Stress[B×9] (σ = −W/V) for the flagged systems, and
   * each system's virial W = Σ d⊗F into `virial` (B×9) when stress is requested. `types` holds each atom's
   * species index in the potential. Throws NativeError INVALID_POSITIONS, SINGULAR_CELL, CELL_TOO_NARROW
   * or SYSTEM_TOO_LARGE from a neighbor build, OVERLAPPING_ATOMS for a non-finite energy.
   */
  virtual void execute(Backend& backend, const ComputeRequest& request, const AtomTypes& types, double skin,
                       std::vector<double>& virial) = 0;
  virtual NeighborStats neighborStats() const = 0;
};

}  // namespace hookmd
