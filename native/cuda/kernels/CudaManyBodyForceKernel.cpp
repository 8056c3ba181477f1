// Host side of the CUDA many-body kernel: device buffers, the status block and the launches of the
// schedule that kernels/DeviceManyBodySchedule.h decides and charges. A failure the device flags (a bad
// position or cell, a non-finite energy) is repeated with the CPU kernel on the host mirrors, which raises
// it in the CPU's words, or, where the CPU finds nothing wrong, gives the compute's results.
#include "cuda/kernels/CudaManyBodyForceKernel.h"

#include <algorithm>
#include <string>
#include <vector>

#include "cpu/CpuManyBodyForceKernel.h"
#include "cuda/core/CudaBackend.h"
#include "cuda/core/CudaCheck.h"
#include "cuda/core/CudaLaunch.h"
#include "cuda/kernels/CudaManyBodyForces.cuh"
#include "cuda/kernels/CudaPairForces.cuh"
#include "cuda/kernels/CudaSumLayout.h"
#include "cuda/core/DeviceUpload.h"
#include "kernels/DeviceManyBodySchedule.h"

namespace hookmd {

namespace {

/** NeighborStatus::firstNonFinite when every wanted system's energy is finite. */
constexpr unsigned long long kNoSystem = ~0ull;

static_assert(kernel::kSumSegmentSlots == kPairSumSegmentSlots, "the schedule counts the sums' segments");

void reserve(DeviceBuffer& buffer, std::size_t bytes, const std::string& operation) {
  fitBuffer(buffer, bytes, BufferFit::Grow, operation.c_str());
}

class CudaManyBodyForceKernel final : public ManyBodyForceKernel {
 public:
  CudaManyBodyForceKernel(CudaBackend& backend, const ManyBodyForceSpec& spec)
      : backend_(backend),
        model_(spec.model),
        style_(spec.style),
        numTypes_(spec.numTypes),
        cutoff_(spec.cutoff),
        schedule_(backend, spec.model, spec.rows.size()),
        reference_(spec) {
    uploadBytes(d_rows_, spec.rows.data(), spec.rows.size(), BufferFit::Exact, model_.c_str());
    d_status_.allocate(sizeof(kernel::NeighborStatus), model_.c_str());
  }

  // The kernel runs on the backend that created it, whose device arrays it holds pointers into.
  void execute(Backend&, const ComputeRequest& request, const AtomTypes& types, double skin, std::vector<double>& virial) override {
    const std::int64_t systems = backend_.numSystems();
    if (request.stress) virial.assign(9 * static_cast<std::size_t>(systems), 0.0);
    if (systems == 0) return;
    const DevicePairSchedule::Uploads uploads =
        schedule_.begin(backend_.host({Field::Ptr}).i32(Field::Ptr), request.systems, types, numTypes_, cutoff_);
    backend_.onDevice(request.reads(), request.writes());
    if (uploads.layout) uploadLayout();
    wantedActive_ = request.systems != nullptr;
    if (uploads.wanted) upload(d_wanted_, request.systems, static_cast<std::size_t>(systems));
    if (uploads.types) upload(d_types_, types.types->data(), types.types->size());
    if (schedule_.emptyBatch()) return zeroResults(request);
    const std::string operation = model_ + ": many-body forces";
    const char* op = operation.c_str();
    for (;;) {
      reserveRows(operation);
      const kernel::ManyBodyArgs args = manyBodyArgs(request);
      auto* status = d_status_.as<kernel::NeighborStatus>();
      // firstError and firstNonFinite to "none", the counters between them to zero.
      cudaCheck(device::memsetAsync(status, 0xff, sizeof *status), op);
      cudaCheck(device::memsetAsync(&status->totalBins, 0, offsetof(kernel::NeighborStatus, firstNonFinite) - offsetof(kernel::NeighborStatus, totalBins)), op);
      cudaCheck(kernel::searchCentres(args), op);
      cudaCheck(kernel::manyBodyForces(args), op);
      sumEnergies(request.stress, op);
      kernel::NeighborStatus read;
      // The blocking read also surfaces faults of the kernels before it, named after this model.
      downloadBytes(&read, status, sizeof read, op);
      const bool fits = schedule_.evaluated(read.maxNeighbors, read.entries);
      if (read.firstError != kernel::kNoError || read.firstNonFinite != kNoSystem) {
        return reference_.execute(backend_, request, types, skin, virial);
      }
      if (fits) break;
    }
    if (request.stress) downloadBytes(virial.data(), d_virial_.data(), virial.size() * sizeof(double), op);
    schedule_.finished(request.stress);
  }

  NeighborStats neighborStats() const override {
    std::size_t bytes = 0;
    for (const DeviceBuffer* buffer : buffers()) bytes += buffer->bytes();
    return schedule_.stats(static_cast<std::int64_t>(bytes));
  }

 private:
  std::vector<const DeviceBuffer*> buffers() const {
    return {&d_rows_,  &d_status_, &d_systemOf_, &d_segments_, &d_segmentOffset_, &d_wanted_,       &d_types_,
            &d_images_, &d_wrapped_, &d_count_,   &d_atom_,     &d_image_,         &d_type_,         &d_geometry_,
            &d_scratch_, &d_flags_,  &d_entryForces_, &d_slotSums_, &d_segmentSums_, &d_virial_};
  }

  void upload(DeviceBuffer& buffer, const void* data, std::size_t bytes) {
    uploadBytes(buffer, data, bytes, BufferFit::Grow, (model_ + ": upload").c_str());
  }

