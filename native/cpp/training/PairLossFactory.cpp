#include "training/PairLossFactory.h"

#include "core/Error.h"
#include "math/LennardJonesParamGrad.h"
#include "math/MorseParamGrad.h"

namespace hookmd {

std::unique_ptr<PairLoss> makePairLoss(const std::string& model, const std::vector<PairRow>& rows, bool shift, double switchOn) {
  if (model == "LennardJones") {
    return std::make_unique<PairLoss>(PairEvaluator::LennardJones, "LennardJones", LennardJonesParamGrad::kParams, rows, shift, switchOn);
  }
  if (model == "Morse") return std::make_unique<PairLoss>(PairEvaluator::Morse, "Morse", MorseParamGrad::kParams, rows, shift, switchOn);
  fail("UNKNOWN_MODEL", "PairLoss: no loss for model '" + model + "'; expected LennardJones or Morse");
}

}  // namespace hookmd
