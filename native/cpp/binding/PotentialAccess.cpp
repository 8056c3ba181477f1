#include "binding/PotentialAccess.h"

#include "binding/Errors.h"

namespace hookmd::binding {

Stepper::ComputeFn computeFnOf(Napi::Env env, const Napi::Value& model) {
  if (model.IsNull() || model.IsUndefined()) return {};
  throwJs(env, "INVALID_MODEL", "NativeStepper: the model has no native force computation");
}

}  // namespace hookmd::binding
