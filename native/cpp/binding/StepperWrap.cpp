#include "binding/StepperWrap.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "binding/Args.h"
#include "binding/BatchWrap.h"
#include "binding/Errors.h"
#include "binding/PotentialAccess.h"
#include "binding/PotentialWrap.h"
#include "dynamics/IntegratorFactory.h"
#include "dynamics/NativeHookFactory.h"

namespace hookmd::binding {

namespace {
Parameters parametersFrom(Napi::Env env, const Napi::Value& value) {
  if (!value.IsObject()) throwJs(env, "INVALID_ARGUMENT", "NativeStepper: parameters must be an object");
  Parameters parameters;
  Napi::Object object = value.As<Napi::Object>();
  Napi::Array names = object.GetPropertyNames();
  for (std::uint32_t i = 0; i < names.Length(); ++i) {
    const std::string name = names.Get(i).As<Napi::String>().Utf8Value();
    Napi::Value entry = object.Get(name);
    if (!entry.IsTypedArray() || entry.As<Napi::TypedArray>().TypedArrayType() != napi_float64_array) {
      throwJs(env, "INVALID_ARGUMENT", "NativeStepper: parameter '" + name + "' must be a Float64Array");
    }
    Napi::Float64Array array = entry.As<Napi::Float64Array>();
    parameters.set(name, std::vector<double>(array.Data(), array.Data() + array.ElementLength()));
  }
  return parameters;
}

double numberField(Napi::Env env, const Napi::Object& object, const char* name, double fallback) {
  Napi::Value value = object.Get(name);
  if (value.IsUndefined()) return fallback;
  if (!value.IsNumber()) throwJs(env, "INVALID_ARGUMENT", std::string("NativeStepper: '") + name + "' must be a number");
  return value.As<Napi::Number>().DoubleValue();
}

HookSchedule scheduleFrom(Napi::Env env, const Napi::Object& spec) {
  HookSchedule schedule;
  schedule.stageMask = static_cast<unsigned>(numberField(env, spec, "stageMask", 0));
  const double frequency = numberField(env, spec, "frequency", 1);
  const double phase = numberField(env, spec, "phase", 0);
  if (!(frequency >= 1) || frequency != std::floor(frequency) || !(phase >= 0) || phase != std::floor(phase)) {
    throwJs(env, "INVALID_FREQUENCY", "NativeStepper: frequency must be an integer >= 1 and phase an integer >= 0");
  }
  schedule.frequency = static_cast<std::int64_t>(frequency);
  schedule.phase = static_cast<std::int64_t>(phase);
  return schedule;
}

Napi::Object requireObject(const Napi::CallbackInfo& info, std::size_t index, const char* what) {
  if (info.Length() <= index || !info[index].IsObject()) throwJs(info.Env(), "INVALID_ARGUMENT", std::string(what) + " must be an object");
  return info[index].As<Napi::Object>();
}

/** A hook's `mask` (Uint8Array) and `values` (Float64Array), as addHook and remap's arrivals carry them; absent ones stay empty. */
void readHookData(const Napi::Object& object, std::vector<std::uint8_t>& mask, std::vector<double>& values) {
  Napi::Value bytes = object.Get("mask");
  if (bytes.IsTypedArray() && bytes.As<Napi::TypedArray>().TypedArrayType() == napi_uint8_array) {
    Napi::Uint8Array flags = bytes.As<Napi::Uint8Array>();
    mask.assign(flags.Data(), flags.Data() + flags.ElementLength());
  }
  Napi::Value numbers = object.Get("values");
  if (numbers.IsTypedArray() && numbers.As<Napi::TypedArray>().TypedArrayType() == napi_float64_array) {
    Napi::Float64Array doubles = numbers.As<Napi::Float64Array>();
    values.assign(doubles.Data(), doubles.Data() + doubles.ElementLength());
  }
}

}  // namespace

Napi::Function StepperWrap::define(Napi::Env env) {
  return DefineClass(env, "NativeStepper",
                     {
                         InstanceMethod<&StepperWrap::runTo>("runTo"),
                         InstanceMethod<&StepperWrap::finishStep>("finishStep"),
                         InstanceMethod<&StepperWrap::runComputeHooks>("runComputeHooks"),
                         InstanceMethod<&StepperWrap::advance>("advance"),
                         InstanceMethod<&StepperWrap::newlyConverged>("newlyConverged"),
                         InstanceMethod<&StepperWrap::newlyFrom>("newlyFrom"),
                         InstanceMethod<&StepperWrap::convergedAt>("convergedAt"),
                         InstanceMethod<&StepperWrap::stageSteps>("stageSteps"),
                         InstanceMethod<&StepperWrap::stressComputed>("stressComputed"),
                         InstanceMethod<&StepperWrap::allConverged>("allConverged"),
                         InstanceMethod<&StepperWrap::addHook>("addHook"),
                         InstanceMethod<&StepperWrap::addConvergence>("addConvergence"),
                         InstanceMethod<&StepperWrap::updateParameters>("updateParameters"),
                         InstanceMethod<&StepperWrap::state>("state"),
                         InstanceMethod<&StepperWrap::loadState>("loadState"),
                         InstanceMethod<&StepperWrap::remap>("remap"),
                         InstanceMethod<&StepperWrap::requestStress>("requestStress"),
                         InstanceAccessor<&StepperWrap::getStepCount, &StepperWrap::setStepCount>("stepCount"),
                         InstanceAccessor<&StepperWrap::getCursor>("cursor"),
                     });
}

StepperWrap::StepperWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<StepperWrap>(info) {
  Napi::Env env = info.Env();
  Backend& backend = BatchWrap::backendOf(env, info[0]);
  Stepper::ComputeFn compute = computeFnOf(env, info.Length() > 1 ? info[1] : env.Undefined());
  const std::string type = requireString(info, 2, "NativeStepper: integrator");
  const Parameters parameters = parametersFrom(env, info.Length() > 3 ? info[3] : env.Undefined());
  const double exitStatus = requireNumber(info, 4, "NativeStepper: exitStatus");
  // Keep the batch and model alive as long as the stepper refers to their native objects.
  batch_ = Napi::Persistent(info[0].As<Napi::Object>());
  if (info[1].IsObject()) model_ = Napi::Persistent(info[1].As<Napi::Object>());
  guard(env, [&] {
    auto integrator = createIntegrator(backend, type, parameters, backend.numSystems());
    stepper_ = std::make_unique<Stepper>(backend, std::move(compute), std::move(integrator), static_cast<std::int32_t>(exitStatus));
    if (info[1].IsObject()) stepper_->setPotential(PotentialWrap::potentialOf(env, info[1]));
  });
}

Napi::Value StepperWrap::runTo(const Napi::CallbackInfo& info) {
  const double stage = requireNumber(info, 0, "runTo: stage");
  if (!(stage >= 0 && stage < kStageCount) || stage != std::floor(stage)) {
    throwJs(info.Env(), "INVALID_ARGUMENT", "runTo: stage must be a DynamicsStage value");
  }
  if (static_cast<int>(stage) < stepper_->cursor()) {
    throwJs(info.Env(), "INVALID_ARGUMENT", "runTo: the step is already past that stage");
  }
  const bool converged = guard(info.Env(), [&] { return stepper_->runTo(static_cast<DynamicsStage>(stage)); });
  return Napi::Boolean::New(info.Env(), converged);
}

Napi::Value StepperWrap::finishStep(const Napi::CallbackInfo& info) {
  guard(info.Env(), [&] { stepper_->finishStep(); });
  return info.Env().Undefined();
}

Napi::Value StepperWrap::runComputeHooks(const Napi::CallbackInfo& info) {
  const double stage = requireNumber(info, 0, "runComputeHooks: stage");
  if (!(stage >= 0 && stage < kStageCount) || stage != std::floor(stage)) {
    throwJs(info.Env(), "INVALID_ARGUMENT", "runComputeHooks: stage must be a DynamicsStage value");
  }
  guard(info.Env(), [&] { stepper_->runComputeHooks(static_cast<DynamicsStage>(stage)); });
  return info.Env().Undefined();
}

Napi::Value StepperWrap::advance(const Napi::CallbackInfo& info) {
  const std::int64_t maxSteps = requireCount(info, 0, "advance: maxSteps");
  const double budget = requireNumber(info, 1, "advance: budgetSeconds");
  const bool pause = info.Length() > 2 && info[2].ToBoolean().Value();
  if (stepper_->cursor() != 0) throwJs(info.Env(), "INVALID_ARGUMENT", "advance: a step is in progress; finish it first");
  const Stepper::AdvanceResult result = guard(info.Env(), [&] { return stepper_->advance(maxSteps, budget, pause); });
  Napi::Object out = Napi::Object::New(info.Env());
  out.Set("steps", static_cast<double>(result.steps));
  out.Set("pausedOnConverge", result.pausedOnConverge);
  return out;
}

Napi::Value StepperWrap::newlyConverged(const Napi::CallbackInfo& info) {
  const auto& newly = stepper_->newlyConverged();
  Napi::Uint8Array out = Napi::Uint8Array::New(info.Env(), newly.size());
  std::copy(newly.begin(), newly.end(), out.Data());
  return out;
}

Napi::Value StepperWrap::newlyFrom(const Napi::CallbackInfo& info) {
  const auto& from = stepper_->newlyFrom();
  Napi::Int32Array out = Napi::Int32Array::New(info.Env(), from.size());
  std::copy(from.begin(), from.end(), out.Data());
  return out;
}

Napi::Value StepperWrap::convergedAt(const Napi::CallbackInfo& info) {
  const auto& steps = stepper_->convergedAt();
  Napi::Float64Array out = Napi::Float64Array::New(info.Env(), steps.size());
  std::transform(steps.begin(), steps.end(), out.Data(), [](std::int64_t step) { return static_cast<double>(step); });
  return out;
}

Napi::Value StepperWrap::stageSteps(const Napi::CallbackInfo& info) {
  const std::vector<double> steps = stepper_->integrator().stageSteps();
  Napi::Float64Array out = Napi::Float64Array::New(info.Env(), steps.size());
  std::copy(steps.begin(), steps.end(), out.Data());
  return out;
}

Napi::Value StepperWrap::stressComputed(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), stepper_->stressComputed());
}

