#include "models/EdgeList.h"

#include <cmath>
#include <string>

#include "core/Error.h"
#include "core/ThreadPool.h"
#include "cpu/SystemSchedule.h"
#include "core/Messages.h"

namespace hookmd {

namespace {
/**
 * Calls visit(i, j, shift) for every pair of `list` closer than the cutoff at `x` (the positions the list
 * runs on), i and j local indices and `shift` the image shift of the batch's own positions:
 * x_j − x_i + shift = (wrapped x_j) − (wrapped x_i) + the list's shift, so shift adds (w_j − w_i)·basis.
 */
template <class Visit>
void forEachEdgePair(const SystemNeighborList& list, const double* x, double cutoffSq, Visit&& visit) {
  const int bits = list.imageBits;
  const std::uint32_t mask = list.imageMask;
  const double* h = list.basis;
  const bool wrapped = !list.wrap.empty();
  for (const NeighborChunk& chunk : list.chunks) {
    for (std::int32_t slot = chunk.ownerBegin; slot < chunk.ownerEnd; ++slot) {
      const std::int32_t i = list.owners[slot];
      const double* xi = x + 3 * i;
      const std::uint32_t end = chunk.start[slot - chunk.ownerBegin + 1];
      for (std::uint32_t e = chunk.start[slot - chunk.ownerBegin]; e < end; ++e) {
        const std::uint32_t packed = chunk.entries[e];
        const std::int32_t j = static_cast<std::int32_t>(packed >> bits);
        const double* image = &list.shifts[3 * static_cast<std::size_t>(packed & mask)];
        const double* xj = x + 3 * j;
        double d[3];
        for (int c = 0; c < 3; ++c) d[c] = xj[c] + image[c] - xi[c];
        if (!(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] < cutoffSq)) continue;
        double shift[3] = {image[0], image[1], image[2]};
        if (wrapped) {
          const std::int32_t* wi = &list.wrap[3 * static_cast<std::size_t>(i)];
          const std::int32_t* wj = &list.wrap[3 * static_cast<std::size_t>(j)];
          for (int c = 0; c < 3; ++c) {
            shift[c] += (wj[0] - wi[0]) * h[c] + (wj[1] - wi[1]) * h[3 + c] + (wj[2] - wi[2]) * h[6 + c];
          }
        }
        visit(i, j, shift);
      }
    }
  }
}
}  // namespace

EdgeList::EdgeList(double cutoff, double skin) : cutoff_(cutoff), skin_(skin) {
  if (!(std::isfinite(cutoff) && cutoff > 0.0)) fail("INVALID_CUTOFF", "EdgeList: cutoff must be a finite number > 0, got " + formatNumber(cutoff));
  if (!(std::isfinite(skin) && skin >= 0.0)) fail("INVALID_SKIN", "EdgeList: skin must be a finite number >= 0, got " + formatNumber(skin));
}

void EdgeList::countSystem(std::int64_t s) {
  const SystemNeighborList& list = cache_.list(s);
  const double* x = wrapped_.data() + 3 * static_cast<std::int64_t>(list.atomBegin);
  std::int64_t* degree = offsets_.data() + list.atomBegin;
  std::fill(degree, degree + list.atomCount, 0);
  forEachEdgePair(list, x, cutoff_ * cutoff_, [&](std::int32_t i, std::int32_t j, const double*) {
    ++degree[i];
    ++degree[j];
  });
}

std::int64_t EdgeList::update(Backend& backend) {
  checkPtrLayout(backend, "OnnxModel", checkedPtr_);
  const BatchStorage& storage = backend.host({Field::Positions, Field::Cell, Field::Pbc, Field::Ptr});
  cache_.bind(storage, cutoff_, skin_);
  const std::int64_t atoms = storage.numAtoms();
  numSystems_ = storage.numSystems();
  wrapped_.resize(3 * static_cast<std::size_t>(atoms));
  offsets_.assign(static_cast<std::size_t>(atoms) + 1, 0);
  const int threads = ThreadPool::global().threads();
  if (static_cast<int>(scratch_.size()) < threads) scratch_.resize(static_cast<std::size_t>(threads));
  const double* positions = storage.f64(Field::Positions);
  auto prepare = [&](std::int64_t s, int thread) {
    cache_.update(s, storage, scratch_[static_cast<std::size_t>(thread)]);
    const SystemNeighborList& list = cache_.list(s);
    const std::int64_t begin = 3 * static_cast<std::int64_t>(list.atomBegin);
    const double* x = positions + begin;
    if (list.wrap.empty()) {
      std::copy(x, x + 3 * static_cast<std::int64_t>(list.atomCount), wrapped_.data() + begin);
    } else {
      wrappedPositions(list, x, wrapped_.data() + begin);
    }
    countSystem(s);
  };
  scheduleSystems(storage, nullptr, prepare, [&](std::int64_t s) { prepare(s, 0); });
  // Degrees to offsets: offsets_[i] becomes the first edge of atom i, offsets_[N] the edge count.
  std::int64_t total = 0;
  for (std::int64_t i = 0; i < atoms; ++i) {
    const std::int64_t degree = offsets_[i];
    offsets_[i] = total;
    total += degree;
  }
  offsets_[atoms] = total;
  return total;
}

template <class Real>
void EdgeList::write(std::int64_t* sources, std::int64_t* targets, Real* shifts) const {
  ThreadPool::global().parallelFor(0, numSystems_, 1, [&](std::int64_t lo, std::int64_t hi, int) {
    std::vector<std::int64_t> next;
    for (std::int64_t s = lo; s < hi; ++s) {
      const SystemNeighborList& list = cache_.list(s);
      const std::int64_t begin = list.atomBegin;
      next.assign(offsets_.begin() + begin, offsets_.begin() + begin + list.atomCount);
      auto put = [&](std::int64_t source, std::int64_t target, const double* shift, bool reversed) {
        const std::int64_t e = next[source - begin]++;
        sources[e] = source;
        targets[e] = target;
        // 0 − s rather than −s: a zero shift stays +0 both ways.
        for (int c = 0; c < 3; ++c) shifts[3 * e + c] = static_cast<Real>(reversed ? 0.0 - shift[c] : shift[c]);
      };
      forEachEdgePair(list, wrapped_.data() + 3 * begin, cutoff_ * cutoff_, [&](std::int32_t i, std::int32_t j, const double* shift) {
        put(begin + i, begin + j, shift, false);
        put(begin + j, begin + i, shift, true);
      });
    }
  });
}

template void EdgeList::write<double>(std::int64_t*, std::int64_t*, double*) const;
template void EdgeList::write<float>(std::int64_t*, std::int64_t*, float*) const;

}  // namespace hookmd
