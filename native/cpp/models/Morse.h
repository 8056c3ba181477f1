// Morse: E(r) = D[e^{−2α(r−r₀)} − 2e^{−α(r−r₀)}] per species pair, with an optional energy shift and
// XPLOR switch (math/MorseEval.h). The constructor is the C++ API layer's validation.
#pragma once

#include <optional>
#include <vector>

#include "math/MorseEval.h"
#include "models/PairPotential.h"

namespace hookmd {

struct MorsePair {
  /** Atomic numbers; 0 and 0 for one set of parameters used by every pair. */
  int z1 = 0;
  int z2 = 0;
  /** Well depth D (energy units), > 0. */
  double depth = 1.0;
  /** Width parameter α (1/length), > 0. */
  double alpha = 1.0;
  /** Equilibrium distance r₀ (length units), > 0. */
  double r0 = 1.0;
  /** Cutoff r_c (length units), > 0. */
  double cutoff = 2.5;
};

struct MorseOptions {
  std::vector<MorsePair> pairs;
  /** Shift every pair energy so E(r_c) = 0. Exclusive with switchOn. */
  bool shift = false;
  /** Start of the smooth switch (length units), in (0, r_c); 0 disables it. */
  double switchOn = 0.0;
  std::optional<double> skin;
};

class Morse final : public PairPotential {
 public:
  explicit Morse(const MorseOptions& options);
};

}  // namespace hookmd