  /** The sums' tables of the schedule's new layout, and the buffers its size needs. */
  void uploadLayout() {
    const std::int64_t atoms = schedule_.numAtoms();
    const std::int64_t systems = schedule_.numSystems();
    uploadSumLayout(schedule_.ptr(), schedule_.numSegments(), d_systemOf_, d_segments_, d_segmentOffset_, (model_ + ": upload").c_str());
    const std::string operation = model_ + ": resize";
    const auto n = static_cast<std::size_t>(atoms);
    const auto b = static_cast<std::size_t>(systems);
    reserve(d_images_, b * sizeof(kernel::ManyBodySystem), operation);
    reserve(d_wrapped_, 3 * n * sizeof(double), operation);
    reserve(d_count_, n * sizeof(std::int32_t), operation);
    reserve(d_slotSums_, 7 * n * sizeof(double), operation);
    reserve(d_segmentSums_, static_cast<std::size_t>(schedule_.numSegments()) * 7 * sizeof(double), operation);
    reserve(d_virial_, 9 * b * sizeof(double), operation);
  }

  /** The rows at the schedule's capacity. */
  void reserveRows(const std::string& operation) {
    const std::size_t entries = static_cast<std::size_t>(schedule_.numAtoms()) * schedule_.rowCapacity();
    reserve(d_atom_, entries * sizeof(std::int32_t), operation);
    reserve(d_image_, entries * sizeof(std::int32_t), operation);
    reserve(d_type_, entries * sizeof(int), operation);
    reserve(d_geometry_, 7 * entries * sizeof(double), operation);
    reserve(d_scratch_, 7 * entries * sizeof(double), operation);
    reserve(d_flags_, entries, operation);
    reserve(d_entryForces_, 3 * entries * sizeof(double), operation);
  }

  kernel::SystemArrays systemArrays() {
    return {schedule_.numSystems(),
            schedule_.numAtoms(),
            backend_.deviceData<const std::int32_t>(Field::Ptr),
            d_systemOf_.as<const std::int32_t>(),
            wantedActive_ ? d_wanted_.as<const std::uint8_t>() : nullptr,
            nullptr,
            nullptr,
            d_status_.as<kernel::NeighborStatus>()};
  }

  kernel::ManyBodyArgs manyBodyArgs(const ComputeRequest& request) {
    return {systemArrays(),
            backend_.deviceData<const double>(Field::Positions),
            backend_.deviceData<const double>(Field::Cell),
            backend_.deviceData<const std::uint8_t>(Field::Pbc),
            numTypes_ == 1 ? nullptr : d_types_.as<const std::uint8_t>(),
            d_images_.as<kernel::ManyBodySystem>(),
            d_wrapped_.as<double>(),
            static_cast<int>(style_),
            numTypes_,
            d_rows_.data(),
            cutoff_ * cutoff_,
            schedule_.rowCapacity(),
            d_count_.as<std::int32_t>(),
            d_atom_.as<std::int32_t>(),
            d_image_.as<std::int32_t>(),
            d_type_.as<int>(),
            d_geometry_.as<double>(),
            d_scratch_.as<double>(),
            d_flags_.as<unsigned char>(),
            d_entryForces_.as<double>(),
            d_slotSums_.as<double>(),
            request.stress,
            request.forces ? backend_.deviceData<double>(Field::Forces) : nullptr};
  }

  /** The per-segment and per-system sums of the centres' energies (and virials, with `stress`): fixed order. */
  void sumEnergies(bool stress, const char* op) {
    sumSystemEnergies(backend_, systemArrays(), d_slotSums_, stress, d_segments_, schedule_.numSegments(), d_segmentOffset_,
                      d_segmentSums_, d_virial_, op);
  }

  /** A batch of empty systems: zero energies (and stress), as the sums over no atoms give. */
  void zeroResults(const ComputeRequest& request) {
    zeroSystemResults(backend_, schedule_.numSystems(), request.stress, (model_ + ": many-body forces").c_str());
    schedule_.chargeEmptyBatch(request.stress);
  }

  CudaBackend& backend_;
  const std::string model_;
  const ManyBodyStyle style_;
  const int numTypes_;
  const double cutoff_;
  DeviceManyBodySchedule schedule_;
  /** The CPU kernel, for a compute whose failure the device flagged. */
  CpuManyBodyForceKernel reference_;
  bool wantedActive_ = false;

  DeviceBuffer d_rows_;
  DeviceBuffer d_status_;
  DeviceBuffer d_systemOf_;
  DeviceBuffer d_segments_;
  DeviceBuffer d_segmentOffset_;
  DeviceBuffer d_wanted_;
  DeviceBuffer d_types_;
  DeviceBuffer d_images_;
  DeviceBuffer d_wrapped_;
  DeviceBuffer d_count_;
  DeviceBuffer d_atom_;
  DeviceBuffer d_image_;
  DeviceBuffer d_type_;
  DeviceBuffer d_geometry_;
  DeviceBuffer d_scratch_;
  DeviceBuffer d_flags_;
  DeviceBuffer d_entryForces_;
  DeviceBuffer d_slotSums_;
  DeviceBuffer d_segmentSums_;
  DeviceBuffer d_virial_;
};

}  // namespace

std::unique_ptr<ManyBodyForceKernel> createCudaManyBodyForceKernel(CudaBackend& backend, const ManyBodyForceSpec& spec) {
  return std::make_unique<CudaManyBodyForceKernel>(backend, spec);
}

}  // namespace hookmd
