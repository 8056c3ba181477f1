#include "cuda/kernels/CudaSumLayout.h"

#include <algorithm>

#include "cuda/core/CudaBackend.h"
#include "cuda/core/CudaCheck.h"
#include "cuda/core/CudaLaunch.h"
#include "cuda/kernels/CudaPairForces.cuh"
#include "cuda/core/DeviceUpload.h"

namespace hookmd {

void uploadSumLayout(const std::vector<std::int32_t>& ptr, std::int64_t numSegments, DeviceBuffer& systemOf, DeviceBuffer& segments,
                     DeviceBuffer& segmentOffset, const char* operation) {
  const auto systems = static_cast<std::int64_t>(ptr.size()) - 1;
  std::vector<std::int32_t> atomSystem(static_cast<std::size_t>(ptr.back()));
  std::vector<kernel::SumSegment> runs;
  runs.reserve(static_cast<std::size_t>(numSegments));
  std::vector<std::int32_t> firstRun(static_cast<std::size_t>(systems) + 1, 0);
  for (std::int64_t s = 0; s < systems; ++s) {
    std::fill(atomSystem.begin() + ptr[s], atomSystem.begin() + ptr[s + 1], static_cast<std::int32_t>(s));
    for (std::int32_t begin = ptr[s]; begin < ptr[s + 1]; begin += kernel::kSumSegmentSlots) {
      runs.push_back({begin, std::min(begin + kernel::kSumSegmentSlots, ptr[s + 1]), static_cast<std::int32_t>(s)});
    }
    firstRun[s + 1] = static_cast<std::int32_t>(runs.size());
  }
  uploadBytes(systemOf, atomSystem.data(), atomSystem.size() * sizeof(std::int32_t), BufferFit::Grow, operation);
  uploadBytes(segments, runs.data(), runs.size() * sizeof(kernel::SumSegment), BufferFit::Grow, operation);
  uploadBytes(segmentOffset, firstRun.data(), firstRun.size() * sizeof(std::int32_t), BufferFit::Grow, operation);
}

void sumSystemEnergies(CudaBackend& backend, const kernel::SystemArrays& systems, const DeviceBuffer& slotSums, bool stress,
                       const DeviceBuffer& segments, std::int64_t numSegments, const DeviceBuffer& segmentOffset,
                       DeviceBuffer& segmentSums, DeviceBuffer& virial, const char* operation) {
  const kernel::SystemSumArgs sums{systems,
                                   slotSums.as<const double>(),
                                   stress,
                                   segments.as<const kernel::SumSegment>(),
                                   numSegments,
                                   segmentOffset.as<const std::int32_t>(),
                                   segmentSums.as<double>(),
                                   backend.deviceData<const double>(Field::Cell),
                                   backend.deviceData<double>(Field::Energy),
                                   stress ? backend.deviceData<double>(Field::Stress) : nullptr,
                                   stress ? virial.as<double>() : nullptr};
  cudaCheck(kernel::systemSums(sums), operation);
}

void zeroSystemResults(CudaBackend& backend, std::int64_t systems, bool stress, const char* operation) {
  const auto count = static_cast<std::size_t>(systems);
  cudaCheck(device::memsetAsync(backend.deviceData<double>(Field::Energy), 0, count * sizeof(double)), operation);
  if (stress) cudaCheck(device::memsetAsync(backend.deviceData<double>(Field::Stress), 0, 9 * count * sizeof(double)), operation);
}

}  // namespace hookmd
