// LennardJones: the 12-6 pair potential with per-species-pair ε, σ and cutoff, an optional energy shift
// and an optional XPLOR switch (math/LennardJonesEval.h has the formula). This is the C++ API layer: the
// constructor validates every parameter and names the model, the pair and the bad value on failure.
#pragma once

#include <optional>
#include <vector>

#include "math/LennardJonesEval.h"
#include "models/PairPotential.h"

namespace hookmd {

struct LennardJonesPair {
  /** Atomic numbers; 0 and 0 for one set of parameters used by every pair. */
  int z1 = 0;
  int z2 = 0;
  /** Well depth ε (energy units), ≥ 0; ε = 0 switches the pair off. */
  double epsilon = 1.0;
  /** Zero-crossing distance σ (length units), > 0. */
  double sigma = 1.0;
  /** Cutoff r_c (length units), > 0. */
  double cutoff = 2.5;
};

struct LennardJonesOptions {
  std::vector<LennardJonesPair> pairs;
  /** Shift every pair energy so E(r_c) = 0 (forces unchanged). Exclusive with switchOn. */
  bool shift = false;
  /** Start of the smooth switch (length units), in (0, r_c) for every pair; 0 disables it. */
  double switchOn = 0.0;
  /** Verlet skin (length units); unset until setSkin(). */
  std::optional<double> skin;
};

class LennardJones final : public PairPotential {
 public:
  explicit LennardJones(const LennardJonesOptions& options);
};

}  // namespace hookmd
