#include "cuda/dynamics/CudaSystemRows.h"

#include <cuda_runtime_api.h>

#include "cuda/core/DeviceUpload.h"

namespace hookmd {

CudaSystemRows::CudaSystemRows(Backend& backend, std::string owner, std::vector<double> fresh, std::int64_t count)
    : backend_(backend), owner_(std::move(owner)), host_(owner_, std::move(fresh), count) {
  upload();
}

void CudaSystemRows::download() const {
  downloadBytes(host_.row(0), d_rows_.data(), bytes(), owner_.c_str());
  if (bytes() > 0) backend_.charge(DeviceOp::ControlDownload, DeviceWork{1, 0, 0, 0, bytes(), 0});
}

void CudaSystemRows::upload() {
  d_rows_.allocate(bytes(), owner_.c_str());
  uploadBytes(d_rows_, host_.row(0), bytes(), BufferFit::Exact, owner_.c_str());
  if (bytes() > 0) backend_.charge(DeviceOp::ControlUpload, DeviceWork{1, 0, 0, 0, 0, bytes()});
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
