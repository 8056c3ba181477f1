// The centre routine of a many-body potential on the CPU: what cpu/CpuManyBodyForceKernel calls for every
// centre atom with its neighbours within the cutoff. The row styles of kernels/ManyBodyForceKernel.h
// (Tersoff, Stillinger–Weber) are one implementation, over their parameter rows; SNAP (cpu/SnapCentre.h)
// is another, over its bispectrum tables. Each thread keeps its own Work, so a routine may keep scratch there.
#pragma once

#include <cstddef>
#include <memory>

#include "math/ManyBodyNeighbors.h"

namespace hookmd {

/** The most centres a centre routine takes at once. */
constexpr int kMaxCentreLanes = 8;

class ManyBodyCentre {
 public:
  /** One thread's scratch, grown to the most neighbours a centre has. */
  class Work {
   public:
    virtual ~Work() = default;
    virtual void reserve(std::size_t neighbours) = 0;
  };

  virtual ~ManyBodyCentre() = default;
  virtual std::unique_ptr<Work> makeWork() const = 0;
  /**
   * Adds centre atom i's energy (its species type `ti`) to `energy`, and the forces its energy puts on its
   * neighbours, F_m = −∂E_i/∂d_m, to fx, fy, fz (the kernel gives the centre their negative sum).
   */
  virtual void centre(int ti, const ManyBodyNeighbors& nb, Work& work, double& energy, double* fx, double* fy, double* fz) const = 0;

  /** How many centres centres() takes at once (SIMD lanes, at most kMaxCentreLanes); 1 for a routine that runs one at a time. */
  virtual int lanes() const { return 1; }
  /**
   * `count` ≤ lanes() centres at once: centre c of type types[c] with neighbours nbs[c], forces into fx[c],
   * fy[c], fz[c], and the energies added to `energy` in centre order. One centre() after another by default.
   */
  virtual void centres(int count, const int* types, const ManyBodyNeighbors* nbs, Work& work, double& energy, double* const* fx,
                       double* const* fy, double* const* fz) const {
    for (int c = 0; c < count; ++c) centre(types[c], nbs[c], work, energy, fx[c], fy[c], fz[c]);
  }
};

}  // namespace hookmd
