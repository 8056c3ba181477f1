#include "neighbor/OverlapCheck.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/Error.h"
#include "core/Messages.h"

namespace hookmd {

ClosestPair closestPair(const SystemNeighborList& list, const double* positions) {
  std::vector<double> wrapped;
  const double* x = positions;
  if (!list.wrap.empty()) {
    wrapped.resize(3 * static_cast<std::size_t>(list.atomCount));
    wrappedPositions(list, positions, wrapped.data());
    x = wrapped.data();
  }
  ClosestPair closest;
  double closestSq = 0.0;
  for (const NeighborChunk& chunk : list.chunks) {
    for (std::int32_t slot = chunk.ownerBegin; slot < chunk.ownerEnd; ++slot) {
      const std::int32_t i = list.owners[slot];
      for (std::uint32_t e = chunk.start[slot - chunk.ownerBegin]; e < chunk.start[slot - chunk.ownerBegin + 1]; ++e) {
        const std::uint32_t packed = chunk.entries[e];
        const std::int32_t j = static_cast<std::int32_t>(packed >> list.imageBits);
        const double* shift = &list.shifts[3 * static_cast<std::size_t>(packed & list.imageMask)];
        double d2 = 0.0;
        for (int c = 0; c < 3; ++c) {
          const double d = x[3 * j + c] + shift[c] - x[3 * i + c];
          d2 += d * d;
        }
        if (!closest.found || d2 < closestSq) {
          closest = ClosestPair{true, std::min(i, j), std::max(i, j), std::sqrt(d2)};
          closestSq = d2;
        }
      }
    }
  }
  return closest;
}

void checkOverlap(const char* model, std::int64_t s, Backend& backend, const BatchStorage& positions,
                  const SystemNeighborList& list) {
  const double* x = positions.f64(Field::Positions) + 3 * static_cast<std::int64_t>(list.atomBegin);
  const ClosestPair pair = closestPair(list, x);
  if (!pair.found || !(pair.distance < kOverlapDistance)) return;
  // Only this failure path reads systemId, so a compute does not sync it for every call.
  const BatchStorage& storage = backend.host({Field::SystemId});
  const std::int64_t i = list.atomBegin + static_cast<std::int64_t>(pair.i);
  const std::int64_t j = list.atomBegin + static_cast<std::int64_t>(pair.j);
  fail("OVERLAPPING_ATOMS", std::string(model) + ": atoms " + std::to_string(i) + " and " + std::to_string(j) +
                                " of system " + std::to_string(s) + " (systemId " +
                                std::to_string(storage.i32(Field::SystemId)[s]) + ") are " + formatNumber(pair.distance) +
                                " apart (closer than " + formatNumber(kOverlapDistance) +
                                "), which makes the energy non-finite; separate or remove one of them");
}

void checkOverlaps(const char* model, Backend& backend, const BatchStorage& storage, const std::uint8_t* wanted,
                   const NeighborCache& neighbors) {
  const double* energy = storage.f64(Field::Energy);
  for (std::int64_t s = 0; s < storage.numSystems(); ++s) {
    if ((wanted == nullptr || wanted[s] != 0) && !std::isfinite(energy[s])) checkOverlap(model, s, backend, storage, neighbors.list(s));
  }
}

}  // namespace hookmd
