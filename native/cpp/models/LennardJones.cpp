#include "models/LennardJones.h"

#include <cmath>

#include "core/Error.h"
#include "models/Messages.h"

namespace hookmd {

namespace {
std::vector<PairKey> keysOf(const LennardJonesOptions& options) {
  std::vector<PairKey> keys;
  for (const LennardJonesPair& pair : options.pairs) keys.push_back(PairKey{pair.z1, pair.z2, pair.cutoff});
  return keys;
}
}  // namespace

LennardJones::LennardJones(const LennardJonesOptions& options)
    : PairPotential("LennardJones", PairEvaluator::LennardJones, sizeof(LennardJonesParams), keysOf(options), options.switchOn,
                    options.skin) {
  if (options.shift && options.switchOn != 0.0) {
    fail("INVALID_PARAMETER", "LennardJones: shift and switchOn are exclusive (the switch already brings the energy to 0 at the cutoff)");
  }
  for (const LennardJonesPair& pair : options.pairs) {
    const PairKey key{pair.z1, pair.z2, pair.cutoff};
    const std::string where = "LennardJones: pairs['" + label(key) + "']";
    if (!std::isfinite(pair.epsilon)) fail("INVALID_PARAMETER", where + ".epsilon must be finite, got " + formatNumber(pair.epsilon));
    if (!std::isfinite(pair.sigma)) fail("INVALID_PARAMETER", where + ".sigma must be finite, got " + formatNumber(pair.sigma));
    // ε < 0 would make the r⁻¹² core attractive: atoms collapse onto each other with E → −∞.
    if (pair.epsilon < 0.0) fail("INVALID_EPSILON", where + ".epsilon must be >= 0, got " + formatNumber(pair.epsilon));
    if (!(pair.sigma > 0.0)) fail("INVALID_SIGMA", where + ".sigma must be > 0, got " + formatNumber(pair.sigma));
    setParams(key, makeLennardJonesParams(pair.epsilon, pair.sigma, pair.cutoff, options.shift));
  }
}

}  // namespace hookmd
