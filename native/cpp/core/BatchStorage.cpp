#include "core/BatchStorage.h"

#include <atomic>

#include "core/Error.h"

namespace hookmd {

namespace {
std::atomic<std::uint64_t> nextStorageId{1};
}

BatchStorage::BatchStorage() : id_(nextStorageId.fetch_add(1)) { resize(0, 0); }

void BatchStorage::resize(std::int64_t numAtoms, std::int64_t numSystems) {
  if (numAtoms < 0 || numSystems < 0) {
    fail("INVALID_SIZE", "resize: numAtoms and numSystems must be >= 0");
  }
  // Allocate everything first: a failed allocation must leave the old arrays and sizes consistent.
  std::array<std::shared_ptr<HostBuffer>, kFieldCount> next;
  for (int i = 0; i < kFieldCount; ++i) {
    const Field field = static_cast<Field>(i);
    next[i] = HostBuffer::allocate(fieldLength(field, numAtoms, numSystems) * elementSize(fieldInfo(field).type));
  }
  buffers_ = std::move(next);
  numAtoms_ = numAtoms;
  numSystems_ = numSystems;
  ++generation_;
}

std::size_t BatchStorage::bytes() const noexcept {
  std::size_t total = 0;
  for (const std::shared_ptr<HostBuffer>& buffer : buffers_) total += buffer->bytes();
  return total;
}

}  // namespace hookmd
