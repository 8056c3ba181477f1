#include "cuda/CudaSystemLayout.h"

#include <algorithm>
#include <vector>

#include "core/Error.h"
#include "cuda/CudaBackend.h"
#include "cuda/DeviceUpload.h"

namespace hookmd {

kernel::SystemLayout CudaSystemLayout::prepare(CudaBackend& backend) {
  if (!built_ || generation_ != backend.generation() || ptrVersion_ != backend.version(Field::Ptr)) rebuild(backend);
  const bool chunked = numChunks_ > 0;
  return kernel::SystemLayout{backend.deviceData<const std::int32_t>(Field::Ptr),
                              backend.numSystems(),
                              maxAtoms_,
                              numChunks_,
                              chunked ? d_chunkSystem_.as<const std::int32_t>() : nullptr,
                              chunked ? d_firstChunk_.as<const std::int32_t>() : nullptr,
                              chunked ? d_scratch_.data() : nullptr,
                              chunked ? d_partials_.as<double>() : nullptr};
}

void CudaSystemLayout::rebuild(CudaBackend& backend) {
  // Reading ptr on the host copies it only when the device wrote it (a device-side refill): B + 1 ints.
  const std::int32_t* ptr = backend.host({Field::Ptr}).i32(Field::Ptr);
  const std::int64_t numSystems = backend.numSystems();
  const std::int64_t numAtoms = backend.numAtoms();
  // The kernels index atoms through ptr: a bad range would fault the device, which no later call survives.
  std::int64_t maxAtoms = 0;
  for (std::int64_t s = 0; s < numSystems; ++s) {
    if (ptr[s] < 0 || ptr[s + 1] < ptr[s] || ptr[s + 1] > numAtoms) {
      fail("INVALID_PTR", owner_ + ": system " + std::to_string(s) + " spans atoms [" + std::to_string(ptr[s]) + ", " +
                              std::to_string(ptr[s + 1]) + "), outside [0, " + std::to_string(numAtoms) +
                              "); ptr must hold non-decreasing atom offsets");
    }
    maxAtoms = std::max<std::int64_t>(maxAtoms, ptr[s + 1] - ptr[s]);
  }
  std::vector<std::int32_t> chunkSystem;
  std::vector<std::int32_t> firstChunk;
  if (maxAtoms > kernel::kSingleBlockAtoms) {
    firstChunk.reserve(static_cast<std::size_t>(numSystems) + 1);
    for (std::int64_t s = 0; s < numSystems; ++s) {
      firstChunk.push_back(static_cast<std::int32_t>(chunkSystem.size()));
      const std::int64_t chunks = (ptr[s + 1] - ptr[s] + kernel::kChunkAtoms - 1) / kernel::kChunkAtoms;
      chunkSystem.insert(chunkSystem.end(), static_cast<std::size_t>(chunks), static_cast<std::int32_t>(s));
    }
    firstChunk.push_back(static_cast<std::int32_t>(chunkSystem.size()));
  }
  const char* operation = owner_.c_str();
  uploadVector(d_chunkSystem_, chunkSystem, operation);
  uploadVector(d_firstChunk_, firstChunk, operation);
  numChunks_ = static_cast<std::int64_t>(chunkSystem.size());
  const std::size_t scratch = numChunks_ > 0 ? static_cast<std::size_t>(numSystems) * kernel::kScratchBytes : 0;
  const std::size_t partials = static_cast<std::size_t>(numChunks_) * kernel::kMaxSums * sizeof(double);
  if (d_scratch_.bytes() != scratch) d_scratch_.allocate(scratch, operation);
  if (d_partials_.bytes() != partials) d_partials_.allocate(partials, operation);
  maxAtoms_ = maxAtoms;
  generation_ = backend.generation();
  ptrVersion_ = backend.version(Field::Ptr);
  built_ = true;
}

}  // namespace hookmd
