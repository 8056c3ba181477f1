// Walks the pairs of one system's half neighbor list in its fixed order (the list layout does not depend
// on the thread count, so neither does any sum taken along it). Same decoding as the pair loop of cpu/CpuPairLoop.h:
// each entry packs j above the index of the lattice shift that brings j next to i.
#pragma once

#include <cstdint>

#include "neighbor/NeighborList.h"

namespace hookmd {

/** fn(i, packed) for every stored entry, in list order: i the owner (local index), packed = (j << imageBits) | image. */
template <class Fn>
void forEachEntry(const SystemNeighborList& list, Fn&& fn) {
  const std::int32_t* owners = list.owners.data();
  for (const NeighborChunk& chunk : list.chunks) {
    const std::uint32_t* entries = chunk.entries.data();
    for (std::int32_t slot = chunk.ownerBegin; slot < chunk.ownerEnd; ++slot) {
      const std::int32_t i = owners[slot];
      const std::uint32_t end = chunk.start[slot - chunk.ownerBegin + 1];
      for (std::uint32_t e = chunk.start[slot - chunk.ownerBegin]; e < end; ++e) fn(i, entries[e]);
    }
  }
}

/** fn(i, j, d, r2) for every stored pair, with d = x_j + shift − x_i (local atom indices). */
template <class Fn>
void forEachPair(const SystemNeighborList& list, const double* x, Fn&& fn) {
  const double* shifts = list.shifts.data();
  const int bits = list.imageBits;
  const std::uint32_t mask = list.imageMask;
  forEachEntry(list, [&](std::int32_t i, std::uint32_t packed) {
    const double* xi = x + 3 * i;
    const std::int32_t j = static_cast<std::int32_t>(packed >> bits);
    const double* shift = shifts + 3 * (packed & mask);
    const double d[3] = {x[3 * j] + shift[0] - xi[0], x[3 * j + 1] + shift[1] - xi[1], x[3 * j + 2] + shift[2] - xi[2]};
    fn(i, j, d, d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  });
}

}  // namespace hookmd
