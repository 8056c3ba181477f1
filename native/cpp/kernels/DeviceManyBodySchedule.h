// The host side of the device many-body kernel (docs/cuda.md, "Many-body potentials on the GPU"): what
// one compute sends, launches and reads back, and what it costs on the ledger. `cuda` follows it with real
// launches; `mirror` follows it beside the CPU reference, with the longest row the device would have found,
// so both charge the same operations.
//
// The policy: the parameter rows go up once; the per-system tables, the selection flags and the species
// types go up as the pair kernel's do (DevicePairSchedule, whose upload policy this reuses). Every compute
// then searches each centre's neighbours within the cutoff afresh (no skin: the search is the list), runs
// the centres, the neighbours' forces and the sums, and reads one status block back. A centre with more
// neighbours than a row holds grows the rows to its count + 1/8 and the whole evaluation runs again. The
// virial comes back when the stress is asked for.
#pragma once

#include <cstdint>
#include <string>

#include "core/Backend.h"
#include "kernels/DevicePairSchedule.h"

namespace hookmd {

class DeviceManyBodySchedule {
 public:
  /** The row capacity of the first evaluation: a covalent crystal's centres have 4 to 12 neighbours. */
  static constexpr int kInitialRowCapacity = 16;

  /** Charges the upload of the parameter rows (`rowBytes`). */
  DeviceManyBodySchedule(Backend& backend, std::string model, std::size_t rowBytes);

  /** Starts a compute as DevicePairSchedule::begin does, for neighbours within `cutoff`; charges the uploads it returns. */
  DevicePairSchedule::Uploads begin(const std::int32_t* ptr, const std::uint8_t* wanted, const AtomTypes& types, int numTypes,
                                    double cutoff) {
    return uploads_.begin(ptr, wanted, types, numTypes, cutoff, 0.0);
  }
  /** No atoms: the compute only zeroes the energies (and the stress); charged here. */
  bool emptyBatch() const noexcept { return uploads_.emptyBatch(); }
  void chargeEmptyBatch(bool stress) { uploads_.chargeEmptyBatch(stress); }

  /**
   * After an evaluation whose longest centre wanted `longest` neighbours and whose rows held `entries` in
   * all: true when every row fit; otherwise the capacity has grown and the evaluation must run again.
   */
  bool evaluated(std::uint64_t longest, std::uint64_t entries);
  /** The evaluation is complete; with `stress`, the virial comes back. */
  void finished(bool stress);

  std::int64_t numAtoms() const noexcept { return uploads_.numAtoms(); }
  std::int64_t numSystems() const noexcept { return uploads_.numSystems(); }
  std::int64_t numSegments() const noexcept { return uploads_.numSegments(); }
  const std::vector<std::int32_t>& ptr() const noexcept { return uploads_.ptr(); }
  int rowCapacity() const noexcept { return rowCapacity_; }
  /** Searches so far (each searched every system), and the last one's rows, each pair counted once; `bytes` of device buffers. */
  NeighborStats stats(std::int64_t bytes) const;

 private:
  Backend& backend_;
  std::string model_;
  DevicePairSchedule uploads_;
  int rowCapacity_ = kInitialRowCapacity;
  std::uint64_t entries_ = 0;
  std::int64_t builds_ = 0;
};

}  // namespace hookmd
