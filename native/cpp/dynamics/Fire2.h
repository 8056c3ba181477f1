// FIRE 2.0 energy minimization (Guénolé et al., Comput. Mater. Sci. 175, 109584 (2020), Algorithm 2) per
// system: semi-implicit Euler (v += dt·F, mix, x += dt·v), the inertia correction x −= ½·dt·v when P = F·v
// ≤ 0, and the delayed start. The whole step runs in preUpdate; postUpdate does nothing. Unit-free like
// FIRE: unit masses, so velocities carry force·time units; they are the optimizer's own (dynamics/Optimizer.h),
// and the batch's stay at zero. The forces used right after an inertia
// correction are those of the uncorrected positions, since the engine computes forces once per step.
//
// Parameters (one value per system): dt (starting step), dtMax, dtMin (dt only shrinks while dt·fDec ≥
// dtMin), maxStep (cap on the norm of a system's whole displacement; a capped step scales the velocities
// by the same factor), nDelay (P>0 steps before dt grows; no dt decrease or α reset during the first
// nDelay steps), fInc, fDec, alphaStart, fAlpha.
//
// state(): two joinState() parts (dynamics/StateParts.h): [numSystems, 4, then per system dt, α, nPositive (the
// current P>0 streak), steps (steps taken; 0 until the first step, which zeroes the velocities and starts
// dt and α from the parameters; dt and α read 0 until then)], then the velocities (dynamics/AtomRows.h).
#pragma once

#include <cstdint>
#include <vector>

#include "dynamics/Optimizer.h"
#include "kernels/Parameters.h"
#include "dynamics/SystemRows.h"
#include "math/Fire2Update.h"

namespace hookmd {

class Fire2 final : public Optimizer {
 public:
  Fire2(const Parameters& parameters, std::int64_t numSystems);
  const char* name() const noexcept override { return "FIRE2"; }
  void stepSystem(std::int64_t s, const OptimizerRows& rows) override;
  const DeviceProgram* deviceProgram() const noexcept override {
    static constexpr DeviceProgram kProgram{DeviceOp::FireTwoProgram, DeviceOp::FireTwoProgramChunked};
    return &kProgram;
  }
  void requireCount(std::int64_t numSystems) const override { rows_.requireCount(numSystems, systems_.size()); }
  void updateParameters(const Parameters& parameters, std::int64_t numSystems) override;

 protected:
  std::vector<double> ownState() const override { return rows_.save(); }
  void loadOwnState(const std::vector<double>& state) override { rows_.load(state); }
  void remapOwn(const std::vector<std::int64_t>& keep, std::int64_t added) override { rows_.remap(keep, added); }

 private:
  std::vector<Fire2Parameters> systems_;
  SystemRows rows_;
};

}  // namespace hookmd
