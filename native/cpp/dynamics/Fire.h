// FIRE energy minimization, exactly ase.optimize.FIRE (ASE 3.22, without the downhill check) applied to each
// system on its own, with nvalchemi's floor dt ≥ dtMin. The whole step runs in preUpdate with the forces of
// the current positions; postUpdate does nothing. Unit-free like ASE (masses ignored, v += dt·F, dr = dt·v);
// the velocities are the optimizer's own (dynamics/Optimizer.h), and the batch's stay at zero.
//
// Parameters (one value per system; ASE's defaults): dt (0.1, the starting step), dtMax (1.0), dtMin
// (0.02·dt), maxStep (0.2, cap on the norm of a system's whole displacement), nMin (5, P>0 steps before dt
// grows), fInc (1.1), fDec (0.5), alphaStart (0.1), fAlpha (0.99).
//
// state(): two joinState() parts (dynamics/StateParts.h): [numSystems, 4, then per system dt, α, nSteps (the
// current P>0 streak), first (1 until the system's first step, which zeroes its velocities and starts dt
// and α from the parameters; dt and α read 0 until then)], then the velocities (dynamics/AtomRows.h).
#pragma once

#include <cstdint>
#include <vector>

#include "dynamics/Optimizer.h"
#include "kernels/Parameters.h"
#include "dynamics/SystemRows.h"
#include "math/FireUpdate.h"

namespace hookmd {

class Fire final : public Optimizer {
 public:
  Fire(const Parameters& parameters, std::int64_t numSystems);
  const char* name() const noexcept override { return "FIRE"; }
  void stepSystem(std::int64_t s, const OptimizerRows& rows) override;
  const DeviceProgram* deviceProgram() const noexcept override {
    static constexpr DeviceProgram kProgram{DeviceOp::FireProgram, DeviceOp::FireProgramChunked};
    return &kProgram;
  }
  void requireCount(std::int64_t numSystems) const override { rows_.requireCount(numSystems, systems_.size()); }
  void updateParameters(const Parameters& parameters, std::int64_t numSystems) override;

  /** System s's parameters and state row (dt, α, P>0 streak, first), for the CPU small-system path's lanes. */
  const FireParameters& parameters(std::int64_t s) const { return systems_[static_cast<std::size_t>(s)]; }
  double* stateRow(std::int64_t s) { return rows_.row(s); }

 protected:
  std::vector<double> ownState() const override { return rows_.save(); }
  void loadOwnState(const std::vector<double>& state) override { rows_.load(state); }
  void remapOwn(const std::vector<std::int64_t>& keep, std::int64_t added) override { rows_.remap(keep, added); }

 private:
  std::vector<FireParameters> systems_;
  SystemRows rows_;
};

}  // namespace hookmd
