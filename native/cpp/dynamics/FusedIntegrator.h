// FusedStage's integrator (docs/dynamics.md): several integrators share one batch and one force computation per
// step. Sub-stage k updates only the systems whose status is k; convergence checks move systems from k to
// k + 1, and an optional step budget per sub-stage moves them on when it runs out.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kernels/Integrator.h"
#include "dynamics/SystemRows.h"

namespace hookmd {

class FusedIntegrator final : public Integrator {
 public:
  /**
   * `types` are the sub-integrators in order; parameter "k.name" goes to sub-stage k as "name", and
   * "k.budget" (0 = none) is sub-stage k's step budget per system.
   */
  FusedIntegrator(Backend& backend, const std::vector<std::string>& types, const Parameters& parameters,
                  std::int64_t numSystems);
  const char* name() const noexcept override { return "FusedStage"; }
  void preUpdate(const StepContext& context) override;
  void postUpdate(const StepContext& context) override;
  /** Moves on the systems that spent their sub-stage's budget this step and are still in that sub-stage. */
  void afterConvergence(const StepContext& context) override;
  /** A sub-stage that reads the stress (a cell filter) needs it on every step of the fused run. */
  bool needsStress() const noexcept override {
    for (const auto& stage : stages_) {
      if (stage->needsStress()) return true;
    }
    return false;
  }
  void updateParameters(const Parameters& parameters, std::int64_t numSystems) override;
  /** [numStages, then each sub-integrator's state as (length, values...), then the per-system step counters]. */
  std::vector<double> state() const override;
  /** Also takes a state saved before the counters kept the steps per sub-stage (those start from 0). */
  void loadState(const std::vector<double>& state) override;
  std::vector<double> stageSteps() const override;
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added) override;

 private:
  /** The systems of sub-stage `stage` among the active ones: status == stage. */
  const std::uint8_t* maskFor(const StepContext& context, int stage);

  std::vector<std::unique_ptr<Integrator>> stages_;
  std::vector<std::vector<double>> budgets_;
  /**
   * Per system: steps taken in the current sub-stage and the sub-stage they were counted for (its budget),
   * then the steps taken in each sub-stage (its MD time).
   */
  SystemRows counters_;
  std::vector<std::uint8_t> mask_;
  /** Per system: the sub-stage whose budget it spent in this step's postUpdate, or -1. */
  std::vector<std::int32_t> spent_;
};

/** Splits "k.name" parameters into sub-stage k's own set. */
Parameters subStageParameters(const Parameters& parameters, int stage);

}  // namespace hookmd
