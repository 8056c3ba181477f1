// Per-system integrator state kept on the device: one fixed-width row of doubles per system, in exactly the
// layout of dynamics/SystemRows.h. A host SystemRows serves as the staging copy, so checkpoints, remaps and
// their checks (INVALID_STATE, INVALID_ARGUMENT, INVALID_PARAMETER) are the CPU integrators' own, and a
// state() taken on one backend loads on the other. The rows cross to the host only for state() and remap();
// those copies are charged to the ledger here (mirror does not model them, docs/cuda.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Backend.h"
#include "cuda/core/DeviceBuffer.h"
#include "dynamics/SystemRows.h"

namespace hookmd {

class CudaSystemRows {
 public:
  /** `count` rows of `fresh` (whose length is the width), uploaded at once; copies are charged to `backend`. */
  CudaSystemRows(Backend& backend, std::string owner, std::vector<double> fresh, std::int64_t count);

  /** count × width doubles, row-major: what the kernels read and write. */
  double* device() const noexcept { return d_rows_.as<double>(); }
  int width() const noexcept { return host_.width(); }

  /** SystemRows::save of the device rows: [numSystems, width, rows...]. */
  std::vector<double> save() const;
  /** SystemRows::load (same checks), then uploaded. */
  void load(const std::vector<double>& state);
  /** SystemRows::remap of the device rows: keeps `keep` in that order and appends `added` fresh rows. */
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added);
  /** SystemRows::requireCount: the rows and `parameterCount` parameter sets must cover `numSystems`. */
  void requireCount(std::int64_t numSystems, std::size_t parameterCount) const {
    host_.requireCount(numSystems, parameterCount);
  }

 private:
  std::size_t bytes() const noexcept {
    return static_cast<std::size_t>(host_.count()) * static_cast<std::size_t>(width()) * sizeof(double);
  }
  /** Copies the device rows into the staging copy. */
  void download() const;
  /** Reallocates the device rows for the staging copy's count and copies it up. */
  void upload();

  Backend& backend_;
  std::string owner_;
  // Current only right after download(); the count and width are always current.
  mutable SystemRows host_;
  DeviceBuffer d_rows_;
};

}  // namespace hookmd
