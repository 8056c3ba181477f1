// Host side of the CUDA pair forces: device buffers, error flags and the launches of the schedule that
// kernels/DevicePairSchedule.h decides and charges (what is uploaded when, when the lists are checked and
// rebuilt, how long their rows are). The rebuild rule is NeighborCache's (never built, layout, cell or pbc
// changed, or an atom moved more than skin/2), checked on the device. A rebuild rebuilds every system of
// the batch in one pass, as LAMMPS does, since on the GPU that costs about as much as one.
#include "cuda/kernels/CudaPairForceKernel.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "platform/DarkKernels.h"
#include "core/Error.h"
#include "cuda/core/CudaBackend.h"
#include "cuda/core/CudaCheck.h"
#include "cuda/neighbor/CudaNeighborList.cuh"
#include "cuda/kernels/CudaPairForces.cuh"
#include "cuda/core/CudaLaunch.h"
#include "cuda/kernels/CudaResidentChunk.h"
#include "cuda/dynamics/CudaSmallStep.h"
#include "cuda/kernels/CudaSumLayout.h"
#include "kernels/Integrator.h"
#include "cuda/core/DeviceUpload.h"
#include "kernels/DevicePairSchedule.h"
#include "neighbor/NeighborList.h"
#include "neighbor/OverlapCheck.h"

namespace hookmd {

namespace {

/** NeighborStatus::firstNonFinite when every wanted system's energy is finite. */
constexpr unsigned long long kNoSystem = ~0ull;
/** Bin keys are 32-bit. */
constexpr std::uint64_t kMaxBins = 0xffffffffull;

static_assert(kernel::kSumSegmentSlots == kPairSumSegmentSlots, "the schedule counts the kernels' sum segments");
static_assert(sizeof(kernel::NeighborStatus) == 40, "DevicePairSchedule charges a 40-byte status block");
static_assert(sizeof(kernel::SumSegment) == 12, "DevicePairSchedule charges 12 bytes per sum segment");
static_assert(sizeof(kernel::ResidentStatus) == kResidentStatusBytes, "ResidentStepPath charges the chunk's status read");

/** Grows `buffer` to at least `bytes`, doubling so a slowly growing batch reallocates O(log n) times. */
void reserve(DeviceBuffer& buffer, std::size_t bytes, const std::string& operation) {
  fitBuffer(buffer, bytes, BufferFit::Grow, operation.c_str());
}

class CudaPairForceKernel final : public PairForceKernel, public ResidentStepKernel {
 public:
  CudaPairForceKernel(CudaBackend& backend, const PairForceSpec& spec)
      : backend_(backend),
        model_(spec.model),
        evaluator_(spec.evaluator),
        numTypes_(spec.numTypes),
        cutoff_(spec.cutoff),
        switched_(!spec.switches.empty()),
        schedule_(backend, spec.model, spec.params.size(), spec.switches.size() * sizeof(SwitchParams)) {
    uploadBytes(d_params_, spec.params.data(), spec.params.size(), BufferFit::Exact, model_.c_str());
    if (switched_) {
      uploadBytes(d_switches_, spec.switches.data(), spec.switches.size() * sizeof(SwitchParams), BufferFit::Exact, model_.c_str());
    }
    d_status_.allocate(sizeof(kernel::NeighborStatus), model_.c_str());
  }

  // The kernel runs on the backend that created it, whose device arrays it holds pointers into.
  void execute(Backend&, const ComputeRequest& request, const AtomTypes& types, double skin,
               std::vector<double>& virial) override {
    const std::int64_t systems = backend_.numSystems();
    if (request.stress) virial.assign(9 * static_cast<std::size_t>(systems), 0.0);
    if (systems == 0) return;
    const DevicePairSchedule::Uploads uploads =
        schedule_.begin(backend_.host({Field::Ptr}).i32(Field::Ptr), request.systems, types, numTypes_, cutoff_, skin);
    backend_.onDevice(request.reads(), request.writes());
    if (uploads.layout) uploadLayout();
    // Over the selection of the loop that left them, before the new one goes up.
    if (uploads.pendingSums) sumEnergies(false, where("energy sums").c_str());
    wantedActive_ = request.systems != nullptr;
    if (uploads.wanted) upload(d_wanted_, request.systems, static_cast<std::size_t>(systems));
    if (uploads.types) upload(d_types_, types.types->data(), types.types->size());
    if (schedule_.emptyBatch()) return zeroResults(request);
    bool rebuild = schedule_.needsBuild();
    if (!rebuild) {
      rebuild = stale();
      schedule_.checked(rebuild);
    }
    if (rebuild) build();
    evaluate(request, virial);
  }

