// Keeps each system's space group through a run, as ASE's FixSymmetry does: after every compute the forces
// and the stress are averaged over the group (math/SymmetrizeEval.h), and every update's step of the
// positions is averaged the same way in fractional coordinates, so rounding cannot break the symmetry either.
// It runs on the host arrays of every backend (a device syncs them around it).
#pragma once

#include <cstdint>
#include <vector>

#include "dynamics/NativeHook.h"

namespace hookmd {

class FixSymmetry final : public NativeHook {
 public:
  /**
   * `operations`, system after system: the count n of its operations, then n × 12 values, each operation's
   * integer rotation W (9, row-major, on fractional column vectors) and translation t (3), on the system's
   * cell at the first call. The atom each operation takes each atom to is found then, as ASE's
   * prep_symmetry finds it: the nearest periodic image of W·s + t.
   */
  FixSymmetry(HookSchedule schedule, const std::vector<double>& operations);
  const char* name() const noexcept override { return "FixSymmetry"; }
  /** A refill that brings no operations for the systems it adds (runStream always brings them): INVALID_HOOK. */
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added) override;
  /** A stream's refill: the kept systems keep their groups, `arrivals.values` holds the added ones' operations. */
  void remapWith(const std::vector<std::int64_t>& keep, std::int64_t added, const HookArrivals& arrivals) override;
  void apply(Backend& backend, DynamicsStage stage, std::int64_t step, const std::uint8_t* active) override;

 private:
  struct Group {
    std::int64_t ops = 0;
    std::vector<double> rotations, translations;
    std::vector<std::int32_t> map;
    /** Whether `map` is found (at the first call after the system entered the batch). */
    bool mapped = false;
  };
  static std::vector<Group> parseGroups(const std::vector<double>& operations, std::size_t first);
  void mapAtoms(const BatchStorage& host);
  void symmetrizeResults(Backend& backend, const std::uint8_t* active);
  void symmetrizeStep(Backend& backend, const std::uint8_t* active);

  std::vector<Group> groups_;
  bool mapped_ = false;
  /** Positions and cells before the update, for the step it takes. */
  std::vector<double> before_, cellsBefore_;
  std::vector<double> fractional_, sum_, step_, symmetric_;
};

}  // namespace hookmd
