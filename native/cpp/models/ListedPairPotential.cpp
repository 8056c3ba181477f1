#include "models/ListedPairPotential.h"

#include <cmath>
#include <string>

#include "core/Error.h"
#include "core/Messages.h"

namespace hookmd {

namespace {
std::size_t columnsOf(PairEvaluator evaluator) { return 3 + static_cast<std::size_t>(pairEvaluatorParams(evaluator)); }

std::vector<PairKey> keysOf(const ListedPairOptions& options) {
  const std::size_t columns = columnsOf(options.evaluator);
  if (options.rows.size() % columns != 0) {
    fail("INVALID_PARAMETER", std::string(pairEvaluatorName(options.evaluator)) + ": pairs must hold rows of " +
                                  std::to_string(columns) + " numbers");
  }
  std::vector<PairKey> keys;
  for (std::size_t r = 0; r < options.rows.size(); r += columns) {
    keys.push_back(PairKey{static_cast<int>(options.rows[r]), static_cast<int>(options.rows[r + 1]), options.rows[r + columns - 1]});
  }
  return keys;
}
}  // namespace

ListedPairPotential::ListedPairPotential(const ListedPairOptions& options)
    : PairPotential(pairEvaluatorName(options.evaluator), options.evaluator, pairEvaluatorParamBytes(options.evaluator),
                    keysOf(options), options.switchOn, options.skin) {
  const std::string model = pairEvaluatorName(options.evaluator);
  if (options.shift && options.switchOn != 0.0) {
    fail("INVALID_PARAMETER", model + ": shift and switchOn are exclusive (the switch already brings the energy to 0 at the cutoff)");
  }
  const std::size_t columns = columnsOf(options.evaluator);
  visitPairEvaluator(options.evaluator, [&](auto kind) {
    using Grad = typename decltype(kind)::ParamGrad;
    for (std::size_t r = 0; r < options.rows.size(); r += columns) {
      const double* row = options.rows.data() + r;
      const PairKey key{static_cast<int>(row[0]), static_cast<int>(row[1]), row[columns - 1]};
      for (int q = 0; q < Grad::kParams; ++q) {
        // lib/models checked the ranges; a non-finite θ here is a caller that skipped them.
        if (!std::isfinite(row[2 + q])) {
          fail("INVALID_PARAMETER", model + ": pairs['" + label(key) + "'] parameter " + std::to_string(q) + " must be finite, got " +
                                        formatNumber(row[2 + q]));
        }
      }
      setParams(key, Grad::params(row + 2, key.cutoff, options.shift));
    }
  });
}

}  // namespace hookmd
