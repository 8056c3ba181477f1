// Host side of kernel::SystemLayout: the largest system of the batch and, when it needs the chunked path,
// the chunk table and its workspace on the device. Rebuilt only when the batch's ptr changed (a refill or a
// resize), so a steady run reads nothing from the device for it.
#pragma once

#include <cstdint>
#include <string>

#include "cuda/CudaSystemProgram.cuh"
#include "cuda/DeviceBuffer.h"

namespace hookmd {

class CudaBackend;

class CudaSystemLayout {
 public:
  /** `owner` names the integrator in errors. */
  explicit CudaSystemLayout(std::string owner) : owner_(std::move(owner)) {}

  /** The layout of `backend`'s batch; call onDevice() with Field::Ptr among the reads first. */
  kernel::SystemLayout prepare(CudaBackend& backend);

 private:
  /** Rebuilds the chunk table from the host copy of ptr; throws INVALID_PTR for a bad layout. */
  void rebuild(CudaBackend& backend);

  std::string owner_;
  bool built_ = false;
  std::uint64_t generation_ = 0;
  std::uint64_t ptrVersion_ = 0;
  std::int64_t maxAtoms_ = 0;
  std::int64_t numChunks_ = 0;
  DeviceBuffer d_chunkSystem_;
  DeviceBuffer d_firstChunk_;
  DeviceBuffer d_scratch_;
  DeviceBuffer d_partials_;
};

}  // namespace hookmd
