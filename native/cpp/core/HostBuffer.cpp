#include "core/HostBuffer.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace hookmd {

namespace {
constexpr std::size_t kAlign = 64;
/**
 * Blocks of at least this size are mapped straight from the kernel on Linux: its pages arrive zeroed when
 * first touched, so a field nothing writes (forces before the first compute, stress, the velocities of a
 * batch built without them) costs nothing until it is used, and the block asks for transparent huge pages,
 * one page fault per 2 MiB instead of one per 4 KiB. Building 65,536 LJ13 clusters sizes ~85 MB of fields;
 * on a virtual machine, where a page fault is expensive, zeroing them 4 KiB at a time took ~300 ms
 * (bench/RESULTS.md, "construction"). Where huge pages are off, the advice is ignored.
 */
constexpr std::size_t kHugePage = std::size_t{2} << 20;
/**
 * Smaller blocks from this size on are mapped too, in whole pages and without the huge-page advice: from
 * the heap, the 1 MB fields of dropped batches (atomic numbers, system index of 256,000 atoms) were freed
 * out of order and left it fragmented (glibc raises its own mapping threshold after the first such free),
 * so a loop of dropped batches grew by about 2 MB per batch however promptly they were freed.
 */
constexpr std::size_t kMappedBlock = std::size_t{256} << 10;
constexpr std::size_t kPage = 4096;

std::size_t roundUp(std::size_t bytes, std::size_t to) { return (bytes + to - 1) / to * to; }

#if defined(__linux__)
/** A zeroed mapping of `bytes` (a multiple of kHugePage) starting on a kHugePage boundary, or null. */
void* mapZeroed(std::size_t bytes) {
  void* mapped = mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) return nullptr;
  const auto start = reinterpret_cast<std::uintptr_t>(mapped);
  const std::uintptr_t aligned = roundUp(start, kHugePage);
  // Give back the slack before and after the aligned block.
  if (aligned > start) munmap(mapped, aligned - start);
  if (const std::size_t tail = start + kHugePage - aligned; tail > 0) munmap(reinterpret_cast<void*>(aligned + bytes), tail);
#if defined(MADV_HUGEPAGE)
  madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE);
#endif
  return reinterpret_cast<void*>(aligned);
}
#endif
}  // namespace

std::shared_ptr<HostBuffer> HostBuffer::allocate(std::size_t bytes) {
#if defined(__linux__)
  if (bytes >= kHugePage) {
    const std::size_t mappedBytes = roundUp(bytes, kHugePage);
    void* data = mapZeroed(mappedBytes);
    if (data == nullptr) throw std::bad_alloc();
    return std::shared_ptr<HostBuffer>(new HostBuffer(data, bytes, mappedBytes));
  }
  if (bytes >= kMappedBlock) {
    const std::size_t mappedBytes = roundUp(bytes, kPage);
    void* data = mmap(nullptr, mappedBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (data == MAP_FAILED) throw std::bad_alloc();
    return std::shared_ptr<HostBuffer>(new HostBuffer(data, bytes, mappedBytes));
  }
#endif
  const std::size_t rounded = roundUp(bytes == 0 ? 1 : bytes, kAlign);
  void* data = std::aligned_alloc(kAlign, rounded);
  if (data == nullptr) throw std::bad_alloc();
  std::memset(data, 0, rounded);
  return std::shared_ptr<HostBuffer>(new HostBuffer(data, bytes, 0));
}

HostBuffer::~HostBuffer() {
#if defined(__linux__)
  if (mappedBytes_ > 0) {
    munmap(data_, mappedBytes_);
    return;
  }
#endif
  std::free(data_);
}

}  // namespace hookmd
