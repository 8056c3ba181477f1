#include "mirror/MirrorPairForceKernel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/Error.h"
#include "core/ThreadPool.h"
#include "cpu/CpuPairForceKernel.h"
#include "kernels/Integrator.h"
#include "kernels/DevicePairSchedule.h"
#include "neighbor/NeighborList.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

namespace {

/** What a resident chunk snapshots at its start and puts back before a replay. */
constexpr std::array<Field, 3> kSnapshot{Field::Positions, Field::Velocities, Field::Forces};
constexpr FieldSet kSnapshotFields = [] {
  FieldSet fields;
  for (Field field : kSnapshot) fields = fields.with(field);
  return fields;
}();
/** What cuda's chunk declares it writes (CudaPairForceKernel::runResident): its steps leave energies too. */
constexpr FieldSet kChunkWrites = kSnapshotFields | FieldSet{Field::Energy};

/**
 * What the CUDA kernel's lists would be: each system's cell and pbc and each atom's position at the last
 * rebuild pass, and the systems its skin checks marked stale since (a mark stays until the next pass).
 */
class DeviceListModel {
 public:
  /** The skin check: marks systems whose cell or pbc changed or an atom moved more than skin/2; true when a wanted one is marked. */
  bool stale(const BatchStorage& arrays, const std::uint8_t* wanted, double skin) {
    const std::int64_t systems = arrays.numSystems();
    const std::int32_t* ptr = arrays.i32(Field::Ptr);
    const double* x = arrays.f64(Field::Positions);
    const double* cell = arrays.f64(Field::Cell);
    const std::uint8_t* pbc = arrays.u8(Field::Pbc);
    const double limitSq = 0.25 * skin * skin;
    ThreadPool::global().parallelFor(0, systems, 1, [&](std::int64_t lo, std::int64_t hi, int) {
      for (std::int64_t s = lo; s < hi; ++s) {
        bool moved = !std::equal(cell + 9 * s, cell + 9 * s + 9, cell_.begin() + 9 * s) ||
                     !std::equal(pbc + 3 * s, pbc + 3 * s + 3, pbc_.begin() + 3 * s);
        for (std::int64_t k = 3 * static_cast<std::int64_t>(ptr[s]); !moved && k < 3 * static_cast<std::int64_t>(ptr[s + 1]); k += 3) {
          const double d[3] = {x[k] - reference_[k], x[k + 1] - reference_[k + 1], x[k + 2] - reference_[k + 2]};
          // As on the device, a NaN displacement counts as moved.
          moved = !(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= limitSq);
        }
        if (moved) stale_[s] = 1;
      }
    });
    for (std::int64_t s = 0; s < systems; ++s) {
      if (stale_[s] && (wanted == nullptr || wanted[s])) return true;
    }
    return false;
  }

  struct Rows {
    std::uint64_t longest = 0;
    std::uint64_t entries = 0;
    /** Systems rebuilt. */
    std::int64_t systems = 0;
  };

