#include "cuda/dynamics/CudaSystemLayout.h"

#include "cuda/core/CudaBackend.h"
#include "cuda/core/DeviceUpload.h"

namespace hookmd {

static_assert(kernel::kSingleBlockAtoms == kProgramBlockAtoms && kernel::kChunkAtoms == kProgramChunkAtoms,
              "the programs' launch layout is dynamics/ProgramLayout.h's");

kernel::SystemLayout CudaSystemLayout::prepare(CudaBackend& backend) {
  if (layout_.update(backend, owner_.c_str())) {
    const char* operation = owner_.c_str();
    uploadVector(d_chunkSystem_, layout_.chunkSystem(), operation);
    uploadVector(d_firstChunk_, layout_.firstChunk(), operation);
    const std::size_t chunks = layout_.chunkSystem().size();
    const std::size_t scratch = chunks > 0 ? static_cast<std::size_t>(backend.numSystems()) * kernel::kScratchBytes : 0;
    const std::size_t partials = chunks * kernel::kMaxSums * sizeof(double);
    if (d_scratch_.bytes() != scratch) d_scratch_.allocate(scratch, operation);
    if (d_partials_.bytes() != partials) d_partials_.allocate(partials, operation);
  }
  const bool chunked = layout_.chunked();
  return kernel::SystemLayout{backend.deviceData<const std::int32_t>(Field::Ptr),
                              backend.numSystems(),
                              layout_.maxAtoms(),
                              static_cast<std::int64_t>(layout_.chunkSystem().size()),
                              chunked ? d_chunkSystem_.as<const std::int32_t>() : nullptr,
                              chunked ? d_firstChunk_.as<const std::int32_t>() : nullptr,
                              chunked ? d_scratch_.data() : nullptr,
                              chunked ? d_partials_.as<double>() : nullptr};
}

void CudaSystemLayout::chargeStep(CudaBackend& backend, DeviceOp single, DeviceOp chunked) const {
  layout_.chargeStep(backend, single, chunked);
}

}  // namespace hookmd
