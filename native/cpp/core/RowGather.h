// Compaction of one field through a RefillPlan on host-addressable memory: the host mirrors of every backend,
// and the device arrays of the cpu and mirror backends. The CUDA backend runs the same copy as a kernel.
#pragma once

#include "core/Fields.h"
#include "core/RefillPlan.h"

namespace hookmd {

/**
 * Copies the rows of every kept system of `field` from `from` (the old layout) to `to` (sized for the new
 * one); rows of appended systems are left as they are (zero in a fresh buffer).
 */
void gatherRows(Field field, const RefillPlan& plan, const void* from, void* to);

}  // namespace hookmd
