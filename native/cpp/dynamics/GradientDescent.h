// Steepest descent: x += stepSize·F for each system, with the norm of the system's whole displacement
// capped at maxStep like FIRE. The step runs in preUpdate with the forces of the current positions.
//
// Parameters (one value per system): stepSize (length²/energy, since it multiplies a force into a
// displacement), maxStep (length).
// state(): [numSystems, 0] — there is no per-system state.
#pragma once

#include <cstdint>
#include <vector>

#include "dynamics/Optimizer.h"
#include "kernels/Parameters.h"
#include "dynamics/SystemRows.h"

namespace hookmd {

class GradientDescent final : public Optimizer {
 public:
  GradientDescent(const Parameters& parameters, std::int64_t numSystems);
  const char* name() const noexcept override { return "GradientDescent"; }
  void stepSystem(std::int64_t s, const OptimizerRows& rows) override;
  const DeviceProgram* deviceProgram() const noexcept override {
    static constexpr DeviceProgram kProgram{DeviceOp::GradientDescentProgram, DeviceOp::GradientDescentProgramChunked};
    return &kProgram;
  }
  void requireCount(std::int64_t numSystems) const override { rows_.requireCount(numSystems, stepSize_.size()); }
  void updateParameters(const Parameters& parameters, std::int64_t numSystems) override;

 protected:
  std::vector<double> ownState() const override { return rows_.save(); }
  void loadOwnState(const std::vector<double>& state) override { rows_.load(state); }
  void remapOwn(const std::vector<std::int64_t>& keep, std::int64_t added) override { rows_.remap(keep, added); }

 private:
  std::vector<double> stepSize_;
  std::vector<double> maxStep_;
  SystemRows rows_;
};

}  // namespace hookmd
