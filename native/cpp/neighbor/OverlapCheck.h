// Names the atoms behind a non-finite energy. Two atoms on top of each other (a duplicated atom in the
// input, usually) give a pair potential an infinite energy and NaN forces, and the first step then fails
// far from the cause. The CPU pair kernel calls this only for a system whose energy came out non-finite, so
// the normal path pays nothing.
#pragma once

#include <cstdint>

#include "core/Backend.h"
#include "neighbor/NeighborCache.h"
#include "neighbor/NeighborList.h"

namespace hookmd {

/** Pairs closer than this (length units: Å in metal units, σ in lj units) count as overlapping. */
constexpr double kOverlapDistance = 1e-6;

/** The closest pair of a neighbor list, in the system's local numbering; found is false for no pairs. */
struct ClosestPair {
  bool found = false;
  std::int32_t i = 0;
  std::int32_t j = 0;
  double distance = 0.0;
};

/**
 * The closest pair among the list's entries, periodic images included. `positions` are the system's
 * unwrapped positions (3 per atom); the list's wrap is applied here. Every pair closer than the cutoff is
 * in a valid list, so an overlap is never missed.
 */
ClosestPair closestPair(const SystemNeighborList& list, const double* positions);

/**
 * Throws NativeError OVERLAPPING_ATOMS, naming system `s` (and its systemId), the two atoms (batch-global
 * indices) and their distance, when the closest pair of its valid list `list` is closer than
 * kOverlapDistance; returns otherwise. `positions` are the arrays the pair kernel ran on; `model` starts
 * the message.
 */
void checkOverlap(const char* model, std::int64_t s, Backend& backend, const BatchStorage& positions,
                  const SystemNeighborList& list);

/**
 * checkOverlap for every wanted system (all when `wanted` is null) whose energy in `storage` is non-finite,
 * with the lists of `neighbors`: the one place a CPU force kernel pays for the search.
 */
void checkOverlaps(const char* model, Backend& backend, const BatchStorage& storage, const std::uint8_t* wanted,
                   const NeighborCache& neighbors);

}  // namespace hookmd
