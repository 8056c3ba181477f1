#include "binding/PotentialAccess.h"

#include "binding/PotentialWrap.h"

namespace hookmd::binding {

Stepper::ComputeFn computeFnOf(Napi::Env env, const Napi::Value& model) {
  if (model.IsNull() || model.IsUndefined()) return {};
  // The lambda shares ownership, so the potential outlives a JS model object collected mid-run.
  std::shared_ptr<Potential> potential = PotentialWrap::potentialOf(env, model);
  return [potential](Backend& backend, const std::uint8_t* systems, bool stress, bool energies) {
    ComputeRequest request;
    request.forces = true;
    request.stress = stress;
    request.systems = systems;
    request.energies = energies;
    potential->compute(backend, request);
  };
}

}  // namespace hookmd::binding
