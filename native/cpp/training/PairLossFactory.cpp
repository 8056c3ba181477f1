#include "training/PairLossFactory.h"

#include "core/Error.h"
#include "math/PairEvaluators.h"

namespace hookmd {

std::unique_ptr<PairLoss> makePairLoss(const std::string& model, const std::vector<PairRow>& rows, bool shift, double switchOn) {
  std::string known;
  for (int e = 0; e < kNumPairEvaluators; ++e) {
    const char* name = kPairEvaluatorNames[e];
    if (model == name) {
      const auto evaluator = static_cast<PairEvaluator>(e);
      return std::make_unique<PairLoss>(evaluator, name, pairEvaluatorParams(evaluator), rows, shift, switchOn);
    }
    known += (e == 0 ? "" : e + 1 == kNumPairEvaluators ? " or " : ", ") + std::string(name);
  }
  fail("UNKNOWN_MODEL", "PairLoss: no loss for model '" + model + "'; expected " + known);
}

}  // namespace hookmd
