// L-BFGS, step for step as ase.optimize.LBFGS (ASE 3.22, without line search) applied to each system on its
// own: its own history of the last `memory` position and force changes. The whole step runs in preUpdate
// with the forces of the current positions.
//
// Parameters (one value per system; ASE's defaults): memory (100), maxStep (0.2, cap on the longest row of
// the step, an atom's displacement), alpha (70, the initial Hessian guess in energy/length²), damping (1).
//
// state(): [numSystems, then per system: rows, iteration, stored, r0 (3·rows), f0 (3·rows), then the stored
// pairs oldest first as ρ, s (3·rows), y (3·rows)]; rows is 0 until the system's first step.
#pragma once

#include <cstdint>
#include <vector>

#include "dynamics/Optimizer.h"
#include "kernels/Parameters.h"

namespace hookmd {

class Lbfgs final : public Optimizer {
 public:
  Lbfgs(const Parameters& parameters, std::int64_t numSystems);
  const char* name() const noexcept override { return "LBFGS"; }
  void stepSystem(std::int64_t s, const OptimizerRows& rows) override;
  void requireCount(std::int64_t numSystems) const override;
  void updateParameters(const Parameters& parameters, std::int64_t numSystems) override;

 protected:
  std::vector<double> ownState() const override;
  void loadOwnState(const std::vector<double>& state) override;
  void remapOwn(const std::vector<std::int64_t>& keep, std::int64_t added) override;

 private:
  struct Settings {
    int memory;
    double maxStep;
    double alpha;
    double damping;
  };
  /** One system's history; the pairs live in a ring of `memory` slots whose oldest is at `head`. */
  struct History {
    std::int64_t rows = 0;
    std::int64_t iteration = 0;
    int stored = 0;
    int head = 0;
    std::vector<double> r0, f0, s, y, rho;
    /** Scratch for one step: the step, the two-loop coefficients, the pair pointers. */
    std::vector<double> step, a;
    std::vector<const double*> sPointers, yPointers;
  };
  void start(History& history, std::int64_t rows, int memory) const;
  void push(History& history, const double* x, const double* f, int memory) const;

  std::vector<Settings> systems_;
  std::vector<History> histories_;
};

}  // namespace hookmd
