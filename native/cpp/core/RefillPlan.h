// Where each system of a refilled batch comes from: the systems kept (in their new order) and the systems
// appended after them. Backends compact every field with it on the side where the field is current, so a
// refill moves no kept data between host and device.
#pragma once

#include <cstdint>
#include <vector>

namespace hookmd {

struct RefillPlan {
  std::int64_t numAtoms = 0;
  std::int64_t numSystems = 0;
  /** Per new system: its index in the old batch, or −1 for an appended system. */
  std::vector<std::int64_t> sourceSystem;
  /** Per new system: its first atom in the old batch (kept systems only). */
  std::vector<std::int64_t> sourceAtom;
  /** Per new system: its first atom in the new batch (the new ptr without its last entry). */
  std::vector<std::int64_t> targetAtom;
  std::vector<std::int32_t> atomCount;
};

/**
 * The plan for keeping the systems at `keep` of a batch laid out by `ptr` (numSystems + 1 offsets) and
 * appending systems of `addedAtoms` atoms. Throws INVALID_ARGUMENT for an index outside the batch, a
 * repeated index or a negative atom count, and SYSTEM_TOO_LARGE past the int32 atom offsets.
 */
RefillPlan makeRefillPlan(const std::int32_t* ptr, std::int64_t numSystems, const std::vector<std::int64_t>& keep,
                          const std::vector<std::int32_t>& addedAtoms);

}  // namespace hookmd
