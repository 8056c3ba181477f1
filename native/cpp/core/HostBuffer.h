// A reference-counted, 64-byte aligned, zeroed block of host memory (large ones mapped from the kernel, on huge
// pages where it can: HostBuffer.cpp). JS views hold a reference to the block they alias, so a view that
// outlives a resize still points at valid (if stale) memory instead of freed memory.
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
  HostBuffer(void* data, std::size_t bytes, std::size_t mappedBytes) : data_(data), bytes_(bytes), mappedBytes_(mappedBytes) {}
  void* data_;
  std::size_t bytes_;
  /** The length of the mapping a large block lives in (unmapped on release), or 0 for a heap block. */
  std::size_t mappedBytes_;
};

}  // namespace hookmd
