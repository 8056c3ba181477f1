// Host side of the CUDA pair forces: device buffers, the rebuild decision, error flags and statistics. The
// rebuild rule is NeighborCache's (never built, layout, cell or pbc changed, or an atom moved more than
// skin/2), checked on the device; one small status block comes back per compute. A rebuild rebuilds every
// system of the batch in one pass, as LAMMPS does, since on the GPU that costs about as much as one.
#include "cuda/CudaPairForceKernel.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "core/Error.h"
#include "cuda/CudaBackend.h"
#include "cuda/CudaCheck.h"
#include "cuda/CudaNeighborList.cuh"
#include "cuda/CudaPairForces.cuh"
#include "cuda/DeviceBuffer.h"
#include "neighbor/NeighborList.h"
#include "neighbor/OverlapCheck.h"

namespace hookmd {

namespace {

/** Row capacity of the first build: small systems fit it; dense ones grow once (search overflow retry). */
constexpr int kInitialRowCapacity = 16;
/** NeighborStatus::firstNonFinite when every wanted system's energy is finite. */
constexpr unsigned long long kNoSystem = ~0ull;
/** Bin keys are 32-bit. */
constexpr std::uint64_t kMaxBins = 0xffffffffull;

/** Grows `buffer` to at least `bytes`, doubling so a slowly growing batch reallocates O(log n) times. */
void reserve(DeviceBuffer& buffer, std::size_t bytes, const std::string& operation) {
  if (buffer.bytes() >= bytes) return;
  buffer.allocate(std::max(bytes, 2 * buffer.bytes()), operation.c_str());
}

class CudaPairForceKernel final : public PairForceKernel {
 public:
  CudaPairForceKernel(CudaBackend& backend, const PairForceSpec& spec)
      : backend_(backend),
        model_(spec.model),
        evaluator_(spec.evaluator),
        numTypes_(spec.numTypes),
        cutoff_(spec.cutoff),
        switched_(!spec.switches.empty()) {
    d_params_.allocate(spec.params.size(), model_.c_str());
    cudaCheck(cudaMemcpy(d_params_.data(), spec.params.data(), spec.params.size(), cudaMemcpyHostToDevice), model_.c_str());
    if (switched_) {
      const std::size_t bytes = spec.switches.size() * sizeof(SwitchParams);
      d_switches_.allocate(bytes, model_.c_str());
      cudaCheck(cudaMemcpy(d_switches_.data(), spec.switches.data(), bytes, cudaMemcpyHostToDevice), model_.c_str());
    }
    d_status_.allocate(sizeof(kernel::NeighborStatus), model_.c_str());
  }

  // The kernel runs on the backend that created it, whose device arrays it holds pointers into.
  void execute(Backend&, const ComputeRequest& request, const AtomTypes& types, double skin,
               std::vector<double>& virial) override {
    const std::int64_t systems = backend_.numSystems();
    if (request.stress) virial.assign(9 * static_cast<std::size_t>(systems), 0.0);
    if (systems == 0) return;
    const bool resized = updateLayout(backend_.host({Field::Ptr}).i32(Field::Ptr));
    backend_.onDevice(request.reads(), request.writes());
    updateWanted(request.systems);
    updateTypes(types);
    const double rlist = cutoff_ + skin;
    const bool newRadius = rlist != rlist_ || skin != skin_;
    if (newRadius) {
      rlist_ = rlist;
      skin_ = skin;
      built_ = false;
    }
    // NeighborCache's count: every time the whole state is dropped (new batch, layout, cutoff or skin).
    if (resized || newRadius) ++resets_;
    if (!built_ || stale()) build();
    evaluate(request, virial);
  }

  NeighborStats neighborStats() const override {
    NeighborStats stats;
    stats.builds = builds_;
    stats.resets = resets_;
    // Each unordered pair sits in both of its atoms' rows; count it once, as the CPU's half lists do.
    stats.pairs = built_ ? entries_ / 2 : 0;
    stats.systems = built_ ? numSystems_ : 0;
    std::size_t bytes = 0;
    for (const DeviceBuffer* buffer : buffers()) bytes += buffer->bytes();
    stats.bytes = static_cast<std::int64_t>(bytes);
    return stats;
  }

