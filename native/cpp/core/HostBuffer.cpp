#include "core/HostBuffer.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace hookmd {

std::shared_ptr<HostBuffer> HostBuffer::allocate(std::size_t bytes) {
  constexpr std::size_t kAlign = 64;
  const std::size_t rounded = ((bytes == 0 ? 1 : bytes) + kAlign - 1) / kAlign * kAlign;
  void* data = std::aligned_alloc(kAlign, rounded);
  if (data == nullptr) throw std::bad_alloc();
  std::memset(data, 0, rounded);
  return std::shared_ptr<HostBuffer>(new HostBuffer(data, bytes));
}

HostBuffer::~HostBuffer() { std::free(data_); }

}  // namespace hookmd
