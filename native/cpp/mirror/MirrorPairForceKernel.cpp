#include "mirror/MirrorPairForceKernel.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/ThreadPool.h"
#include "cpu/CpuPairForceKernel.h"
#include "kernels/DevicePairSchedule.h"
#include "neighbor/NeighborList.h"

namespace hookmd {

namespace {

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
  };

  /** A rebuild pass of every system at radius `rlist`: the new references, and the full lists' row lengths. */
  Rows build(const BatchStorage& arrays, double rlist, double cutoff) {
    const std::int64_t systems = arrays.numSystems();
    const std::int32_t* ptr = arrays.i32(Field::Ptr);
    const double* x = arrays.f64(Field::Positions);
    const double* cell = arrays.f64(Field::Cell);
    const std::uint8_t* pbc = arrays.u8(Field::Pbc);
    reference_.assign(x, x + 3 * arrays.numAtoms());
    cell_.assign(cell, cell + 9 * systems);
    pbc_.assign(pbc, pbc + 3 * systems);
    stale_.assign(static_cast<std::size_t>(systems), 0);
    std::vector<Rows> perSystem(static_cast<std::size_t>(systems));
    ThreadPool::global().parallelFor(0, systems, 1, [&](std::int64_t lo, std::int64_t hi, int) {
      SystemNeighborList list;
      NeighborScratch scratch;
      std::vector<std::uint32_t> row;
      for (std::int64_t s = lo; s < hi; ++s) {
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
    for (const Rows& rows : perSystem) {
      total.longest = std::max(total.longest, rows.longest);
      total.entries += rows.entries;
    }
    return total;
  }

 private:
  std::vector<double> reference_;
  std::vector<double> cell_;
  std::vector<std::uint8_t> pbc_;
  std::vector<std::uint8_t> stale_;
};

class MirrorPairForceKernel final : public PairForceKernel {
 public:
  MirrorPairForceKernel(Backend& backend, const PairForceSpec& spec)
      : reference_(createCpuPairForceKernel(spec)),
        schedule_(backend, spec.model, spec.params.size(), spec.switches.size() * sizeof(SwitchParams)),
        numTypes_(spec.numTypes),
        cutoff_(spec.cutoff) {}

  void execute(Backend& backend, const ComputeRequest& request, const AtomTypes& types, double skin,
               std::vector<double>& virial) override {
    if (backend.numSystems() == 0) return reference_->execute(backend, request, types, skin, virial);
    schedule_.begin(backend.host({Field::Ptr}).i32(Field::Ptr), request.systems, types, numTypes_, cutoff_, skin);
    // The CPU kernel reads and writes what the device kernel would, on the device arrays.
    reference_->execute(backend, request, types, skin, virial);
    if (schedule_.emptyBatch()) return schedule_.chargeEmptyBatch(request.stress);
    const BatchStorage& arrays = backend.arraysFor(Kernel::PairForces, {Field::Positions, Field::Cell, Field::Pbc, Field::Ptr});
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

 private:
  std::unique_ptr<PairForceKernel> reference_;
  DevicePairSchedule schedule_;
  DeviceListModel lists_;
  int numTypes_;
  double cutoff_;
};

}  // namespace

std::unique_ptr<PairForceKernel> createMirrorPairForceKernel(Backend& backend, const PairForceSpec& spec) {
  return std::make_unique<MirrorPairForceKernel>(backend, spec);
}

}  // namespace hookmd
