// Per-system integrator state as one fixed-width row of doubles per system. Keeping every integrator's
// state in this shape lets one piece of code remap it after a refill and serialize it for checkpoints as
//
//   [numSystems, width, row of system 0 (width values), row of system 1, ...]
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hookmd {

class SystemRows {
 public:
  /** `fresh` is the row a newly added system starts from; its length is the row width. */
  SystemRows(std::string owner, std::vector<double> fresh, std::int64_t count);

  std::int64_t count() const noexcept { return count_; }
  int width() const noexcept { return static_cast<int>(fresh_.size()); }
  double* row(std::int64_t system) { return values_.data() + system * width(); }
  const double* row(std::int64_t system) const { return values_.data() + system * width(); }

  /** Keeps the rows at `keep` (in that order) and appends `added` fresh rows; throws INVALID_ARGUMENT. */
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added);
  std::vector<double> save() const;
  /** Restores a save() of the same width and system count; throws INVALID_STATE otherwise. */
  void load(const std::vector<double>& state);
  /**
   * Checked before each phase: throws INVALID_STATE unless the rows, and INVALID_PARAMETER unless the
   * `parameterCount` per-system parameter sets, cover exactly the batch's `numSystems` systems.
   */
  void requireCount(std::int64_t numSystems, std::size_t parameterCount) const;

 private:
  std::string owner_;
  std::vector<double> fresh_;
  std::int64_t count_;
  std::vector<double> values_;
};

}  // namespace hookmd