  void finishEnergies(Backend&) override {
    if (!schedule_.sumsPending()) return;
    sumEnergies(false, where("energy sums").c_str());
    schedule_.summed();
  }

  ResidentStepKernel* residentSteps() override { return kResidentGraphs ? this : nullptr; }

  bool residentReady(Backend&, Integrator& integrator) override {
    return std::strcmp(integrator.name(), "VelocityVerlet") == 0 && dynamic_cast<CudaSmallStep*>(&integrator) != nullptr &&
           schedule_.residentReady();
  }

  ResidentChunkResult runResident(Backend&, Integrator& integrator, const ResidentChunk& chunk) override {
    const std::string operation = where("resident chunk");
    const char* op = operation.c_str();
    const double* d_dt = dynamic_cast<CudaSmallStep&>(integrator).smallStep(schedule_.numSystems()).d_dt;
    backend_.onDevice({Field::Positions, Field::Velocities, Field::Forces, Field::Masses, Field::Cell, Field::Pbc, Field::Ptr},
                      {Field::Positions, Field::Velocities, Field::Forces, Field::Energy});
    const auto n = static_cast<std::size_t>(schedule_.numAtoms());
    const std::size_t fieldBytes = 3 * n * sizeof(double);
    for (DeviceBuffer& snapshot : d_snapshot_) reserve(snapshot, fieldBytes, operation);
    reserve(d_slotSums_, n * sizeof(double), operation);
    if (d_residentStatus_.bytes() < sizeof(kernel::ResidentStatus)) d_residentStatus_.allocate(sizeof(kernel::ResidentStatus), op);
    std::size_t tempBytes = 0;
    cudaCheck(kernel::sortTempBytes(schedule_.numAtoms(), totalBins_, &tempBytes), op);
    reserve(d_temp_, tempBytes, operation);

    auto* status = d_residentStatus_.as<kernel::ResidentStatus>();
    // Every system, the chunk's own status block, and the rebuild's systems: the stale ones.
    kernel::SystemArrays systems = systemArrays();
    systems.d_wanted = nullptr;
    systems.d_status = &status->neighbor;
    kernel::SystemArrays stale = systems;
    stale.staleOnly = true;
    const double forceToAccel = backend_.units().forceToAccel;
    ResidentGraphArgs args{};
    args.step = {systems, d_slotAtom_.as<const std::int32_t>(), d_wrap_.as<const std::int32_t>(),
                 numTypes_ == 1 ? nullptr : d_types_.as<const std::uint8_t>(), d_slotPositions_.as<kernel::SlotPosition>(),
                 d_reference_.as<const kernel::SlotPosition>(), backend_.deviceData<double>(Field::Positions),
                 backend_.deviceData<double>(Field::Velocities), backend_.deviceData<const double>(Field::Forces),
                 backend_.deviceData<const double>(Field::Masses), d_dt, forceToAccel, 0.25 * schedule_.skin() * schedule_.skin()};
    args.bins = binArgs(stale, totalBins_);
    args.prepare = prepareArgs(true);
    args.prepare.systems = stale;
    args.search = searchArgs(stale);
    args.forces = forceArgs(systems, false, true, true);
    args.forces.kick = {backend_.deviceData<double>(Field::Velocities), backend_.deviceData<const double>(Field::Masses), d_dt, forceToAccel};
    args.d_status = status;
    const Field fields[3] = {Field::Positions, Field::Velocities, Field::Forces};
    for (int k = 0; k < 3; ++k) {
      args.d_fields[k] = backend_.deviceData<double>(fields[k]);
      args.d_snapshot[k] = d_snapshot_[k].as<double>();
    }
    args.fieldBytes = fieldBytes;
    const CudaResidentGraph::Launched launched = resident_.launch(args, chunk.steps, op);

    kernel::ResidentStatus read;
    downloadBytes(&read, status, sizeof read, op);
    device::countLaunches(read.passes * launched.rebuildLaunches);
    ResidentChunkResult result;
    result.rebuildPasses = static_cast<std::int64_t>(read.passes);
    result.systemsRebuilt = static_cast<std::int64_t>(read.systemsRebuilt);
    const bool failed = read.neighbor.firstError != kernel::kNoError || read.neighbor.firstNonFinite != kNoSystem;
    const bool overflowed = read.neighbor.maxNeighbors > static_cast<unsigned int>(schedule_.rowCapacity());
    result.replay = failed || overflowed;
    result.rowsOnly = overflowed && !failed;
    result.longestRow = read.neighbor.maxNeighbors;
    result.captured = launched.captured;
    result.listEntries = schedule_.entries();
    schedule_.residentRan(result);
    return result;
  }

