#include "dynamics/SystemRows.h"

#include "core/Error.h"

namespace hookmd {

SystemRows::SystemRows(std::string owner, std::vector<double> fresh, std::int64_t count)
    : owner_(std::move(owner)), fresh_(std::move(fresh)), count_(0) {
  remap({}, count);
}

void SystemRows::remap(const std::vector<std::int64_t>& keep, std::int64_t added) {
  if (added < 0) fail("INVALID_ARGUMENT", owner_ + ": remap cannot add a negative number of systems");
  std::vector<double> next;
  next.reserve((keep.size() + static_cast<std::size_t>(added)) * fresh_.size());
  for (std::int64_t s : keep) {
    if (s < 0 || s >= count_) {
      fail("INVALID_ARGUMENT", owner_ + ": remap index " + std::to_string(s) + " is outside the " +
                                   std::to_string(count_) + " systems");
    }
    next.insert(next.end(), row(s), row(s) + width());
  }
  for (std::int64_t n = 0; n < added; ++n) next.insert(next.end(), fresh_.begin(), fresh_.end());
  values_ = std::move(next);
  count_ = static_cast<std::int64_t>(keep.size()) + added;
}

std::vector<double> SystemRows::save() const {
  std::vector<double> state{static_cast<double>(count_), static_cast<double>(width())};
  state.insert(state.end(), values_.begin(), values_.end());
  return state;
}

void SystemRows::load(const std::vector<double>& state) {
  if (state.size() < 2 || state[0] != static_cast<double>(count_) || state[1] != static_cast<double>(width()) ||
      state.size() != 2 + values_.size()) {
    fail("INVALID_STATE", owner_ + ": the state must be [numSystems = " + std::to_string(count_) +
                              ", width = " + std::to_string(width()) + ", then " + std::to_string(values_.size()) +
                              " values], got " + std::to_string(state.size()) + " values");
  }
  values_.assign(state.begin() + 2, state.end());
}

void SystemRows::requireCount(std::int64_t numSystems, std::size_t parameterCount) const {
  if (numSystems != count_) {
    fail("INVALID_STATE", owner_ + ": the integrator holds state for " + std::to_string(count_) +
                              " systems but the batch has " + std::to_string(numSystems) + " (remap after a refill)");
  }
  if (static_cast<std::int64_t>(parameterCount) != numSystems) {
    fail("INVALID_PARAMETER", owner_ + ": the parameters cover " + std::to_string(parameterCount) +
                                  " systems but the batch has " + std::to_string(numSystems) +
                                  " (updateParameters after a refill)");
  }
}

}  // namespace hookmd