 private:
  std::vector<const DeviceBuffer*> buffers() const {
    return {&d_params_,      &d_switches_,      &d_status_,    &d_systemOf_,     &d_segments_,      &d_segmentOffset_,
            &d_wanted_,      &d_types_,         &d_grids_,     &d_stale_,        &d_extents_,       &d_binCount_,
            &d_binOffset_,   &d_temp_,          &d_binStart_,  &d_wrap_,         &d_keys_,          &d_atoms_,
            &d_slotKeys_,    &d_slotAtom_,      &d_slotPositions_, &d_reference_, &d_neighbors_,    &d_neighborCount_,
            &d_slotSums_,    &d_segmentSums_,   &d_virial_};
  }

  std::string where(const char* step) const { return model_ + ": " + step; }

  /**
   * New per-atom and per-system tables when the batch's size or ptr changed (validating ptr first); true
   * when the batch was reallocated or resized.
   */
  bool updateLayout(const std::int32_t* ptr) {
    const std::int64_t atoms = backend_.numAtoms();
    const std::int64_t systems = backend_.numSystems();
    const bool resized = generation_ != backend_.generation() || atoms != numAtoms_ || systems != numSystems_;
    if (!resized && std::equal(ptr, ptr + systems + 1, ptr_.begin())) return false;
    bool ok = ptr[0] == 0 && ptr[systems] == atoms;
    for (std::int64_t s = 0; ok && s < systems; ++s) ok = ptr[s + 1] >= ptr[s];
    if (!ok) fail("INVALID_BATCH", model_ + ": the batch's ptr offsets do not partition its atoms");
    // Nothing below is kept unless it all succeeds: a failed allocation leaves the layout unbound.
    built_ = false;
    numAtoms_ = -1;

    std::vector<std::int32_t> systemOf(static_cast<std::size_t>(atoms));
    std::vector<kernel::SumSegment> segments;
    std::vector<std::int32_t> segmentOffset(static_cast<std::size_t>(systems) + 1, 0);
    for (std::int64_t s = 0; s < systems; ++s) {
      std::fill(systemOf.begin() + ptr[s], systemOf.begin() + ptr[s + 1], static_cast<std::int32_t>(s));
      for (std::int32_t begin = ptr[s]; begin < ptr[s + 1]; begin += kernel::kSumSegmentSlots) {
        segments.push_back({begin, std::min(begin + kernel::kSumSegmentSlots, ptr[s + 1]), static_cast<std::int32_t>(s)});
      }
      segmentOffset[s + 1] = static_cast<std::int32_t>(segments.size());
    }
    upload(d_systemOf_, systemOf.data(), systemOf.size() * sizeof(std::int32_t));
    upload(d_segments_, segments.data(), segments.size() * sizeof(kernel::SumSegment));
    upload(d_segmentOffset_, segmentOffset.data(), segmentOffset.size() * sizeof(std::int32_t));
    numSegments_ = static_cast<std::int64_t>(segments.size());

    const std::string operation = where("resize");
    const auto n = static_cast<std::size_t>(atoms);
    const auto b = static_cast<std::size_t>(systems);
    reserve(d_grids_, b * sizeof(kernel::SystemGrid), operation);
    reserve(d_stale_, b, operation);
    reserve(d_extents_, 6 * b * sizeof(unsigned long long), operation);
    reserve(d_binCount_, b * sizeof(unsigned long long), operation);
    reserve(d_binOffset_, (b + 1) * sizeof(unsigned long long), operation);
    reserve(d_wrap_, 3 * n * sizeof(std::int32_t), operation);
    reserve(d_keys_, n * sizeof(std::uint32_t), operation);
    reserve(d_atoms_, n * sizeof(std::int32_t), operation);
    reserve(d_slotKeys_, n * sizeof(std::uint32_t), operation);
    reserve(d_slotAtom_, n * sizeof(std::int32_t), operation);
    reserve(d_slotPositions_, n * sizeof(kernel::SlotPosition), operation);
    reserve(d_reference_, n * sizeof(kernel::SlotPosition), operation);
    reserve(d_neighborCount_, n * sizeof(std::int32_t), operation);
    reserve(d_segmentSums_, static_cast<std::size_t>(numSegments_) * 7 * sizeof(double), operation);
    reserve(d_virial_, 9 * b * sizeof(double), operation);
    if (resized) {
      typesUploaded_ = false;
      wanted_.clear();
    }
    generation_ = backend_.generation();
    numAtoms_ = atoms;
    numSystems_ = systems;
    ptr_.assign(ptr, ptr + systems + 1);
    return resized;
  }