  void restoreResident(Backend&) override {
    const std::string operation = where("resident chunk");
    backend_.onDevice({}, {Field::Positions, Field::Velocities, Field::Forces});
    const Field fields[3] = {Field::Positions, Field::Velocities, Field::Forces};
    const std::size_t fieldBytes = 3 * static_cast<std::size_t>(schedule_.numAtoms()) * sizeof(double);
    for (int k = 0; k < 3; ++k) {
      cudaCheck(device::copyOnDevice(backend_.deviceData<double>(fields[k]), d_snapshot_[k].data(), fieldBytes), operation.c_str());
    }
    schedule_.forgetLists();
  }

  void regrowResident(Backend&, std::uint64_t longestRow) override {
    schedule_.regrow(longestRow);
    build();
  }

  NeighborStats neighborStats() const override {
    std::size_t bytes = 0;
    for (const DeviceBuffer* buffer : buffers()) bytes += buffer->bytes();
    return schedule_.stats(static_cast<std::int64_t>(bytes));
  }

 private:
  std::vector<const DeviceBuffer*> buffers() const {
    return {&d_params_,      &d_switches_,      &d_status_,    &d_systemOf_,     &d_segments_,      &d_segmentOffset_,
            &d_wanted_,      &d_types_,         &d_grids_,     &d_stale_,        &d_extents_,       &d_binCount_,
            &d_binOffset_,   &d_temp_,          &d_binStart_,  &d_wrap_,         &d_keys_,          &d_atoms_,
            &d_slotKeys_,    &d_slotAtom_,      &d_slotPositions_, &d_reference_, &d_neighbors_,    &d_neighborCount_,
            &d_slotSums_,    &d_segmentSums_,   &d_virial_,        &d_residentStatus_, &d_snapshot_[0], &d_snapshot_[1],
            &d_snapshot_[2]};
  }

  std::string where(const char* step) const { return model_ + ": " + step; }

  /** The per-atom and per-system tables of the schedule's new layout, and buffers for its size. */
  void uploadLayout() {
    const std::int64_t atoms = schedule_.numAtoms();
    const std::int64_t systems = schedule_.numSystems();
    uploadSumLayout(schedule_.ptr(), schedule_.numSegments(), d_systemOf_, d_segments_, d_segmentOffset_, where("upload").c_str());

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
    reserve(d_segmentSums_, static_cast<std::size_t>(schedule_.numSegments()) * 7 * sizeof(double), operation);
    reserve(d_virial_, 9 * b * sizeof(double), operation);
  }

  void upload(DeviceBuffer& buffer, const void* data, std::size_t bytes) {
    uploadBytes(buffer, data, bytes, BufferFit::Grow, where("upload").c_str());
  }

  /** A batch of empty systems: zero energies (and stress), as the sums over no atoms give. */
  void zeroResults(const ComputeRequest& request) {
    zeroSystemResults(backend_, schedule_.numSystems(), request.stress, where("pair forces").c_str());
    schedule_.chargeEmptyBatch(request.stress);
  }

