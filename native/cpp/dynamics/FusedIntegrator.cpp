#include "dynamics/FusedIntegrator.h"

#include <algorithm>

#include "core/Error.h"
#include "dynamics/IntegratorFactory.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

namespace {
/** The counter columns before the steps per sub-stage: steps in the current sub-stage, and which one it is. */
constexpr std::size_t kBudgetColumns = 2;
}  // namespace

Parameters subStageParameters(const Parameters& parameters, int stage) {
  const std::string prefix = std::to_string(stage) + ".";
  Parameters own;
  for (const auto& [name, values] : parameters.all()) {
    if (name.compare(0, prefix.size(), prefix) == 0) own.set(name.substr(prefix.size()), values);
  }
  return own;
}

FusedIntegrator::FusedIntegrator(Backend& backend, const std::vector<std::string>& types, const Parameters& parameters,
                                 std::int64_t numSystems)
    : counters_("FusedStage", std::vector<double>(kBudgetColumns + types.size(), 0.0), numSystems) {
  if (types.empty()) fail("INVALID_PARAMETER", "FusedStage: needs at least one sub-stage");
  for (std::size_t k = 0; k < types.size(); ++k) {
    if (types[k].rfind("Fused", 0) == 0) fail("INVALID_PARAMETER", "FusedStage: sub-stages cannot be fused stages themselves");
    stages_.push_back(createIntegrator(backend, types[k], subStageParameters(parameters, static_cast<int>(k)), numSystems));
  }
  updateParameters(parameters, numSystems);
}

void FusedIntegrator::updateParameters(const Parameters& parameters, std::int64_t numSystems) {
  budgets_.clear();
  for (std::size_t k = 0; k < stages_.size(); ++k) {
    const Parameters own = subStageParameters(parameters, static_cast<int>(k));
    stages_[k]->updateParameters(own, numSystems);
    budgets_.push_back(own.perSystem("FusedStage", "budget", numSystems));
  }
}

const std::uint8_t* FusedIntegrator::maskFor(const StepContext& context, int stage) {
  const BatchStorage& host = arraysFor(context.backend, Kernel::Integrator, {Field::Status});
  const std::int64_t numSystems = host.numSystems();
  const std::int32_t* status = host.i32(Field::Status);
  mask_.resize(static_cast<std::size_t>(numSystems));
  for (std::int64_t s = 0; s < numSystems; ++s) mask_[s] = context.active[s] && status[s] == stage ? 1 : 0;
  return mask_.data();
}

void FusedIntegrator::preUpdate(const StepContext& context) {
  for (std::size_t k = 0; k < stages_.size(); ++k) {
    stages_[k]->preUpdate(context.subStage(maskFor(context, static_cast<int>(k)), static_cast<std::int32_t>(k)));
  }
}

void FusedIntegrator::postUpdate(const StepContext& context) {
  const std::int64_t numSystems = context.backend.numSystems();
  counters_.requireCount(numSystems, budgets_.front().size());
  // Which sub-stage updated each system, for its budget.
  std::vector<std::int32_t> stageOf(static_cast<std::size_t>(numSystems), -1);
  for (std::size_t k = 0; k < stages_.size(); ++k) {
    const std::uint8_t* mask = maskFor(context, static_cast<int>(k));
    for (std::int64_t s = 0; s < numSystems; ++s) {
      if (mask[s]) stageOf[s] = static_cast<std::int32_t>(k);
    }
    stages_[k]->postUpdate(context.subStage(mask, static_cast<std::int32_t>(k)));
  }
  spent_.assign(static_cast<std::size_t>(numSystems), -1);
  for (std::int64_t s = 0; s < numSystems; ++s) {
    const std::int32_t k = stageOf[s];
    if (k < 0) continue;
    double* counter = counters_.row(s);
    if (counter[1] != k) {
      counter[0] = 0.0;
      counter[1] = k;
    }
    counter[0] += 1.0;
    counter[kBudgetColumns + static_cast<std::size_t>(k)] += 1.0;
    const double budget = budgets_[k][s];
    if (budget > 0 && counter[0] >= budget) spent_[s] = k;
  }
}

void FusedIntegrator::afterConvergence(const StepContext& context) {
  bool any = false;
  for (const std::int32_t k : spent_) any = any || k >= 0;
  if (!any) return;
  std::int32_t* status = arraysFor(context.backend, Kernel::Integrator, {Field::Status}, {Field::Status}).i32(Field::Status);
  // A system that converged out of the sub-stage in this step has left it already: it leaves as converged.
  for (std::size_t s = 0; s < spent_.size(); ++s) {
    if (spent_[s] >= 0 && status[s] == spent_[s]) status[s] = spent_[s] + 1;
  }
  spent_.clear();
}

std::vector<double> FusedIntegrator::state() const {
  std::vector<double> out{static_cast<double>(stages_.size())};
  for (const auto& stage : stages_) {
    const std::vector<double> own = stage->state();
    out.push_back(static_cast<double>(own.size()));
    out.insert(out.end(), own.begin(), own.end());
  }
  const std::vector<double> counters = counters_.save();
  out.insert(out.end(), counters.begin(), counters.end());
  return out;
}

void FusedIntegrator::loadState(const std::vector<double>& state) {
  std::size_t at = 0;
  auto take = [&](std::size_t n) {
    if (at + n > state.size()) fail("INVALID_STATE", "FusedStage: the saved state is truncated");
    std::vector<double> part(state.begin() + static_cast<std::ptrdiff_t>(at), state.begin() + static_cast<std::ptrdiff_t>(at + n));
    at += n;
    return part;
  };
  if (take(1).front() != static_cast<double>(stages_.size())) fail("INVALID_STATE", "FusedStage: the saved state has another number of sub-stages");
  for (auto& stage : stages_) stage->loadState(take(static_cast<std::size_t>(take(1).front())));
  std::vector<double> counters = take(state.size() - at);
  // [numSystems, width 2, rows of (steps, sub-stage)]: widened with no steps counted per sub-stage.
  // The system count is read from the file: checked to be a count the rows fit before it sizes anything.
  if (counters.size() >= 2 && counters[1] == static_cast<double>(kBudgetColumns) && counters[0] >= 0.0 &&
      counters[0] * static_cast<double>(kBudgetColumns) == static_cast<double>(counters.size() - 2)) {
    const auto systems = static_cast<std::size_t>(counters[0]);
    const std::size_t width = kBudgetColumns + stages_.size();
    std::vector<double> widened{counters[0], static_cast<double>(width)};
    widened.resize(2 + systems * width, 0.0);
    for (std::size_t s = 0; s < systems; ++s) {
      std::copy_n(counters.begin() + static_cast<std::ptrdiff_t>(2 + s * kBudgetColumns), kBudgetColumns,
                  widened.begin() + static_cast<std::ptrdiff_t>(2 + s * width));
    }
    counters = std::move(widened);
  }
  counters_.load(counters);
}

std::vector<double> FusedIntegrator::stageSteps() const {
  const std::size_t stages = stages_.size();
  std::vector<double> out(static_cast<std::size_t>(counters_.count()) * stages);
  for (std::int64_t s = 0; s < counters_.count(); ++s) {
    const double* counter = counters_.row(s);
    std::copy_n(counter + kBudgetColumns, stages, out.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(s) * stages));
  }
  return out;
}

void FusedIntegrator::remap(const std::vector<std::int64_t>& keep, std::int64_t added) {
  for (auto& stage : stages_) stage->remap(keep, added);
  counters_.remap(keep, added);
  spent_.clear();
}

}  // namespace hookmd
