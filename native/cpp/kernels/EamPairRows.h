// The r tables of an EAM potential repacked for the pair loops (math/EamEval.h, eamDensityRowStride and
// eamForceRowStride): per ordered element pair, one row per interval holding everything a pass reads for a
// pair, so a pair's table reads are one gather from adjacent memory instead of one per table.
#pragma once

#include <cstddef>
#include <vector>

#include "kernels/EamTables.h"

namespace hookmd {

class EamPairRows {
 public:
  explicit EamPairRows(const EamTables& tables);

  bool oneElement() const { return numElements_ == 1; }
  /** Rows of element pair (a, b): a the owner's element, b the neighbor's; row m at m × stride. */
  const double* density(int a, int b) const { return storage_.data() + density_ + (a * numElements_ + b) * densityBlock_; }
  const double* force(int a, int b) const { return storage_.data() + force_ + (a * numElements_ + b) * forceBlock_; }
  /** Doubles between the blocks of (a, b) and (a, b + 1). */
  std::size_t densityBlock() const { return densityBlock_; }
  std::size_t forceBlock() const { return forceBlock_; }

 private:
  int numElements_;
  std::size_t densityBlock_;
  std::size_t forceBlock_;
  std::vector<double> storage_;
  /** Offsets into storage_ at a 64-byte boundary, so a 4-double density row never straddles two cache lines. */
  std::size_t density_;
  std::size_t force_;
};

}  // namespace hookmd