  kernel::SystemArrays systemArrays() {
    return {schedule_.numSystems(),
            schedule_.numAtoms(),
            backend_.deviceData<const std::int32_t>(Field::Ptr),
            d_systemOf_.as<const std::int32_t>(),
            wantedActive_ ? d_wanted_.as<const std::uint8_t>() : nullptr,
            d_grids_.as<kernel::SystemGrid>(),
            d_stale_.as<std::uint8_t>(),
            d_status_.as<kernel::NeighborStatus>()};
  }

  kernel::PrepareArgs prepareArgs(bool build) {
    const double skin = schedule_.skin();
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
            0.25 * skin * skin};
  }

  kernel::NeighborStatus readStatus(const char* step) {
    kernel::NeighborStatus status;
    // The blocking copy also surfaces faults of the kernels before it.
    downloadBytes(&status, d_status_.data(), sizeof status, where(step).c_str());
    return status;
  }

  /** Slot positions for this compute, and whether a wanted system's list went stale (one flag back). */
  bool stale() {
    auto* status = d_status_.as<kernel::NeighborStatus>();
    cudaCheck(device::memsetAsync(&status->rebuild, 0, sizeof status->rebuild), where("neighbor check").c_str());
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
                        storage.f64(Field::Cell) + 9 * s, storage.u8(Field::Pbc) + 3 * s, schedule_.rlist(), scratch, cutoff_);
    } catch (const NativeError& error) {
      fail(error.code().c_str(), model_ + ": system " + std::to_string(s) + ": " + error.what());
    }
    list.atomBegin = ptr[s];
    checkOverlap(model_.c_str(), s, backend_, storage, list);
  }

  kernel::BinArgs binArgs(const kernel::SystemArrays& systems, std::uint64_t totalBins) {
    return {systems,
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
  }

  /** The search at the schedule's radius and row capacity. */
  kernel::SearchArgs searchArgs(const kernel::SystemArrays& systems) {
    const double rlist = schedule_.rlist();
    return {systems,
            d_slotPositions_.as<const kernel::SlotPosition>(),
            d_slotKeys_.as<const std::uint32_t>(),
            d_binOffset_.as<const unsigned long long>(),
            d_binStart_.as<const std::int32_t>(),
            rlist * rlist,
            schedule_.rowCapacity(),
            d_neighbors_.as<std::uint32_t>(),
            d_neighborCount_.as<std::int32_t>(),
            deviceKernelEnabled(DeviceKernelFamily::NeighborBuild)};
  }

  /** The pair loop writing forces when `forces` (and the virial with `stress`), its sums deferred or not. */
  kernel::PairForceArgs forceArgs(const kernel::SystemArrays& systems, bool stress, bool forces, bool deferred) {
    return {systems,
            d_slotPositions_.as<const kernel::SlotPosition>(),
            d_slotAtom_.as<const std::int32_t>(),
            d_neighbors_.as<const std::uint32_t>(),
            d_neighborCount_.as<const std::int32_t>(),
            static_cast<int>(evaluator_),
            numTypes_,
            d_params_.data(),
            switched_ ? d_switches_.as<const SwitchParams>() : nullptr,
            stress,
            forces ? backend_.deviceData<double>(Field::Forces) : nullptr,
            d_slotSums_.as<double>(),
            deferred};
  }

  void build() {
    schedule_.buildStarted();
    const std::string operation = where("neighbor build");
    const char* op = operation.c_str();
    const kernel::NeighborStatus initial{kernel::kNoError, 0, 0, 0, 0, kNoSystem};
    uploadBytes(d_status_, &initial, sizeof initial, BufferFit::Exact, op);

    const double rlist = schedule_.rlist();
    std::size_t tempBytes = 0;
    cudaCheck(kernel::scanTempBytes(schedule_.numSystems(), &tempBytes), op);
    reserve(d_temp_, tempBytes, operation);
    kernel::GridArgs grid{systemArrays(),
                          backend_.deviceData<const double>(Field::Positions),
                          backend_.deviceData<const double>(Field::Cell),
                          backend_.deviceData<const std::uint8_t>(Field::Pbc),
                          rlist,
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
    cudaCheck(kernel::sortTempBytes(schedule_.numAtoms(), totalBins, &tempBytes), op);
    reserve(d_temp_, tempBytes, operation);
    totalBins_ = totalBins;
    cudaCheck(kernel::binAtoms(binArgs(systemArrays(), totalBins)), op);
    cudaCheck(kernel::prepareSlots(prepareArgs(true)), op);

    auto* d_status = d_status_.as<kernel::NeighborStatus>();
    for (;;) {
      const int capacity = schedule_.rowCapacity();
      const std::size_t rowBytes = static_cast<std::size_t>(schedule_.numAtoms()) * capacity * sizeof(std::uint32_t);
      // Exact size, not doubled: this is the largest buffer, and its capacity already has headroom.
      if (d_neighbors_.bytes() < rowBytes) d_neighbors_.allocate(rowBytes, op);
      cudaCheck(kernel::searchNeighbors(searchArgs(systemArrays())), op);
      status = readStatus("neighbor build");
      checkErrors(status);
      if (schedule_.searched(status.maxNeighbors, status.entries)) break;
      cudaCheck(device::memsetAsync(&d_status->entries, 0, sizeof d_status->entries), op);
      cudaCheck(device::memsetAsync(&d_status->maxNeighbors, 0, sizeof d_status->maxNeighbors), op);
    }
    schedule_.built();
  }

  void evaluate(const ComputeRequest& request, std::vector<double>& virial) {
    const std::string operation = where("pair forces");
    const char* op = operation.c_str();
    const auto n = static_cast<std::size_t>(schedule_.numAtoms());
    reserve(d_slotSums_, n * (request.stress ? 7 : 1) * sizeof(double), operation);
    const bool deferred = DevicePairSchedule::defersSums(request);
    const kernel::PairForceArgs forces = forceArgs(systemArrays(), request.stress, request.forces, deferred);
    auto* status = d_status_.as<kernel::NeighborStatus>();
    cudaCheck(device::memsetAsync(&status->firstNonFinite, 0xff, sizeof status->firstNonFinite), op);
    cudaCheck(kernel::pairForces(forces), op);
    if (!deferred) sumEnergies(request.stress, op);
    if (request.stress) downloadBytes(virial.data(), d_virial_.data(), virial.size() * sizeof(double), op);
    // The blocking read surfaces faults of the pair loop here, named after this model, not in whatever call
    // comes next; it replaces the synchronisation this needed anyway, so the overlap flag costs no extra wait.
    const std::uint64_t nonFinite = readStatus("pair forces").firstNonFinite;
    schedule_.evaluated(request.stress, deferred);
    if (nonFinite != kNoSystem) diagnoseOnHost(static_cast<std::int64_t>(nonFinite));
  }

  /** The per-segment and per-system sums of the last pair loop's slot energies (and virials, with `stress`). */
  void sumEnergies(bool stress, const char* op) {
    sumSystemEnergies(backend_, systemArrays(), d_slotSums_, stress, d_segments_, schedule_.numSegments(), d_segmentOffset_,
                      d_segmentSums_, d_virial_, op);
  }

  CudaBackend& backend_;
  const std::string model_;
  const PairEvaluator evaluator_;
  const int numTypes_;
  const double cutoff_;
  const bool switched_;
  DevicePairSchedule schedule_;
  bool wantedActive_ = false;

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
  /** Bins over every system at the last build (a fixed cell keeps them through a resident chunk). */
  std::uint64_t totalBins_ = 0;
  CudaResidentGraph resident_;
  DeviceBuffer d_residentStatus_;
  DeviceBuffer d_snapshot_[3];
};

}  // namespace

std::unique_ptr<PairForceKernel> createCudaPairForceKernel(CudaBackend& backend, const PairForceSpec& spec) {
  return std::make_unique<CudaPairForceKernel>(backend, spec);
}

}  // namespace hookmd
