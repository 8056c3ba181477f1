#include "cpu/ShortNeighbors.h"

#include <algorithm>
#include <cmath>

namespace hookmd {

namespace {
/** Calls fn(i, j, d, r²) for every entry of `list` closer than the cutoff (d = x_j + shift − x_i). */
template <class Fn>
void forEachClosePair(const SystemNeighborList& list, const double* x, double cutoffSq, Fn&& fn) {
  const EntryDecoder decoder(list);
  for (const NeighborChunk& chunk : list.chunks) {
    for (std::int32_t slot = chunk.ownerBegin; slot < chunk.ownerEnd; ++slot) {
      const std::int32_t i = list.owners[slot];
      const double xi[3] = {x[3 * i], x[3 * i + 1], x[3 * i + 2]};
      const std::uint32_t end = chunk.start[slot - chunk.ownerBegin + 1];
      for (std::uint32_t e = chunk.start[slot - chunk.ownerBegin]; e < end; ++e) {
        double d[3];
        decoder.offset(chunk.entries[e], x, xi, d);
        const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        if (r2 < cutoffSq) fn(i, decoder.neighbor(chunk.entries[e]), d, r2);
      }
    }
  }
}
}  // namespace

void ShortNeighbors::build(const SystemNeighborList& list, const double* x, const std::uint8_t* types, double cutoffSq) {
  const std::int32_t atoms = list.atomCount;
  start_.assign(static_cast<std::size_t>(atoms) + 1, 0);
  forEachClosePair(list, x, cutoffSq, [&](std::int32_t i, std::int32_t j, const double*, double) {
    ++start_[i + 1];
    ++start_[j + 1];
  });
  maxCount_ = 0;
  for (std::int32_t i = 0; i < atoms; ++i) {
    maxCount_ = std::max(maxCount_, start_[i + 1]);
    start_[i + 1] += start_[i];
  }
  const std::size_t entries = static_cast<std::size_t>(start_[atoms]);
  j_.resize(entries);
  type_.resize(entries);
  for (std::vector<double>* v : {&dx_, &dy_, &dz_, &r_, &ux_, &uy_, &uz_}) v->resize(entries);
  std::vector<std::int32_t> next(start_.begin(), start_.end() - 1);
  auto put = [&](std::int32_t owner, std::int32_t other, double x0, double y0, double z0, double r) {
    const std::int32_t e = next[owner]++;
    j_[e] = other;
    type_[e] = types[other];
    dx_[e] = x0;
    dy_[e] = y0;
    dz_[e] = z0;
    r_[e] = r;
    const double inv = 1.0 / r;
    ux_[e] = x0 * inv;
    uy_[e] = y0 * inv;
    uz_[e] = z0 * inv;
  };
  forEachClosePair(list, x, cutoffSq, [&](std::int32_t i, std::int32_t j, const double* d, double r2) {
    const double r = std::sqrt(r2);
    put(i, j, d[0], d[1], d[2], r);
    put(j, i, -d[0], -d[1], -d[2], r);
  });
}

}  // namespace hookmd
