// The one list of pair evaluators (docs/ARCHITECTURE.md, "Adding a potential"). Every dispatcher over pair
// potentials expands it: the CPU and CUDA pair kernels, the small-system paths, the force-matching losses, the
// binding's potential class. A pair potential is a header `math/<Name>Eval.h` (its `<Name>Eval` with a POD
// `Params` and an HD `evaluate`) and `math/<Name>ParamGrad.h` (its θ layout, `params(θ, cutoff, shift)` and
// the HD `gradient`); adding one is an include and a line here.
#pragma once

#include <cstddef>

#include "math/LennardJonesParamGrad.h"
#include "math/MorseParamGrad.h"

/** X(Name) for every pair evaluator, in the order of PairEvaluator (the order is part of no file format). */
#define HOOKMD_PAIR_EVALUATORS(X) \
  X(LennardJones)                 \
  X(Morse)

namespace hookmd {

/** The evaluators a pair kernel can be instantiated for, one per entry of HOOKMD_PAIR_EVALUATORS. */
enum class PairEvaluator : int {
#define HOOKMD_PAIR_ENUM(Name) Name,
  HOOKMD_PAIR_EVALUATORS(HOOKMD_PAIR_ENUM)
#undef HOOKMD_PAIR_ENUM
};

/** The evaluator named by an entry of the list, as a type: its values (Eval) and its parameter slopes. */
template <class Grad>
struct PairKind {
  using ParamGrad = Grad;
  using Eval = typename Grad::Eval;
  using Params = typename Eval::Params;
};

/** The first entry of the list: what visitPairEvaluator falls back to for a value outside it. */
template <class First, class...>
struct FirstPairKind {
  using type = PairKind<First>;
};
#define HOOKMD_PAIR_GRAD(Name) Name##ParamGrad,
using DefaultPairKind = FirstPairKind<HOOKMD_PAIR_EVALUATORS(HOOKMD_PAIR_GRAD) void>::type;
#undef HOOKMD_PAIR_GRAD

/** The list's names ("LennardJones", "Morse", ...), indexed by PairEvaluator. */
inline constexpr const char* kPairEvaluatorNames[] = {
#define HOOKMD_PAIR_NAME(Name) #Name,
    HOOKMD_PAIR_EVALUATORS(HOOKMD_PAIR_NAME)
#undef HOOKMD_PAIR_NAME
};

inline constexpr int kNumPairEvaluators = static_cast<int>(sizeof(kPairEvaluatorNames) / sizeof(kPairEvaluatorNames[0]));

/** The name of an evaluator, first in the messages of its models. */
inline const char* pairEvaluatorName(PairEvaluator evaluator) { return kPairEvaluatorNames[static_cast<int>(evaluator)]; }

/**
 * Calls f(PairKind<…>{}) for `evaluator` and returns what it returns (host code: kernels are made and
 * launched here; device code switches over the list itself). Every branch must return the same type. An
 * evaluator comes only from the list, so no other value reaches this.
 */
template <class F>
decltype(auto) visitPairEvaluator(PairEvaluator evaluator, F&& f) {
  switch (evaluator) {
#define HOOKMD_PAIR_CASE(Name) \
  case PairEvaluator::Name:    \
    return f(PairKind<Name##ParamGrad>{});
    HOOKMD_PAIR_EVALUATORS(HOOKMD_PAIR_CASE)
#undef HOOKMD_PAIR_CASE
  }
  return f(DefaultPairKind{});
}

/** θ values per species pair of an evaluator (its ParamGrad::kParams). */
inline int pairEvaluatorParams(PairEvaluator evaluator) {
  return visitPairEvaluator(evaluator, [](auto kind) { return decltype(kind)::ParamGrad::kParams; });
}

/** Bytes of an evaluator's parameter struct, as the pair kernels' tables store it. */
inline std::size_t pairEvaluatorParamBytes(PairEvaluator evaluator) {
  return visitPairEvaluator(evaluator, [](auto kind) { return sizeof(typename decltype(kind)::Params); });
}

}  // namespace hookmd
