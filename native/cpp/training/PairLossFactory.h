// Makes the loss of a named pair potential (a name of math/PairEvaluators.h), as the binding receives it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "training/PairLoss.h"

namespace hookmd {

/** Throws NativeError UNKNOWN_MODEL for another name, and PairLoss's row validation errors. */
std::unique_ptr<PairLoss> makePairLoss(const std::string& model, const std::vector<PairRow>& rows, bool shift, double switchOn);

}  // namespace hookmd
