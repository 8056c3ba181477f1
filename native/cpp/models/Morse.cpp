#include "models/Morse.h"

#include <cmath>

#include "core/Error.h"
#include "models/Messages.h"

namespace hookmd {

namespace {
std::vector<PairKey> keysOf(const MorseOptions& options) {
  std::vector<PairKey> keys;
  for (const MorsePair& pair : options.pairs) keys.push_back(PairKey{pair.z1, pair.z2, pair.cutoff});
  return keys;
}

void checkPositive(const std::string& where, const char* field, double value) {
  if (!std::isfinite(value)) fail("INVALID_PARAMETER", where + "." + field + " must be finite, got " + formatNumber(value));
  if (!(value > 0.0)) fail("INVALID_PARAMETER", where + "." + field + " must be > 0, got " + formatNumber(value));
}
}  // namespace

Morse::Morse(const MorseOptions& options)
    : PairPotential("Morse", PairEvaluator::Morse, sizeof(MorseParams), keysOf(options), options.switchOn,
                    options.skin) {
  if (options.shift && options.switchOn != 0.0) {
    fail("INVALID_PARAMETER", "Morse: shift and switchOn are exclusive (the switch already brings the energy to 0 at the cutoff)");
  }
  for (const MorsePair& pair : options.pairs) {
    const PairKey key{pair.z1, pair.z2, pair.cutoff};
    const std::string where = "Morse: pairs['" + label(key) + "']";
    checkPositive(where, "D", pair.depth);
    checkPositive(where, "alpha", pair.alpha);
    checkPositive(where, "r0", pair.r0);
    setParams(key, makeMorseParams(pair.depth, pair.alpha, pair.r0, pair.cutoff, options.shift));
  }
}

}  // namespace hookmd