  void upload(DeviceBuffer& buffer, const void* data, std::size_t bytes) {
    if (bytes == 0) return;
    reserve(buffer, bytes, where("upload"));
    cudaCheck(cudaMemcpy(buffer.data(), data, bytes, cudaMemcpyHostToDevice), where("upload").c_str());
  }

  /** The per-system flags on the device, copied only when they differ from the last ones sent. */
  void updateWanted(const std::uint8_t* flags) {
    wantedActive_ = flags != nullptr;
    if (!wantedActive_) return;
    const auto systems = static_cast<std::size_t>(numSystems_);
    if (wanted_.size() == systems && std::equal(flags, flags + systems, wanted_.begin())) return;
    wanted_.assign(flags, flags + systems);
    upload(d_wanted_, wanted_.data(), systems);
  }

  void updateTypes(const AtomTypes& types) {
    if (numTypes_ == 1) return;
    if (types.types == nullptr || static_cast<std::int64_t>(types.types->size()) != numAtoms_) {
      fail("INVALID_STATE", model_ + ": species types were not assigned to every atom of the batch");
    }
    if (typesUploaded_ && types.version == typesVersion_) return;
    upload(d_types_, types.types->data(), types.types->size());
    typesVersion_ = types.version;
    typesUploaded_ = true;
  }

  kernel::SystemArrays systemArrays() {
    return {numSystems_,
            numAtoms_,
            backend_.deviceData<const std::int32_t>(Field::Ptr),
            d_systemOf_.as<const std::int32_t>(),
            wantedActive_ ? d_wanted_.as<const std::uint8_t>() : nullptr,
            d_grids_.as<kernel::SystemGrid>(),
            d_stale_.as<std::uint8_t>(),
            d_status_.as<kernel::NeighborStatus>()};
  }

  kernel::PrepareArgs prepareArgs(bool build) {
    return {systemArrays(),
            backend_.deviceData<const double>(Field::Positions),
            backend_.deviceData<const double>(Field::Cell),
            backend_.deviceData<const std::uint8_t>(Field::Pbc),
            d_wrap_.as<const std::int32_t>(),
            d_slotAtom_.as<const std::int32_t>(),
            numTypes_ == 1 ? nullptr : d_types_.as<const std::uint8_t>(),
            d_slotPositions_.as<kernel::SlotPosition>(),
            d_reference_.as<kernel::SlotPosition>(),
            build,
            0.25 * skin_ * skin_};
  }

  kernel::NeighborStatus readStatus(const char* step) {
    kernel::NeighborStatus status;
    // The blocking copy also surfaces faults of the kernels before it.
    cudaCheck(cudaMemcpy(&status, d_status_.data(), sizeof status, cudaMemcpyDeviceToHost), where(step).c_str());
    return status;
  }

