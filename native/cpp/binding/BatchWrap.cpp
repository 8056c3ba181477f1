#include "binding/BatchWrap.h"

#include "binding/AddonData.h"
#include "binding/Args.h"
#include "binding/ArrayViews.h"
#include "binding/Errors.h"
#include "core/BackendRegistry.h"

namespace hookmd::binding {

Napi::Function BatchWrap::define(Napi::Env env) {
  Napi::Function constructor = DefineClass(
      env, "NativeBatch",
      {
          InstanceMethod<&BatchWrap::resize>("resize"),
          InstanceMethod<&BatchWrap::view>("view"),
          InstanceMethod<&BatchWrap::write>("write"),
          InstanceMethod<&BatchWrap::syncToHost>("syncToHost"),
          InstanceMethod<&BatchWrap::syncToDevice>("syncToDevice"),
          InstanceMethod<&BatchWrap::reduce>("reduce"),
          InstanceMethod<&BatchWrap::kineticEnergy>("kineticEnergy"),
          InstanceMethod<&BatchWrap::fmax>("fmax"),
          InstanceMethod<&BatchWrap::setUnits>("setUnits"),
          InstanceAccessor<&BatchWrap::numAtoms>("numAtoms"),
          InstanceAccessor<&BatchWrap::numSystems>("numSystems"),
          InstanceAccessor<&BatchWrap::generation>("generation"),
          InstanceAccessor<&BatchWrap::backendName>("backend"),
          InstanceAccessor<&BatchWrap::device>("device"),
      });
  addonData(env).batchConstructor = Napi::Persistent(constructor);
  return constructor;
}

Backend& BatchWrap::backendOf(Napi::Env env, const Napi::Value& value) {
  AddonData& data = addonData(env);
  if (!value.IsObject() || !value.As<Napi::Object>().InstanceOf(data.batchConstructor.Value())) {
    throwJs(env, "INVALID_ARGUMENT", "expected a NativeBatch");
  }
  return Unwrap(value.As<Napi::Object>())->backend();
}

BatchWrap::BatchWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<BatchWrap>(info) {
  const std::string name = requireString(info, 0, "NativeBatch: backend");
  guard(info.Env(), [&] { backend_ = createBackend(name); });
}

Napi::Value BatchWrap::resize(const Napi::CallbackInfo& info) {
  const std::int64_t atoms = requireCount(info, 0, "resize: numAtoms");
  const std::int64_t systems = requireCount(info, 1, "resize: numSystems");
  guard(info.Env(), [&] { backend_->resize(atoms, systems); });
  return info.Env().Undefined();
}

Napi::Value BatchWrap::view(const Napi::CallbackInfo& info) {
  const Field field = requireField(info, 0);
  const BatchStorage& host = backend_->host();
  return guard(info.Env(), [&] {
    return makeView(info.Env(), host.buffer(field), fieldInfo(field).type, host.length(field));
  });
}

Napi::Value BatchWrap::write(const Napi::CallbackInfo& info) {
  const Field field = requireField(info, 0);
  if (info.Length() < 2) throwJs(info.Env(), "INVALID_ARGUMENT", "write: missing source array");
  const BatchStorage& host = backend_->host();
  copyIntoBuffer(info.Env(), info[1], host.buffer(field), fieldInfo(field).type, host.length(field),
                 fieldInfo(field).name);
  guard(info.Env(), [&] { backend_->syncToDevice(field); });
  return info.Env().Undefined();
}

Napi::Value BatchWrap::syncToHost(const Napi::CallbackInfo& info) {
  const Field field = requireField(info, 0);
  guard(info.Env(), [&] { backend_->syncToHost(field); });
  return info.Env().Undefined();
}

Napi::Value BatchWrap::syncToDevice(const Napi::CallbackInfo& info) {
  const Field field = requireField(info, 0);
  guard(info.Env(), [&] { backend_->syncToDevice(field); });
  return info.Env().Undefined();
}

Napi::Float64Array BatchWrap::perSystemResult(Napi::Env env) {
  return Napi::Float64Array::New(env, static_cast<std::size_t>(backend_->host().numSystems()));
}

Napi::Value BatchWrap::reduce(const Napi::CallbackInfo& info) {
  const Field field = requireField(info, 0);
  const std::string opName = requireString(info, 1, "reduce: op");
  ReduceOp op;
  if (!reduceOpFromName(opName, op)) {
    throwJs(info.Env(), "INVALID_REDUCE_OP", "reduce: op must be sum, mean, min, max or norm, got '" + opName + "'");
  }
  Napi::Float64Array out = perSystemResult(info.Env());
  guard(info.Env(), [&] { backend_->reduce(field, op, out.Data()); });
  return out;
}

Napi::Value BatchWrap::kineticEnergy(const Napi::CallbackInfo& info) {
  Napi::Float64Array out = perSystemResult(info.Env());
  guard(info.Env(), [&] { backend_->kineticEnergy(out.Data()); });
  return out;
}

Napi::Value BatchWrap::fmax(const Napi::CallbackInfo& info) {
  Napi::Float64Array out = perSystemResult(info.Env());
  guard(info.Env(), [&] { backend_->fmax(out.Data()); });
  return out;
}

Napi::Value BatchWrap::setUnits(const Napi::CallbackInfo& info) {
  Units units;
  units.kB = requireNumber(info, 0, "setUnits: kB");
  units.forceToAccel = requireNumber(info, 1, "setUnits: forceToAccel");
  if (!(units.kB > 0) || !(units.forceToAccel > 0)) {
    throwJs(info.Env(), "INVALID_UNITS", "setUnits: kB and forceToAccel must be positive");
  }
  backend_->host().units = units;
  return info.Env().Undefined();
}

Napi::Value BatchWrap::numAtoms(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(backend_->host().numAtoms()));
}

Napi::Value BatchWrap::numSystems(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(backend_->host().numSystems()));
}

Napi::Value BatchWrap::generation(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(backend_->host().generation()));
}

Napi::Value BatchWrap::backendName(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), backend_->name());
}

Napi::Value BatchWrap::device(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), guard(info.Env(), [&] { return backend_->device(); }));
}

}  // namespace hookmd::binding