  /**
   * A rebuild pass at radius `rlist`: of every system, or with `onlyStale` of the systems marked stale (a
   * resident chunk's, whose others keep their lists). The new references, and the rebuilt full lists' row lengths.
   */
  Rows build(const BatchStorage& arrays, double rlist, double cutoff, bool onlyStale = false) {
    const std::int64_t systems = arrays.numSystems();
    const std::int32_t* ptr = arrays.i32(Field::Ptr);
    const double* x = arrays.f64(Field::Positions);
    const double* cell = arrays.f64(Field::Cell);
    const std::uint8_t* pbc = arrays.u8(Field::Pbc);
    if (!onlyStale) {
      reference_.resize(static_cast<std::size_t>(3 * arrays.numAtoms()));
      cell_.resize(static_cast<std::size_t>(9 * systems));
      pbc_.resize(static_cast<std::size_t>(3 * systems));
      stale_.assign(static_cast<std::size_t>(systems), 1);
    }
    std::vector<std::uint8_t> rebuilt(stale_);
    for (std::int64_t s = 0; s < systems; ++s) {
      if (!rebuilt[s]) continue;
      std::copy(x + 3 * static_cast<std::int64_t>(ptr[s]), x + 3 * static_cast<std::int64_t>(ptr[s + 1]), reference_.begin() + 3 * ptr[s]);
      std::copy(cell + 9 * s, cell + 9 * s + 9, cell_.begin() + 9 * s);
      std::copy(pbc + 3 * s, pbc + 3 * s + 3, pbc_.begin() + 3 * s);
      stale_[s] = 0;
    }
    std::vector<Rows> perSystem(static_cast<std::size_t>(systems));
    ThreadPool::global().parallelFor(0, systems, 1, [&](std::int64_t lo, std::int64_t hi, int) {
      SystemNeighborList list;
      NeighborScratch scratch;
      std::vector<std::uint32_t> row;
      for (std::int64_t s = lo; s < hi; ++s) {
        if (!rebuilt[s]) continue;
        const std::int32_t count = ptr[s + 1] - ptr[s];
        buildNeighborList(list, x + 3 * static_cast<std::int64_t>(ptr[s]), count, cell + 9 * s, pbc + 3 * s, rlist, scratch, cutoff);
        // A half-list pair sits in both atoms' full rows (a pair of an atom with its own image twice in its row).
        row.assign(static_cast<std::size_t>(count), 0);
        for (const NeighborChunk& chunk : list.chunks) {
          for (std::int32_t slot = chunk.ownerBegin; slot < chunk.ownerEnd; ++slot) {
            const std::int32_t i = list.owners[slot];
            for (std::uint32_t e = chunk.start[slot - chunk.ownerBegin]; e < chunk.start[slot - chunk.ownerBegin + 1]; ++e) {
              ++row[i];
              ++row[chunk.entries[e] >> list.imageBits];
            }
          }
        }
        Rows& rows = perSystem[s];
        for (std::uint32_t length : row) {
          rows.longest = std::max<std::uint64_t>(rows.longest, length);
          rows.entries += length;
        }
      }
    });
    Rows total;
    for (std::int64_t s = 0; s < systems; ++s) {
      total.longest = std::max(total.longest, perSystem[s].longest);
      total.entries += perSystem[s].entries;
      total.systems += rebuilt[s];
    }
    return total;
  }

 private:
  std::vector<double> reference_;
  std::vector<double> cell_;
  std::vector<std::uint8_t> pbc_;
  std::vector<std::uint8_t> stale_;
};

class MirrorPairForceKernel final : public PairForceKernel, public ResidentStepKernel {
 public:
  MirrorPairForceKernel(Backend& backend, const PairForceSpec& spec)
      : reference_(createCpuPairForceKernel(spec)),
        schedule_(backend, spec.model, spec.params.size(), spec.switches.size() * sizeof(SwitchParams)),
        numTypes_(spec.numTypes),
        cutoff_(spec.cutoff) {}

  void execute(Backend& backend, const ComputeRequest& request, const AtomTypes& types, double skin,
               std::vector<double>& virial) override {
    if (backend.numSystems() == 0) return reference_->execute(backend, request, types, skin, virial);
    if (resident_) return residentCompute(backend, request, types, skin, virial);
    schedule_.begin(backend.host({Field::Ptr}).i32(Field::Ptr), request.systems, types, numTypes_, cutoff_, skin);
    // The CPU kernel reads and writes what the device kernel would, on the device arrays.
    reference_->execute(backend, request, types, skin, virial);
    if (schedule_.emptyBatch()) return schedule_.chargeEmptyBatch(request.stress);
    const BatchStorage& arrays = arraysFor(backend, Kernel::PairForces, {Field::Positions, Field::Cell, Field::Pbc, Field::Ptr});
    bool rebuild = schedule_.needsBuild();
    if (!rebuild) {
      rebuild = lists_.stale(arrays, request.systems, skin);
      schedule_.checked(rebuild);
    }
    if (rebuild) {
      schedule_.buildStarted();
      const DeviceListModel::Rows rows = lists_.build(arrays, schedule_.rlist(), cutoff_);
      while (!schedule_.searched(rows.longest, rows.entries)) {
      }
      schedule_.built();
    }
    schedule_.evaluated(request.stress, DevicePairSchedule::defersSums(request));
  }

  // The CPU reference summed the energies already; what remains is cuda's cost of summing them now.
  void finishEnergies(Backend&) override {
    if (schedule_.sumsPending()) schedule_.summed();
  }

  // The numbers, lists included, are the CPU reference's: mirror's results equal cpu's.
  NeighborStats neighborStats() const override { return reference_->neighborStats(); }

  ResidentStepKernel* residentSteps() override { return this; }

  bool residentReady(Backend&, Integrator& integrator) override {
    return std::strcmp(integrator.name(), "VelocityVerlet") == 0 && schedule_.residentReady();
  }

