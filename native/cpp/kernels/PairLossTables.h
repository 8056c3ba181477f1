// What θ turns into before any pair is visited, for one pair term (math/*ParamGrad.h): the evaluator's
// coefficients per species slot, and the shift's parameter slopes per row. Both pair-loss kernels build
// them here, on the host, so the CPU and the GPU evaluate the same coefficients.
#pragma once

#include <vector>

#include "kernels/PairLossKernel.h"

namespace hookmd {

template <class Grad>
struct PairLossTables {
  using Params = typename Grad::Eval::Params;

  /** Evaluator coefficients of each slot a·numTypes + b; zeros (cutoff 0: no pair) where no row covers it. */
  std::vector<Params> table;
  /** ∂e(r_c)/∂θ of each row (paramsPerPair values per row) when the potential is shifted, else zeros. */
  std::vector<double> shiftGradient;

  void update(const PairLossSpec& spec, const double* theta) {
    constexpr int kParams = Grad::kParams;
    table.assign(spec.rowOfSlot.size(), Params{});
    for (std::size_t slot = 0; slot < spec.rowOfSlot.size(); ++slot) {
      const int row = spec.rowOfSlot[slot];
      if (row >= 0) table[slot] = Grad::params(theta + row * kParams, spec.rowCutoffs[row], spec.shift);
    }
    shiftGradient.assign(spec.rowCutoffs.size() * kParams, 0.0);
    if (!spec.shift) return;
    for (std::size_t row = 0; row < spec.rowCutoffs.size(); ++row) {
      const double cutoff = spec.rowCutoffs[row];
      double unused[kParams];
      Grad::gradient(theta + row * kParams, cutoff * cutoff, shiftGradient.data() + row * kParams, unused);
    }
  }
};

}  // namespace hookmd
