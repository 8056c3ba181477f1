// Host-side structure-of-arrays storage for one Batch: every field of core/Fields.h, sized for N atoms in
// B systems. On CPU this is the storage itself; on CUDA it holds the host mirrors of the device arrays.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "core/Fields.h"
#include "core/HostBuffer.h"
#include "core/Units.h"

namespace hookmd {

class BatchStorage {
 public:
  BatchStorage();

  /** Reallocates every field, zeroed. Views made before the call keep their old (now detached) memory. */
  void resize(std::int64_t numAtoms, std::int64_t numSystems);

  std::int64_t numAtoms() const noexcept { return numAtoms_; }
  std::int64_t numSystems() const noexcept { return numSystems_; }
  /** Changes whenever the arrays are reallocated; caches keyed on the layout (neighbor lists) compare it. */
  std::uint64_t generation() const noexcept { return generation_; }
  /** Unique per storage object, so a model used with two batches can tell them apart. */
  std::uint64_t id() const noexcept { return id_; }

  const std::shared_ptr<HostBuffer>& buffer(Field field) const { return buffers_[static_cast<int>(field)]; }
  std::size_t length(Field field) const { return fieldLength(field, numAtoms_, numSystems_); }
  /** The bytes of every field together. */
  std::size_t bytes() const noexcept;

  template <typename T>
  T* data(Field field) const {
    return static_cast<T*>(buffers_[static_cast<int>(field)]->data());
  }
  double* f64(Field field) const { return data<double>(field); }
  std::int32_t* i32(Field field) const { return data<std::int32_t>(field); }
  std::uint8_t* u8(Field field) const { return data<std::uint8_t>(field); }

  Units units;

 private:
  std::int64_t numAtoms_ = 0;
  std::int64_t numSystems_ = 0;
  std::uint64_t generation_ = 0;
  std::uint64_t id_;
  std::array<std::shared_ptr<HostBuffer>, kFieldCount> buffers_;
};

}  // namespace hookmd
