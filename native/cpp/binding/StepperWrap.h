// NativeStepper: the JS handle of one Stepper (integrator, native hooks, convergence) bound to one batch.
#pragma once

#include <napi.h>

#include <memory>

#include "dynamics/Stepper.h"

namespace hookmd::binding {

class StepperWrap : public Napi::ObjectWrap<StepperWrap> {
 public:
  static Napi::Function define(Napi::Env env);
  explicit StepperWrap(const Napi::CallbackInfo& info);

 private:
  Napi::Value runTo(const Napi::CallbackInfo& info);
  Napi::Value finishStep(const Napi::CallbackInfo& info);
  Napi::Value runComputeHooks(const Napi::CallbackInfo& info);
  Napi::Value advance(const Napi::CallbackInfo& info);
  Napi::Value newlyConverged(const Napi::CallbackInfo& info);
  Napi::Value allConverged(const Napi::CallbackInfo& info);
  Napi::Value addHook(const Napi::CallbackInfo& info);
  Napi::Value addConvergence(const Napi::CallbackInfo& info);
  Napi::Value updateParameters(const Napi::CallbackInfo& info);
  Napi::Value state(const Napi::CallbackInfo& info);
  Napi::Value loadState(const Napi::CallbackInfo& info);
  Napi::Value remap(const Napi::CallbackInfo& info);
  Napi::Value requestStress(const Napi::CallbackInfo& info);
  Napi::Value newlyFrom(const Napi::CallbackInfo& info);
  Napi::Value convergedAt(const Napi::CallbackInfo& info);
  Napi::Value stageSteps(const Napi::CallbackInfo& info);
  Napi::Value stressComputed(const Napi::CallbackInfo& info);
  Napi::Value getStepCount(const Napi::CallbackInfo& info);
  void setStepCount(const Napi::CallbackInfo& info, const Napi::Value& value);
  Napi::Value getCursor(const Napi::CallbackInfo& info);

  Napi::ObjectReference batch_;
  Napi::ObjectReference model_;
  std::unique_ptr<Stepper> stepper_;
};

}  // namespace hookmd::binding
