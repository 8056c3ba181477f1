// Per-atom integrator state (FIRE's velocities) kept by the integrator itself, never in the batch: one
// segment of rows per system, laid out as the batch lays out its atoms, plus `extraRows` rows per system
// (a cell filter's three cell rows). Once fit() has matched the batch, system s's segment starts at row
// ptr[s] + extraRows·s, so with no extra rows the state is indexed exactly as the batch's per-atom arrays.
//
// A system added by remap() has an empty segment until fit() gives it zeros: its state starts fresh. Saved as
//
//   [numSystems, width, extraRows, rows of system 0, ..., rows of system B−1, the values in order]
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hookmd {

class AtomRows {
 public:
  /** `width` doubles per row (3 for a velocity); every system starts with an empty (fresh) segment. */
  AtomRows(std::string owner, int width, int extraRows, std::int64_t numSystems);

  std::int64_t count() const noexcept { return static_cast<std::int64_t>(offsets_.size()) - 1; }
  int width() const noexcept { return width_; }
  int extraRows() const noexcept { return extraRows_; }
  /** The first value of system s's segment. */
  double* system(std::int64_t s) { return values_.data() + offsets_[s] * width_; }
  /** Every value, row-major in batch order once fitted. */
  double* data() { return values_.data(); }
  const double* data() const { return values_.data(); }
  std::size_t size() const noexcept { return values_.size(); }

  /** Whether every segment already has the rows the batch layout `ptr` gives it. */
  bool fits(const std::int32_t* ptr) const;
  /**
   * Matches the batch layout `ptr` (numSystems + 1 offsets): fresh segments become zeros of the system's
   * size. Throws INVALID_STATE when the count differs, or a started segment has another size (a state
   * loaded for another batch).
   */
  void fit(const std::int32_t* ptr, std::int64_t numSystems);
  /** Keeps the segments of the systems at `keep` (in that order) and appends `added` fresh ones. */
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added);
  std::vector<double> save() const;
  /** Restores a save() with the same width, extra rows and system count; throws INVALID_STATE otherwise. */
  void load(const std::vector<double>& state);

 private:
  std::int64_t rowsOf(std::int64_t s) const { return offsets_[s + 1] - offsets_[s]; }

  std::string owner_;
  int width_;
  int extraRows_;
  /** Row offsets of the segments (count + 1); a fresh segment is empty. */
  std::vector<std::int64_t> offsets_;
  std::vector<double> values_;
};

}  // namespace hookmd
