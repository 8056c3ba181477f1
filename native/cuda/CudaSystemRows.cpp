#include "cuda/CudaSystemRows.h"

#include <cuda_runtime_api.h>

#include "cuda/CudaCheck.h"

namespace hookmd {

CudaSystemRows::CudaSystemRows(std::string owner, std::vector<double> fresh, std::int64_t count)
    : owner_(std::move(owner)), host_(owner_, std::move(fresh), count) {
  upload();
}

void CudaSystemRows::download() const {
  if (bytes() == 0) return;
  cudaCheck(cudaMemcpy(host_.row(0), d_rows_.data(), bytes(), cudaMemcpyDeviceToHost), owner_.c_str());
}

void CudaSystemRows::upload() {
  d_rows_.allocate(bytes(), owner_.c_str());
  if (bytes() == 0) return;
  cudaCheck(cudaMemcpy(d_rows_.data(), host_.row(0), bytes(), cudaMemcpyHostToDevice), owner_.c_str());
}

std::vector<double> CudaSystemRows::save() const {
  download();
  return host_.save();
}

void CudaSystemRows::load(const std::vector<double>& state) {
  host_.load(state);
  upload();
}

void CudaSystemRows::remap(const std::vector<std::int64_t>& keep, std::int64_t added) {
  download();
  host_.remap(keep, added);
  upload();
}

}  // namespace hookmd