  // The chunk's steps are the general step's CPU code (chunk.referenceStep); its computes come here in
  // resident mode (residentCompute), which follows the device's policy on the list model.
  ResidentChunkResult runResident(Backend& backend, Integrator&, const ResidentChunk& chunk) override {
    const BatchStorage& arrays = arraysFor(backend, Kernel::PairForces, kSnapshotFields, kChunkWrites);
    for (std::size_t k = 0; k < kSnapshot.size(); ++k) {
      snapshot_[k].assign(arrays.f64(kSnapshot[k]), arrays.f64(kSnapshot[k]) + arrays.length(kSnapshot[k]));
    }
    outcome_ = ResidentChunkResult();
    failed_ = false;
    resident_ = true;
    try {
      // Past a problem the device's numbers mean nothing; mirror stops there (the chunk is replayed anyway).
      for (std::int64_t step = 0; step < chunk.steps && !outcome_.replay; ++step) chunk.referenceStep();
    } catch (const NativeError&) {
      // The replay on the general path raises it again, at its step and with the same words.
      outcome_.replay = true;
      failed_ = true;
    }
    resident_ = false;
    outcome_.rowsOnly = outcome_.replay && !failed_;
    outcome_.captured = schedule_.capturesChunk(chunk.steps);
    outcome_.listEntries = schedule_.entries();
    schedule_.residentRan(outcome_);
    return outcome_;
  }

  void restoreResident(Backend& backend) override {
    BatchStorage& arrays = arraysFor(backend, Kernel::PairForces, kSnapshotFields, kSnapshotFields);
    for (std::size_t k = 0; k < kSnapshot.size(); ++k) std::copy(snapshot_[k].begin(), snapshot_[k].end(), arrays.f64(kSnapshot[k]));
    schedule_.forgetLists();
  }

  // cuda's regrowth is its general build pass at the restored positions with the longer rows.
  void regrowResident(Backend& backend, std::uint64_t longestRow) override {
    schedule_.regrow(longestRow);
    const BatchStorage& arrays = arraysFor(backend, Kernel::PairForces, {Field::Positions, Field::Cell, Field::Pbc, Field::Ptr});
    schedule_.buildStarted();
    const DeviceListModel::Rows rows = lists_.build(arrays, schedule_.rlist(), cutoff_);
    while (!schedule_.searched(rows.longest, rows.entries)) {
    }
    schedule_.built();
  }

 private:
  /**
   * A compute inside a resident chunk: the device's skin check marks systems whose atoms moved more than
   * skin/2, only those are rebuilt (a row longer than the capacity overflows, as the device's search would),
   * and a non-finite energy is flagged instead of diagnosed.
   */
  void residentCompute(Backend& backend, const ComputeRequest& request, const AtomTypes& types, double skin, std::vector<double>& virial) {
    const BatchStorage& arrays = arraysFor(backend, Kernel::PairForces, {Field::Positions, Field::Cell, Field::Pbc, Field::Ptr});
    if (lists_.stale(arrays, nullptr, skin)) {
      const DeviceListModel::Rows rows = lists_.build(arrays, schedule_.rlist(), cutoff_, true);
      ++outcome_.rebuildPasses;
      outcome_.systemsRebuilt += rows.systems;
      if (rows.longest > static_cast<std::uint64_t>(schedule_.rowCapacity())) {
        outcome_.replay = true;
        outcome_.longestRow = rows.longest;
      }
    }
    reference_->execute(backend, request, types, skin, virial);
    const BatchStorage& results = arraysFor(backend, Kernel::PairForces, {Field::Energy});
    const double* energy = results.f64(Field::Energy);
    for (std::int64_t s = 0; s < results.numSystems(); ++s) {
      if (!std::isfinite(energy[s])) outcome_.replay = failed_ = true;
    }
  }

  std::unique_ptr<PairForceKernel> reference_;
  DevicePairSchedule schedule_;
  DeviceListModel lists_;
  /** Inside runResident: computes follow the resident chunk's policy. */
  bool resident_ = false;
  ResidentChunkResult outcome_;
  /** The chunk met a non-finite energy or a failed build, which longer rows do not mend. */
  bool failed_ = false;
  /** Positions, velocities and forces at the chunk's start. */
  std::array<std::vector<double>, 3> snapshot_;
  int numTypes_;
  double cutoff_;
};

}  // namespace

std::unique_ptr<PairForceKernel> createMirrorPairForceKernel(Backend& backend, const PairForceSpec& spec) {
  return std::make_unique<MirrorPairForceKernel>(backend, spec);
}

}  // namespace hookmd