Napi::Value StepperWrap::allConverged(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), stepper_->allConverged());
}

Napi::Value StepperWrap::addHook(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object spec = requireObject(info, 0, "addHook: spec");
  NativeHookSpec hook;
  Napi::Value type = spec.Get("type");
  if (!type.IsString()) throwJs(env, "INVALID_ARGUMENT", "addHook: spec.type must be a string");
  hook.type = type.As<Napi::String>().Utf8Value();
  hook.schedule = scheduleFrom(env, spec);
  hook.value = numberField(env, spec, "value", 0);
  readHookData(spec, hook.mask, hook.values);
  Backend& backend = BatchWrap::backendOf(env, batch_.Value());
  guard(env, [&] { stepper_->addHook(createNativeHook(backend, hook)); });
  return env.Undefined();
}

Napi::Value StepperWrap::addConvergence(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object spec = requireObject(info, 0, "addConvergence: spec");
  Napi::Value list = spec.Get("criteria");
  if (!list.IsArray()) throwJs(env, "INVALID_ARGUMENT", "addConvergence: criteria must be an array");
  std::vector<Criterion> criteria;
  Napi::Array array = list.As<Napi::Array>();
  for (std::uint32_t i = 0; i < array.Length(); ++i) {
    if (!array.Get(i).IsObject()) throwJs(env, "INVALID_ARGUMENT", "addConvergence: each criterion must be an object");
    Napi::Object entry = array.Get(i).As<Napi::Object>();
    Criterion criterion;
    if (!entry.Get("key").IsString() || !convergenceKeyFromName(entry.Get("key").As<Napi::String>().Utf8Value(), criterion.key)) {
      throwJs(env, "INVALID_CRITERION", "addConvergence: criteria[" + std::to_string(i) + "].key is not a built-in key");
    }
    const std::string op = entry.Get("op").IsString() ? entry.Get("op").As<Napi::String>().Utf8Value() : "none";
    if (!entryOpFromName(op, criterion.op)) throwJs(env, "INVALID_CRITERION", "addConvergence: unknown reduceOp '" + op + "'");
    criterion.threshold = numberField(env, entry, "threshold", 0);
    criterion.target = numberField(env, entry, "target", 0);
    criteria.push_back(criterion);
  }
  const HookSchedule schedule = scheduleFrom(env, spec);
  const bool detectOnly = spec.Get("targetStatus").IsNull();
  // A null sourceStatus (every system) is for detect-only checks; a check that moves systems names its source.
  std::optional<std::int32_t> source;
  if (!spec.Get("sourceStatus").IsNull() || !detectOnly) source = static_cast<std::int32_t>(numberField(env, spec, "sourceStatus", 0));
  const auto target = detectOnly ? source.value_or(0) : static_cast<std::int32_t>(numberField(env, spec, "targetStatus", 1));
  stepper_->addConvergence(std::make_unique<Convergence>(std::move(criteria), schedule, source, target, detectOnly));
  return env.Undefined();
}

