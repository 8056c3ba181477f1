// How the stepping loop reaches a model's native force computation without going through JS.
#pragma once

#include <napi.h>

#include "dynamics/Stepper.h"

namespace hookmd::binding {

/**
 * The native compute function of a JS model object (a PairPotential or EAM wrap). Returns an empty
 * function for null/undefined, meaning that JS computes forces itself (JsModel).
 */
Stepper::ComputeFn computeFnOf(Napi::Env env, const Napi::Value& model);

}  // namespace hookmd::binding
