// Host side of kernel::SystemLayout: the path of the per-system programs (dynamics/ProgramLayout.h) and,
// when the chunked path is taken, the chunk table and its workspace on the device. Rebuilt only when the
// batch's ptr changed (a refill or a resize), so a steady run reads nothing from the device for it.
#pragma once

#include <string>

#include "cuda/dynamics/CudaSystemProgram.cuh"
#include "cuda/core/DeviceBuffer.h"
#include "dynamics/ProgramLayout.h"

namespace hookmd {

class CudaBackend;

class CudaSystemLayout {
 public:
  /** `owner` names the integrator in errors. */
  explicit CudaSystemLayout(std::string owner) : owner_(std::move(owner)) {}

  /** The layout of `backend`'s batch; call onDevice() with Field::Ptr among the reads first. */
  kernel::SystemLayout prepare(CudaBackend& backend);
  /** Charges one step of the program to the ledger: `single` or `chunked` by the path prepare() chose. */
  void chargeStep(CudaBackend& backend, DeviceOp single, DeviceOp chunked) const;

 private:
  std::string owner_;
  ProgramLayout layout_;
  DeviceBuffer d_chunkSystem_;
  DeviceBuffer d_firstChunk_;
  DeviceBuffer d_scratch_;
  DeviceBuffer d_partials_;
};

}  // namespace hookmd