Napi::Value StepperWrap::updateParameters(const Napi::CallbackInfo& info) {
  const Parameters parameters = parametersFrom(info.Env(), info.Length() > 0 ? info[0] : info.Env().Undefined());
  Backend& backend = BatchWrap::backendOf(info.Env(), batch_.Value());
  guard(info.Env(), [&] { stepper_->integrator().updateParameters(parameters, backend.numSystems()); });
  return info.Env().Undefined();
}

Napi::Value StepperWrap::state(const Napi::CallbackInfo& info) {
  const std::vector<double> values = stepper_->state();
  Napi::Float64Array out = Napi::Float64Array::New(info.Env(), values.size());
  std::copy(values.begin(), values.end(), out.Data());
  return out;
}

Napi::Value StepperWrap::loadState(const Napi::CallbackInfo& info) {
  Napi::Float64Array values = requireFloat64Array(info, 0, "loadState: state", -1);
  guard(info.Env(), [&] {
    stepper_->loadState(std::vector<double>(values.Data(), values.Data() + values.ElementLength()));
  });
  return info.Env().Undefined();
}

Napi::Value StepperWrap::remap(const Napi::CallbackInfo& info) {
  if (info.Length() < 1 || !info[0].IsTypedArray() || info[0].As<Napi::TypedArray>().TypedArrayType() != napi_int32_array) {
    throwJs(info.Env(), "INVALID_ARGUMENT", "remap: keep must be an Int32Array");
  }
  Napi::Int32Array keep = info[0].As<Napi::Int32Array>();
  const std::int64_t added = requireCount(info, 1, "remap: added");
  std::vector<std::int64_t> indices(keep.Data(), keep.Data() + keep.ElementLength());
  // Optional: per hook, undefined or the data the refill brings it ({ mask: Uint8Array, values: Float64Array }).
  std::vector<HookArrivals> brought;
  std::vector<const HookArrivals*> arrivals;
  if (info.Length() > 2 && !info[2].IsUndefined()) {
    if (!info[2].IsArray()) throwJs(info.Env(), "INVALID_ARGUMENT", "remap: arrivals must be an array");
    Napi::Array list = info[2].As<Napi::Array>();
    brought.resize(list.Length());
    for (std::uint32_t k = 0; k < list.Length(); ++k) {
      Napi::Value entry = list.Get(k);
      if (entry.IsUndefined()) {
        arrivals.push_back(nullptr);
        continue;
      }
      if (!entry.IsObject()) throwJs(info.Env(), "INVALID_ARGUMENT", "remap: each arrival must be an object or undefined");
      readHookData(entry.As<Napi::Object>(), brought[k].mask, brought[k].values);
      arrivals.push_back(&brought[k]);
    }
  }
  guard(info.Env(), [&] { stepper_->remap(indices, added, arrivals); });
  return info.Env().Undefined();
}

Napi::Value StepperWrap::requestStress(const Napi::CallbackInfo& info) {
  stepper_->requestStress();
  return info.Env().Undefined();
}

Napi::Value StepperWrap::getStepCount(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(stepper_->stepCount()));
}

void StepperWrap::setStepCount(const Napi::CallbackInfo& info, const Napi::Value& value) {
  if (!value.IsNumber() || value.As<Napi::Number>().DoubleValue() < 0) {
    throwJs(info.Env(), "INVALID_ARGUMENT", "stepCount must be a number >= 0");
  }
  stepper_->setStepCount(static_cast<std::int64_t>(value.As<Napi::Number>().DoubleValue()));
}

Napi::Value StepperWrap::getCursor(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), stepper_->cursor());
}

}  // namespace hookmd::binding