  /** Slot positions for this compute, and whether a wanted system's list went stale (one flag back). */
  bool stale() {
    auto* status = d_status_.as<kernel::NeighborStatus>();
    cudaCheck(cudaMemsetAsync(&status->rebuild, 0, sizeof status->rebuild), where("neighbor check").c_str());
    cudaCheck(kernel::prepareSlots(prepareArgs(false)), where("neighbor check").c_str());
    return readStatus("neighbor check").rebuild != 0;
  }

  void checkErrors(const kernel::NeighborStatus& status) {
    if (status.firstError == kernel::kNoError) return;
    // Indexed by kernel::NeighborError: the CPU build's codes for the same failures.
    static const char* const kErrors[][2] = {
        {"INVALID_POSITIONS", "a position is NaN or infinite"},
        {"SINGULAR_CELL", "the periodic lattice vectors are zero, parallel or span no volume"},
        {"CELL_TOO_NARROW", "the cell is so narrow compared with the cutoff that the search needs more than 1048576 "
                            "periodic images"},
        {"SYSTEM_TOO_LARGE", "its atoms with the periodic images they need do not fit the 32-bit pair encoding; use a "
                             "larger cell"},
        {"INVALID_POSITIONS", "an atom lies more than 1e9 cells away from its cell"}};
    const auto* error = kErrors[std::min<unsigned long long>(status.firstError & 7, kernel::kFarPosition)];
    const auto s = static_cast<std::int64_t>(status.firstError >> 3);
    diagnoseOnHost(s);
    fail(error[0], model_ + ": system " + std::to_string(s) + ": neighbor list: " + error[1]);
  }

  /**
   * Repeats system `s`'s neighbor build with the CPU code on the host mirrors, then the CPU's overlap check,
   * so a failure reads the same on every backend (with the CPU's numbers: the image count, the atoms that
   * overlap). Only failures pay for the copy. Returns when the CPU finds nothing wrong either.
   */
  void diagnoseOnHost(std::int64_t s) {
    const BatchStorage& storage = backend_.host({Field::Positions, Field::Cell, Field::Pbc, Field::Ptr});
    const std::int32_t* ptr = storage.i32(Field::Ptr);
    SystemNeighborList list;
    NeighborScratch scratch;
    try {
      buildNeighborList(list, storage.f64(Field::Positions) + 3 * static_cast<std::int64_t>(ptr[s]), ptr[s + 1] - ptr[s],
                        storage.f64(Field::Cell) + 9 * s, storage.u8(Field::Pbc) + 3 * s, rlist_, scratch, cutoff_);
    } catch (const NativeError& error) {
      fail(error.code().c_str(), model_ + ": system " + std::to_string(s) + ": " + error.what());
    }
    list.atomBegin = ptr[s];
    checkOverlap(model_.c_str(), s, backend_, storage, list);
  }

