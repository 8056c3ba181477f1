#include "core/RefillPlan.h"

#include <limits>
#include <string>

#include "core/Error.h"

namespace hookmd {

RefillPlan makeRefillPlan(const std::int32_t* ptr, std::int64_t numSystems, const std::vector<std::int64_t>& keep,
                          const std::vector<std::int32_t>& addedAtoms) {
  RefillPlan plan;
  std::vector<std::uint8_t> seen(static_cast<std::size_t>(numSystems), 0);
  const auto add = [&](std::int64_t source, std::int64_t sourceAtom, std::int32_t count) {
    plan.sourceSystem.push_back(source);
    plan.sourceAtom.push_back(sourceAtom);
    plan.targetAtom.push_back(plan.numAtoms);
    plan.atomCount.push_back(count);
    plan.numAtoms += count;
    if (plan.numAtoms > std::numeric_limits<std::int32_t>::max()) {
      fail("SYSTEM_TOO_LARGE", "refill: the batch would hold more than 2^31 - 1 atoms");
    }
  };
  for (std::int64_t s : keep) {
    if (s < 0 || s >= numSystems || seen[static_cast<std::size_t>(s)]) {
      fail("INVALID_ARGUMENT", "refill: keep index " + std::to_string(s) + " is outside the " + std::to_string(numSystems) +
                                   " systems or repeated");
    }
    seen[static_cast<std::size_t>(s)] = 1;
    add(s, ptr[s], ptr[s + 1] - ptr[s]);
  }
  for (std::int32_t count : addedAtoms) {
    if (count < 0) fail("INVALID_ARGUMENT", "refill: an appended system cannot have a negative atom count");
    add(-1, 0, count);
  }
  plan.numSystems = static_cast<std::int64_t>(plan.sourceSystem.size());
  return plan;
}

}  // namespace hookmd
