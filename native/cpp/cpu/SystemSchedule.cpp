#include "cpu/SystemSchedule.h"

#include <algorithm>
#include <cmath>

#include "math/PairGeometry.h"

namespace hookmd {

ChunkGroups groupChunks(const SystemNeighborList& list, int groups) {
  ChunkGroups result;
  const std::int32_t slots = list.chunks.empty() ? 0 : list.chunks.back().ownerEnd;
  result.firstChunk.assign(static_cast<std::size_t>(groups) + 1, list.chunks.size());
  result.firstSlot.assign(static_cast<std::size_t>(groups) + 1, slots);
  result.firstChunk[0] = 0;
  result.firstSlot[0] = 0;
  // Group g begins at the first owner slot with at least ⌈pairs·g/groups⌉ pairs before it.
  std::int64_t seen = 0;
  int group = 1;
  for (std::size_t c = 0; c < list.chunks.size() && group < groups; ++c) {
    const NeighborChunk& chunk = list.chunks[c];
    const std::int64_t size = static_cast<std::int64_t>(chunk.entries.size());
    while (group < groups && list.pairs * group <= (seen + size) * groups) {
      const std::int64_t target = (list.pairs * group + groups - 1) / groups - seen;
      const auto slot = std::lower_bound(chunk.start.begin(), chunk.start.end(), static_cast<std::uint32_t>(target)) - chunk.start.begin();
      result.firstChunk[group] = c;
      result.firstSlot[group] = chunk.ownerBegin + static_cast<std::int32_t>(slot);
      ++group;
    }
    seen += size;
  }
  result.blockShift = list.atomBlockShift;
  result.atoms = list.atomCount;
  result.blocks.assign(static_cast<std::size_t>(groups), 0);
  for (int g = 0; g < groups; ++g) {
    // A chunk a group has only part of counts whole: the blocks are all the chunk records.
    forEachGroupPiece(list, result, g, [&](std::size_t c, std::int32_t, std::int32_t) { result.blocks[g] |= list.chunks[c].atomBlocks; });
  }
  return result;
}

void SystemSums::add(const SystemSums& other) {
  energy += other.energy;
  for (int c = 0; c < 6; ++c) virial[c] += other.virial[c];
}

void finishSystem(BatchStorage& storage, std::int64_t s, const SystemSums& sums, bool stress, std::vector<double>& virialOut) {
  storage.f64(Field::Energy)[s] = sums.energy;
  if (!stress) return;
  const double* v = sums.virial;
  const double w[9] = {v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2]};
  std::copy(w, w + 9, virialOut.begin() + 9 * s);
  // σ = −W/V, as ASE's calculators report it whenever the cell has full rank, periodic or not. A cell of
  // zero volume (a cluster without a cell) has no stress: report zeros rather than infinities.
  const double* cell = storage.f64(Field::Cell) + 9 * s;
  double scale = 0.0;
  for (int k = 0; k < 9; ++k) scale = std::max(scale, std::fabs(cell[k]));
  const double volume = std::fabs(det3(cell));
  double* out = storage.f64(Field::Stress) + 9 * s;
  const bool hasVolume = scale > 0.0 && volume > 1e-12 * scale * scale * scale;
  // 0 − w rather than −w: a zero virial gives +0, not −0.
  for (int k = 0; k < 9; ++k) out[k] = hasVolume ? (0.0 - w[k]) / volume : 0.0;
}

const double* updateListPositions(NeighborCache& neighbors, std::int64_t s, const BatchStorage& storage, NeighborScratch& scratch,
                                  std::vector<double>& wrapped) {
  if (neighbors.update(s, storage, scratch, &wrapped)) return wrapped.data();
  const SystemNeighborList& list = neighbors.list(s);
  const double* x = storage.f64(Field::Positions) + 3 * static_cast<std::int64_t>(list.atomBegin);
  if (list.wrap.empty()) return x;
  wrapped.resize(3 * static_cast<std::size_t>(list.atomCount));
  wrappedPositions(list, x, wrapped.data());
  return wrapped.data();
}

}  // namespace hookmd
