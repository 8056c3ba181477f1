#include "cuda/CudaAtomRows.h"

#include <cuda_runtime_api.h>

#include "cuda/CudaBackend.h"
#include "cuda/CudaCheck.h"

namespace hookmd {

CudaAtomRows::CudaAtomRows(std::string owner, int width, std::int64_t count) : owner_(std::move(owner)), host_(owner_, width, 0, count) {}

void CudaAtomRows::fit(CudaBackend& backend) {
  if (fitted_ && generation_ == backend.generation() && ptrVersion_ == backend.version(Field::Ptr)) return;
  // Reading ptr on the host copies it only when the device wrote it: B + 1 ints.
  const std::int32_t* ptr = backend.host({Field::Ptr}).i32(Field::Ptr);
  if (!host_.fits(ptr)) {
    download();
    host_.fit(ptr, backend.numSystems());
    upload();
  }
  fitted_ = true;
  generation_ = backend.generation();
  ptrVersion_ = backend.version(Field::Ptr);
}

void CudaAtomRows::download() const {
  if (bytes() == 0) return;
  cudaCheck(cudaMemcpy(host_.data(), d_values_.data(), bytes(), cudaMemcpyDeviceToHost), owner_.c_str());
}

void CudaAtomRows::upload() {
  d_values_.allocate(bytes(), owner_.c_str());
  if (bytes() == 0) return;
  cudaCheck(cudaMemcpy(d_values_.data(), host_.data(), bytes(), cudaMemcpyHostToDevice), owner_.c_str());
}

std::vector<double> CudaAtomRows::save() const {
  download();
  return host_.save();
}

void CudaAtomRows::load(const std::vector<double>& state) {
  host_.load(state);
  upload();
  fitted_ = false;
}

void CudaAtomRows::check(const std::vector<double>& state) const {
  AtomRows probe = host_;
  probe.load(state);
}

void CudaAtomRows::remap(const std::vector<std::int64_t>& keep, std::int64_t added) {
  download();
  host_.remap(keep, added);
  upload();
  fitted_ = false;
}

}  // namespace hookmd
