// The centre routine of a many-body potential on the CPU: what cpu/CpuManyBodyForceKernel calls for every
// centre atom with its neighbours within the cutoff. The row styles of kernels/ManyBodyForceKernel.h
// (Tersoff, Stillinger–Weber) are one implementation, over their parameter rows; SNAP (cpu/SnapCentre.h)
// is another, over its bispectrum tables. Each thread keeps its own Work, so a routine may keep scratch there.
#pragma once

#include <cstddef>
#include <memory>

#include "math/ManyBodyNeighbors.h"

namespace hookmd {

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
};

}  // namespace hookmd
