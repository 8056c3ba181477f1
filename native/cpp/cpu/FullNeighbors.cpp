#include "cpu/FullNeighbors.h"

#include <algorithm>

namespace hookmd {

void CentreNeighbors::reserve(std::size_t count) {
  if (atom.size() >= count) return;
  for (std::vector<double>* v : {&dx, &dy, &dz, &r, &ux, &uy, &uz}) v->resize(count);
  type.resize(count);
  atom.resize(count);
}

void FullNeighbors::update(const SystemNeighborList& list) {
  // The shifts follow a deforming cell between builds: refresh them, with their negatives after them.
  const std::size_t images = list.shifts.size() / 3;
  shifts_.resize(2 * list.shifts.size());
  for (std::size_t k = 0; k < 3 * images; ++k) {
    shifts_[k] = list.shifts[k];
    shifts_[3 * images + k] = -list.shifts[k];
  }
  if (list.generation == generation_) return;
  const std::int32_t atoms = list.atomCount;
  const EntryDecoder decoder(list);
  start_.assign(static_cast<std::size_t>(atoms) + 1, 0);
  auto forEachPair = [&](auto&& fn) {
    for (const NeighborChunk& chunk : list.chunks) {
      for (std::int32_t slot = chunk.ownerBegin; slot < chunk.ownerEnd; ++slot) {
        const std::int32_t i = list.owners[slot];
        const std::uint32_t end = chunk.start[slot - chunk.ownerBegin + 1];
        for (std::uint32_t e = chunk.start[slot - chunk.ownerBegin]; e < end; ++e) {
          fn(i, decoder.neighbor(chunk.entries[e]), static_cast<std::int32_t>(chunk.entries[e] & list.imageMask));
        }
      }
    }
  };
  forEachPair([&](std::int32_t i, std::int32_t j, std::int32_t) {
    ++start_[i + 1];
    ++start_[j + 1];
  });
  maxCount_ = 0;
  for (std::int32_t i = 0; i < atoms; ++i) {
    maxCount_ = std::max(maxCount_, start_[i + 1]);
    start_[i + 1] += start_[i];
  }
  atom_.resize(static_cast<std::size_t>(start_[atoms]));
  image_.resize(atom_.size());
  std::vector<std::int32_t> next(start_.begin(), start_.end() - 1);
  const auto flipped = static_cast<std::int32_t>(images);
  forEachPair([&](std::int32_t i, std::int32_t j, std::int32_t image) {
    std::int32_t e = next[i]++;
    atom_[e] = j;
    image_[e] = image;
    e = next[j]++;
    atom_[e] = i;
    image_[e] = image + flipped;
  });
  generation_ = list.generation;
}

}  // namespace hookmd