  void build() {
    built_ = false;
    const std::string operation = where("neighbor build");
    const char* op = operation.c_str();
    kernel::NeighborStatus initial{kernel::kNoError, 0, 0, 0, 0, kNoSystem};
    cudaCheck(cudaMemcpy(d_status_.data(), &initial, sizeof initial, cudaMemcpyHostToDevice), op);

    std::size_t tempBytes = 0;
    cudaCheck(kernel::scanTempBytes(numSystems_, &tempBytes), op);
    reserve(d_temp_, tempBytes, operation);
    kernel::GridArgs grid{systemArrays(),
                          backend_.deviceData<const double>(Field::Positions),
                          backend_.deviceData<const double>(Field::Cell),
                          backend_.deviceData<const std::uint8_t>(Field::Pbc),
                          rlist_,
                          d_extents_.as<unsigned long long>(),
                          d_binCount_.as<unsigned long long>(),
                          d_binOffset_.as<unsigned long long>(),
                          d_temp_.data(),
                          d_temp_.bytes()};
    cudaCheck(kernel::setupGrids(grid), op);
    kernel::NeighborStatus status = readStatus("neighbor build");
    checkErrors(status);
    const std::uint64_t totalBins = status.totalBins;
    if (totalBins > kMaxBins) {
      fail("SYSTEM_TOO_LARGE", model_ + ": neighbor list: the batch needs " + std::to_string(totalBins) +
                                   " bins, more than the 32-bit bin keys hold; split it into smaller batches");
    }

    reserve(d_binStart_, (totalBins + 1) * sizeof(std::int32_t), operation);
    cudaCheck(kernel::sortTempBytes(numAtoms_, totalBins, &tempBytes), op);
    reserve(d_temp_, tempBytes, operation);
    kernel::BinArgs bins{systemArrays(),
                         backend_.deviceData<const double>(Field::Positions),
                         d_binOffset_.as<const unsigned long long>(),
                         totalBins,
                         d_wrap_.as<std::int32_t>(),
                         d_keys_.as<std::uint32_t>(),
                         d_atoms_.as<std::int32_t>(),
                         d_slotKeys_.as<std::uint32_t>(),
                         d_slotAtom_.as<std::int32_t>(),
                         d_binStart_.as<std::int32_t>(),
                         d_temp_.data(),
                         d_temp_.bytes()};
    cudaCheck(kernel::binAtoms(bins), op);
    cudaCheck(kernel::prepareSlots(prepareArgs(true)), op);

    auto* d_status = d_status_.as<kernel::NeighborStatus>();
    for (;;) {
      const std::size_t rowBytes = static_cast<std::size_t>(numAtoms_) * rowCapacity_ * sizeof(std::uint32_t);
      // Exact size, not doubled: this is the largest buffer, and its capacity already has headroom.
      if (d_neighbors_.bytes() < rowBytes) d_neighbors_.allocate(rowBytes, op);
      kernel::SearchArgs search{systemArrays(),
                                d_slotPositions_.as<const kernel::SlotPosition>(),
                                d_slotKeys_.as<const std::uint32_t>(),
                                d_binOffset_.as<const unsigned long long>(),
                                d_binStart_.as<const std::int32_t>(),
                                rlist_ * rlist_,
                                rowCapacity_,
                                d_neighbors_.as<std::uint32_t>(),
                                d_neighborCount_.as<std::int32_t>()};
      cudaCheck(kernel::searchNeighbors(search), op);
      status = readStatus("neighbor build");
      checkErrors(status);
      if (status.maxNeighbors <= static_cast<unsigned int>(rowCapacity_)) break;
      // 1/8 headroom over the longest row, so a liquid's fluctuating density rarely triggers another retry.
      const std::int64_t grown = (static_cast<std::int64_t>(status.maxNeighbors) * 9 / 8 + 7) / 8 * 8;
      if (grown > 0x7fffffff) fail("NEIGHBOR_OVERFLOW", model_ + ": neighbor list: an atom has more than 2^31 neighbors");
      rowCapacity_ = static_cast<int>(grown);
      cudaCheck(cudaMemsetAsync(&d_status->entries, 0, sizeof d_status->entries), op);
      cudaCheck(cudaMemsetAsync(&d_status->maxNeighbors, 0, sizeof d_status->maxNeighbors), op);
    }
    entries_ = static_cast<std::int64_t>(status.entries);
    builds_ += numSystems_;
    built_ = true;
  }

