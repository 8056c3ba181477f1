#include "dynamics/AtomRows.h"

#include <algorithm>

#include "core/Error.h"

namespace hookmd {

AtomRows::AtomRows(std::string owner, int width, int extraRows, std::int64_t numSystems)
    : owner_(std::move(owner)), width_(width), extraRows_(extraRows), offsets_(static_cast<std::size_t>(numSystems) + 1, 0) {}

bool AtomRows::fits(const std::int32_t* ptr) const {
  for (std::int64_t s = 0; s < count(); ++s) {
    if (offsets_[s] != ptr[s] + extraRows_ * s) return false;
  }
  return offsets_[count()] == ptr[count()] + extraRows_ * count();
}

void AtomRows::fit(const std::int32_t* ptr, std::int64_t numSystems) {
  if (numSystems != count()) {
    fail("INVALID_STATE", owner_ + ": the integrator holds per-atom state for " + std::to_string(count()) +
                              " systems but the batch has " + std::to_string(numSystems) + " (remap after a refill)");
  }
  if (fits(ptr)) return;
  std::vector<std::int64_t> offsets(offsets_.size(), 0);
  for (std::int64_t s = 0; s < numSystems; ++s) {
    const std::int64_t rows = ptr[s + 1] - ptr[s] + extraRows_;
    if (rowsOf(s) != 0 && rowsOf(s) != rows) {
      fail("INVALID_STATE", owner_ + ": the per-atom state of system " + std::to_string(s) + " has " + std::to_string(rowsOf(s)) +
                                " rows but the system needs " + std::to_string(rows) + " (a state saved for another batch)");
    }
    offsets[s + 1] = offsets[s] + rows;
  }
  std::vector<double> values(static_cast<std::size_t>(offsets.back() * width_), 0.0);
  for (std::int64_t s = 0; s < numSystems; ++s) {
    std::copy(values_.begin() + offsets_[s] * width_, values_.begin() + offsets_[s + 1] * width_, values.begin() + offsets[s] * width_);
  }
  offsets_ = std::move(offsets);
  values_ = std::move(values);
}

void AtomRows::remap(const std::vector<std::int64_t>& keep, std::int64_t added) {
  if (added < 0) fail("INVALID_ARGUMENT", owner_ + ": remap cannot add a negative number of systems");
  std::vector<std::int64_t> offsets{0};
  std::vector<double> values;
  for (std::int64_t s : keep) {
    if (s < 0 || s >= count()) {
      fail("INVALID_ARGUMENT", owner_ + ": remap index " + std::to_string(s) + " is outside the " + std::to_string(count()) + " systems");
    }
    values.insert(values.end(), values_.begin() + offsets_[s] * width_, values_.begin() + offsets_[s + 1] * width_);
    offsets.push_back(offsets.back() + rowsOf(s));
  }
  const std::int64_t end = offsets.back();
  offsets.insert(offsets.end(), static_cast<std::size_t>(added), end);
  offsets_ = std::move(offsets);
  values_ = std::move(values);
}

std::vector<double> AtomRows::save() const {
  std::vector<double> state{static_cast<double>(count()), static_cast<double>(width_), static_cast<double>(extraRows_)};
  for (std::int64_t s = 0; s < count(); ++s) state.push_back(static_cast<double>(rowsOf(s)));
  state.insert(state.end(), values_.begin(), values_.end());
  return state;
}

void AtomRows::load(const std::vector<double>& state) {
  const auto malformed = [&] {
    fail("INVALID_STATE", owner_ + ": the per-atom state must be [numSystems = " + std::to_string(count()) + ", width = " +
                              std::to_string(width_) + ", extra rows = " + std::to_string(extraRows_) +
                              ", the rows of each system, then their values], got " + std::to_string(state.size()) + " values");
  };
  const std::size_t header = 3 + static_cast<std::size_t>(count());
  if (state.size() < header || state[0] != static_cast<double>(count()) || state[1] != static_cast<double>(width_) ||
      state[2] != static_cast<double>(extraRows_)) {
    malformed();
  }
  std::vector<std::int64_t> offsets{0};
  for (std::int64_t s = 0; s < count(); ++s) {
    const double rows = state[3 + static_cast<std::size_t>(s)];
    if (!(rows >= 0.0 && rows < 1e12) || rows != static_cast<double>(static_cast<std::int64_t>(rows))) malformed();
    offsets.push_back(offsets.back() + static_cast<std::int64_t>(rows));
  }
  if (state.size() != header + static_cast<std::size_t>(offsets.back() * width_)) malformed();
  offsets_ = std::move(offsets);
  values_.assign(state.begin() + static_cast<std::ptrdiff_t>(header), state.end());
}

}  // namespace hookmd
