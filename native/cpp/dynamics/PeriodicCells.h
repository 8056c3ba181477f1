// The refusal that barostats and cell filters share: they move all three lattice vectors, which only means
// something when the system is periodic along all three. On a slab or a cluster they would scale the vacuum
// (the cell collapses onto the atoms), so they refuse it, as LAMMPS's fix npt refuses a non-periodic
// dimension.
#pragma once

#include <cstdint>

#include "core/BatchStorage.h"

namespace hookmd {

/**
 * Throws INVALID_PBC naming `owner`, the first active system that is not periodic in x, y and z, and its
 * flags. Reads Field::Pbc of `host` (declare it among the reads). `active` may be null: every system.
 */
void requirePeriodicCells(const char* owner, const BatchStorage& host, const std::uint8_t* active);

}  // namespace hookmd
