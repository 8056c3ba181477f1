#include "dynamics/ProgramLayout.h"

#include <algorithm>

#include "core/Error.h"

namespace hookmd {

bool ProgramLayout::update(Backend& backend, const char* owner) {
  if (backend.unified()) return false;
  if (built_ && generation_ == backend.generation() && ptrVersion_ == backend.version(Field::Ptr)) return false;
  // Reading ptr on the host copies it only when the device wrote it (a device-side refill): B + 1 ints.
  const std::int32_t* ptr = backend.host({Field::Ptr}).i32(Field::Ptr);
  const std::int64_t numSystems = backend.numSystems();
  const std::int64_t numAtoms = backend.numAtoms();
  // The kernels index atoms through ptr: a bad range would fault the device, which no later call survives.
  std::int64_t maxAtoms = 0;
  for (std::int64_t s = 0; s < numSystems; ++s) {
    if (ptr[s] < 0 || ptr[s + 1] < ptr[s] || ptr[s + 1] > numAtoms) {
      fail("INVALID_PTR", std::string(owner) + ": system " + std::to_string(s) + " spans atoms [" + std::to_string(ptr[s]) + ", " +
                              std::to_string(ptr[s + 1]) + "), outside [0, " + std::to_string(numAtoms) +
                              "); ptr must hold non-decreasing atom offsets");
    }
    maxAtoms = std::max<std::int64_t>(maxAtoms, ptr[s + 1] - ptr[s]);
  }
  chunkSystem_.clear();
  firstChunk_.clear();
  if (maxAtoms > kProgramBlockAtoms) {
    firstChunk_.reserve(static_cast<std::size_t>(numSystems) + 1);
    for (std::int64_t s = 0; s < numSystems; ++s) {
      firstChunk_.push_back(static_cast<std::int32_t>(chunkSystem_.size()));
      const std::int64_t chunks = (ptr[s + 1] - ptr[s] + kProgramChunkAtoms - 1) / kProgramChunkAtoms;
      chunkSystem_.insert(chunkSystem_.end(), static_cast<std::size_t>(chunks), static_cast<std::int32_t>(s));
    }
    firstChunk_.push_back(static_cast<std::int32_t>(chunkSystem_.size()));
    // Both tables go up, each in one copy.
    backend.charge(DeviceOp::ControlUpload, DeviceWork{1, 0, 0, 0, 0, chunkSystem_.size() * sizeof(std::int32_t)});
    backend.charge(DeviceOp::ControlUpload, DeviceWork{1, 0, 0, 0, 0, firstChunk_.size() * sizeof(std::int32_t)});
  }
  maxAtoms_ = maxAtoms;
  generation_ = backend.generation();
  ptrVersion_ = backend.version(Field::Ptr);
  built_ = true;
  return true;
}

void ProgramLayout::chargeStep(Backend& backend, DeviceOp single, DeviceOp chunked) const {
  const std::int64_t systems = backend.numSystems();
  if (systems == 0) return;
  backend.charge(this->chunked() ? chunked : single,
                 DeviceWork{1, static_cast<std::uint64_t>(backend.numAtoms()), static_cast<std::uint64_t>(systems), 0, 0, 0});
}

}  // namespace hookmd
