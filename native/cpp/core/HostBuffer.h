// A reference-counted, 64-byte aligned block of host memory. JS views hold a reference to the block they
// alias, so a view that outlives a resize still points at valid (if stale) memory instead of freed memory.
#pragma once

#include <cstddef>
#include <memory>

namespace hookmd {

class HostBuffer {
 public:
  /** Allocates `bytes` zeroed bytes (at least one, so data() is never null). */
  static std::shared_ptr<HostBuffer> allocate(std::size_t bytes);
  ~HostBuffer();
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  void* data() const noexcept { return data_; }
  std::size_t bytes() const noexcept { return bytes_; }

 private:
  HostBuffer(void* data, std::size_t bytes) : data_(data), bytes_(bytes) {}
  void* data_;
  std::size_t bytes_;
};

}  // namespace hookmd
