#include "kernels/EamPairRows.h"

#include <algorithm>
#include <cstdint>

namespace hookmd {

namespace {
constexpr std::size_t kLineDoubles = 8;

std::size_t roundUpToLine(std::size_t doubles) { return (doubles + kLineDoubles - 1) / kLineDoubles * kLineDoubles; }

/** Offset (in doubles) of the first 64-byte boundary at or after `base`. */
std::size_t alignmentOffset(const double* base) {
  const std::uintptr_t address = reinterpret_cast<std::uintptr_t>(base);
  return ((64 - address % 64) % 64) / sizeof(double);
}
}  // namespace

EamPairRows::EamPairRows(const EamTables& tables) : numElements_(tables.numElements()) {
  const bool one = numElements_ == 1;
  const int rows = tables.grid().nr + 1;
  const int densityStride = eamDensityRowStride(one);
  const int forceStride = eamForceRowStride(one);
  densityBlock_ = roundUpToLine(static_cast<std::size_t>(rows) * densityStride);
  forceBlock_ = roundUpToLine(static_cast<std::size_t>(rows) * forceStride);
  const std::size_t pairs = static_cast<std::size_t>(numElements_) * numElements_;
  storage_.assign(pairs * (densityBlock_ + forceBlock_) + kLineDoubles, 0.0);
  density_ = alignmentOffset(storage_.data());
  force_ = density_ + pairs * densityBlock_;
  double* density = storage_.data() + density_;
  double* force = storage_.data() + force_;

  const std::size_t table = static_cast<std::size_t>(rows) * kEamSplineStride;
  const double* rhor = tables.rhorSplines().data();
  const double* z2r = tables.z2rSplines().data();
  for (int a = 0; a < numElements_; ++a) {
    for (int b = 0; b < numElements_; ++b) {
      // The density b puts on a (read for the owner a), and a puts on b (for the neighbor).
      const double* onOwner = rhor + tables.rhorTableOf(a, b) * table;
      const double* onNeighbor = rhor + tables.rhorTableOf(b, a) * table;
      const double* pair = z2r + tables.z2rTableOf(a, b) * table;
      double* densityRows = density + (a * numElements_ + b) * densityBlock_;
      double* forceRows = force + (a * numElements_ + b) * forceBlock_;
      for (int m = 1; m < rows; ++m) {
        const std::size_t c = static_cast<std::size_t>(m) * kEamSplineStride;
        double* d = densityRows + static_cast<std::size_t>(m) * densityStride;
        std::copy(onOwner + c + 3, onOwner + c + 7, d);
        if (!one) std::copy(onNeighbor + c + 3, onNeighbor + c + 7, d + 4);
        double* f = forceRows + static_cast<std::size_t>(m) * forceStride;
        std::copy(pair + c, pair + c + 7, f);
        std::copy(onOwner + c, onOwner + c + 3, f + 7);
        if (!one) std::copy(onNeighbor + c, onNeighbor + c + 3, f + 10);
      }
    }
  }
}

}  // namespace hookmd