  void evaluate(const ComputeRequest& request, std::vector<double>& virial) {
    const std::string operation = where("pair forces");
    const char* op = operation.c_str();
    const auto n = static_cast<std::size_t>(numAtoms_);
    reserve(d_slotSums_, n * (request.stress ? 7 : 1) * sizeof(double), operation);
    const kernel::SystemArrays systems = systemArrays();
    kernel::PairForceArgs forces{systems,
                                 d_slotPositions_.as<const kernel::SlotPosition>(),
                                 d_slotAtom_.as<const std::int32_t>(),
                                 d_neighbors_.as<const std::uint32_t>(),
                                 d_neighborCount_.as<const std::int32_t>(),
                                 static_cast<int>(evaluator_),
                                 numTypes_,
                                 d_params_.data(),
                                 switched_ ? d_switches_.as<const SwitchParams>() : nullptr,
                                 request.stress,
                                 request.forces ? backend_.deviceData<double>(Field::Forces) : nullptr,
                                 d_slotSums_.as<double>()};
    auto* status = d_status_.as<kernel::NeighborStatus>();
    cudaCheck(cudaMemsetAsync(&status->firstNonFinite, 0xff, sizeof status->firstNonFinite), op);
    cudaCheck(kernel::pairForces(forces), op);
    kernel::SystemSumArgs sums{systems,
                               d_slotSums_.as<const double>(),
                               request.stress,
                               d_segments_.as<const kernel::SumSegment>(),
                               numSegments_,
                               d_segmentOffset_.as<const std::int32_t>(),
                               d_segmentSums_.as<double>(),
                               backend_.deviceData<const double>(Field::Cell),
                               backend_.deviceData<double>(Field::Energy),
                               request.stress ? backend_.deviceData<double>(Field::Stress) : nullptr,
                               request.stress ? d_virial_.as<double>() : nullptr};
    cudaCheck(kernel::systemSums(sums), op);
    if (request.stress) {
      cudaCheck(cudaMemcpy(virial.data(), d_virial_.data(), virial.size() * sizeof(double), cudaMemcpyDeviceToHost), op);
    }
    // The blocking read surfaces faults of the pair loop here, named after this model, not in whatever call
    // comes next; it replaces the synchronisation this needed anyway, so the overlap flag costs no extra wait.
    const std::uint64_t nonFinite = readStatus("pair forces").firstNonFinite;
    if (nonFinite != kNoSystem) diagnoseOnHost(static_cast<std::int64_t>(nonFinite));
  }

  CudaBackend& backend_;
  const std::string model_;
  const PairEvaluator evaluator_;
  const int numTypes_;
  const double cutoff_;
  const bool switched_;

  std::uint64_t generation_ = 0;
  std::int64_t numAtoms_ = -1;
  std::int64_t numSystems_ = -1;
  std::vector<std::int32_t> ptr_;
  std::int64_t numSegments_ = 0;
  std::vector<std::uint8_t> wanted_;
  bool wantedActive_ = false;
  std::uint64_t typesVersion_ = 0;
  bool typesUploaded_ = false;

  double rlist_ = -1.0;
  double skin_ = -1.0;
  bool built_ = false;
  int rowCapacity_ = kInitialRowCapacity;
  std::int64_t entries_ = 0;
  std::int64_t builds_ = 0;
  std::int64_t resets_ = 0;

  DeviceBuffer d_params_;
  DeviceBuffer d_switches_;
  DeviceBuffer d_status_;
  DeviceBuffer d_systemOf_;
  DeviceBuffer d_segments_;
  DeviceBuffer d_segmentOffset_;
  DeviceBuffer d_wanted_;
  DeviceBuffer d_types_;
  DeviceBuffer d_grids_;
  DeviceBuffer d_stale_;
  DeviceBuffer d_extents_;
  DeviceBuffer d_binCount_;
  DeviceBuffer d_binOffset_;
  DeviceBuffer d_temp_;
  DeviceBuffer d_binStart_;
  DeviceBuffer d_wrap_;
  DeviceBuffer d_keys_;
  DeviceBuffer d_atoms_;
  DeviceBuffer d_slotKeys_;
  DeviceBuffer d_slotAtom_;
  DeviceBuffer d_slotPositions_;
  DeviceBuffer d_reference_;
  DeviceBuffer d_neighbors_;
  DeviceBuffer d_neighborCount_;
  DeviceBuffer d_slotSums_;
  DeviceBuffer d_segmentSums_;
  DeviceBuffer d_virial_;
};

}  // namespace

std::unique_ptr<PairForceKernel> createCudaPairForceKernel(CudaBackend& backend, const PairForceSpec& spec) {
  return std::make_unique<CudaPairForceKernel>(backend, spec);
}

}  // namespace hookmd
