// Per-atom integrator state kept on the device (FIRE's velocities): the device copy of dynamics/AtomRows.h,
// in its layout, so that a system's rows start at ptr[s] and the kernels index them as the batch's per-atom
// arrays. A host AtomRows serves as the staging copy, so checkpoints, remaps and their checks are the CPU
// integrators' own, and a state() taken on one backend loads on the other. The values cross to the host
// only for state(), remap() and a change of the batch layout; those copies are charged to the ledger here
// (mirror does not model them, docs/cuda.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuda/core/DeviceBuffer.h"
#include "dynamics/AtomRows.h"

namespace hookmd {

class CudaBackend;

class CudaAtomRows {
 public:
  /** `width` doubles per row, no extra rows, `count` fresh systems; copies are charged to `backend`. */
  CudaAtomRows(CudaBackend& backend, std::string owner, int width, std::int64_t count);

  /** AtomRows::fit to the batch layout, checked again only when its ptr changed or after remap/load. */
  void fit();
  /** The rows in batch order, after fit(). */
  double* device() const noexcept { return d_values_.as<double>(); }

  /** AtomRows::save of the device rows. */
  std::vector<double> save() const;
  /** AtomRows::load (same checks), then uploaded. */
  void load(const std::vector<double>& state);
  /** Throws what load(state) would throw, and changes nothing. */
  void check(const std::vector<double>& state) const;
  /** AtomRows::remap of the device rows. */
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added);

 private:
  std::size_t bytes() const noexcept { return host_.size() * sizeof(double); }
  /** Copies the device rows into the staging copy. */
  void download() const;
  /** Reallocates the device rows for the staging copy and copies it up. */
  void upload();

  CudaBackend& backend_;
  std::string owner_;
  // The values are current only right after download(); the layout is always current.
  mutable AtomRows host_;
  DeviceBuffer d_values_;
  bool fitted_ = false;
  std::uint64_t generation_ = 0;
  std::uint64_t ptrVersion_ = 0;
};

}  // namespace hookmd
