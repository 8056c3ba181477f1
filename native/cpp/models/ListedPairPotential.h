// The pair potential of one entry of math/PairEvaluators.h, built from rows of its θ layout (the same θ the
// force-matching loss fits): E(r) per species pair as the evaluator defines it, with an optional energy shift
// and XPLOR switch. lib/models checks every parameter against the model's TS declaration first; this layer
// checks what PairPotential checks (species, cutoffs, switch) and asserts that θ is finite.
#pragma once

#include <optional>
#include <vector>

#include "math/PairEvaluators.h"
#include "models/PairPotential.h"

namespace hookmd {

struct ListedPairOptions {
  PairEvaluator evaluator = PairEvaluator::LennardJones;
  /**
   * Rows [z1, z2, θ₀ … θ_{k−1}, cutoff] with k = pairEvaluatorParams(evaluator); z1 = z2 = 0 is the one row
   * used for every pair.
   */
  std::vector<double> rows;
  /** Shift every pair energy so E(r_c) = 0 (forces unchanged). Exclusive with switchOn. */
  bool shift = false;
  /** Start of the smooth switch (length units), in (0, r_c) for every pair; 0 disables it. */
  double switchOn = 0.0;
  /** Verlet skin (length units); unset until setSkin(). */
  std::optional<double> skin;
};

class ListedPairPotential final : public PairPotential {
 public:
  /** Throws INVALID_PARAMETER (a row of the wrong length, a non-finite θ, shift with switchOn) and PairPotential's errors. */
  explicit ListedPairPotential(const ListedPairOptions& options);
};

}  // namespace hookmd
