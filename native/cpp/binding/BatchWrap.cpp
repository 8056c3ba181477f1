#include "binding/BatchWrap.h"

#include "binding/AddonData.h"
#include "binding/Args.h"
#include "binding/ArrayViews.h"
#include "binding/Errors.h"
#include "core/BackendRegistry.h"
#include "core/FieldSet.h"

namespace hookmd::binding {

Napi::Function BatchWrap::define(Napi::Env env) {
  Napi::Function constructor = DefineClass(
      env, "NativeBatch",
      {
          InstanceMethod<&BatchWrap::resize>("resize"),
          InstanceMethod<&BatchWrap::view>("view"),
          InstanceMethod<&BatchWrap::write>("write"),
          InstanceMethod<&BatchWrap::acquire>("acquire"),
          InstanceMethod<&BatchWrap::refill>("refill"),
          InstanceMethod<&BatchWrap::writeRows>("writeRows"),
          InstanceMethod<&BatchWrap::readSystems>("readSystems"),
          InstanceMethod<&BatchWrap::hostView>("hostView"),
          InstanceMethod<&BatchWrap::transferStats>("transferStats"),
          InstanceMethod<&BatchWrap::resetTransferStats>("resetTransferStats"),
          InstanceMethod<&BatchWrap::deviceStats>("deviceStats"),
          InstanceMethod<&BatchWrap::resetDeviceStats>("resetDeviceStats"),
          InstanceMethod<&BatchWrap::reduce>("reduce"),
          InstanceMethod<&BatchWrap::kineticEnergy>("kineticEnergy"),
          InstanceMethod<&BatchWrap::fmax>("fmax"),
          InstanceMethod<&BatchWrap::setUnits>("setUnits"),
          InstanceAccessor<&BatchWrap::numAtoms>("numAtoms"),
          InstanceAccessor<&BatchWrap::numSystems>("numSystems"),
          InstanceAccessor<&BatchWrap::generation>("generation"),
          InstanceAccessor<&BatchWrap::backendName>("backend"),
          InstanceAccessor<&BatchWrap::device>("device"),
          InstanceAccessor<&BatchWrap::unified>("unified"),
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
  // A new batch is where memory grows: first give back what collected batches and views still hold.
  registry_ = &addonData(info.Env()).earlyRelease;
  registry_->sweep(info.Env());
  guard(info.Env(), [&] { backend_ = createBackend(name); });
  registry_->add(this);
  reportHostMemory(info.Env());
}

BatchWrap::~BatchWrap() {
  if (registry_ != nullptr) registry_->remove(this);
}

// Called on the JS thread, a turn of the loop after the handle was collected.
void BatchWrap::Finalize(Napi::Env env) { withdrawHostMemory(env); }

void BatchWrap::releaseIfCollected(napi_env env) {
  if (!backend_ || !collected(env, static_cast<napi_ref>(*this))) return;
  backend_.reset();
  withdrawHostMemory(env);
}

void BatchWrap::withdrawHostMemory(napi_env env) {
  // A failed report only leaves V8's estimate high.
  std::int64_t change;
  napi_adjust_external_memory(env, -reportedBytes_, &change);
  reportedBytes_ = 0;
}

void BatchWrap::reportHostMemory(Napi::Env env) {
  const auto bytes = static_cast<std::int64_t>(backend_->hostMemoryBytes());
  std::int64_t change;
  if (napi_adjust_external_memory(env, bytes - reportedBytes_, &change) == napi_ok) reportedBytes_ = bytes;
}

template <typename Body>
void BatchWrap::reallocating(Napi::Env env, Body&& reallocate) {
  registry_->sweep(env);
  try {
    guard(env, reallocate);
  } catch (...) {
    // A failed reallocation leaves the old arrays or empty ones (Backend::resize): report whichever it is.
    reportHostMemory(env);
    throw;
  }
  reportHostMemory(env);
}

Napi::Value BatchWrap::resize(const Napi::CallbackInfo& info) {
  const std::int64_t atoms = requireCount(info, 0, "resize: numAtoms");
  const std::int64_t systems = requireCount(info, 1, "resize: numSystems");
  reallocating(info.Env(), [&] { backend_->resize(atoms, systems); });
  return info.Env().Undefined();
}

Napi::Value BatchWrap::view(const Napi::CallbackInfo& info) {
  const Field field = requireField(info, 0);
  return guard(info.Env(), [&] {
    return makeView(info.Env(), backend_->hostBuffer(field), fieldInfo(field).type,
                    fieldLength(field, backend_->numAtoms(), backend_->numSystems()));
  });
}

Napi::Value BatchWrap::write(const Napi::CallbackInfo& info) {
  const Field field = requireField(info, 0);
  if (info.Length() < 2) throwJs(info.Env(), "INVALID_ARGUMENT", "write: missing source array");
  const std::size_t length = fieldLength(field, backend_->numAtoms(), backend_->numSystems());
  const ElementType type = fieldInfo(field).type;
  // Checked before the field is marked as written, so a rejected source leaves the coherence state alone.
  requireFieldSource(info.Env(), info[1], type, length, fieldInfo(field).name);
  // The whole field is replaced: nothing needs syncing first, and the device copy goes stale.
  guard(info.Env(), [&] { backend_->host({}, {field}); });
  copyIntoBuffer(info.Env(), info[1], backend_->hostBuffer(field), type, length, fieldInfo(field).name);
  return info.Env().Undefined();
}

Napi::Value BatchWrap::acquire(const Napi::CallbackInfo& info) {
  const Field field = requireField(info, 0);
  const bool forWrite = info.Length() > 1 && info[1].ToBoolean().Value();
  guard(info.Env(), [&] { backend_->host({field}, forWrite ? FieldSet{field} : FieldSet{}); });
  return info.Env().Undefined();
}

namespace {
std::vector<std::int64_t> requireIndices(const Napi::CallbackInfo& info, std::size_t index, const char* what) {
  if (info.Length() <= index || !info[index].IsTypedArray() ||
      info[index].As<Napi::TypedArray>().TypedArrayType() != napi_int32_array) {
    throwJs(info.Env(), "INVALID_ARGUMENT", std::string(what) + " must be an Int32Array");
  }
  Napi::Int32Array values = info[index].As<Napi::Int32Array>();
  return std::vector<std::int64_t>(values.Data(), values.Data() + values.ElementLength());
}
}  // namespace

Napi::Value BatchWrap::refill(const Napi::CallbackInfo& info) {
  const std::vector<std::int64_t> keep = requireIndices(info, 0, "refill: keep");
  const std::vector<std::int64_t> added = requireIndices(info, 1, "refill: addedAtoms");
  const std::vector<std::int32_t> addedAtoms(added.begin(), added.end());
  reallocating(info.Env(), [&] { backend_->refill(keep, addedAtoms); });
  return info.Env().Undefined();
}

Napi::Value BatchWrap::writeRows(const Napi::CallbackInfo& info) {
  const Field field = requireField(info, 0);
  const std::int64_t first = requireCount(info, 1, "writeRows: first");
  const FieldInfo& spec = fieldInfo(field);
  if (info.Length() < 3 || !info[2].IsTypedArray()) throwJs(info.Env(), "INVALID_ARGUMENT", "writeRows: missing source array");
  const std::size_t length = info[2].As<Napi::TypedArray>().ElementLength();
  if (length % static_cast<std::size_t>(spec.components) != 0) {
    throwJs(info.Env(), "INVALID_ARGUMENT", std::string("writeRows: '") + spec.name + "' takes whole rows of " +
                                                std::to_string(spec.components) + " values");
  }
  requireFieldSource(info.Env(), info[2], spec.type, length, spec.name);
  Napi::TypedArray source = info[2].As<Napi::TypedArray>();
  const auto* bytes = static_cast<const std::uint8_t*>(source.ArrayBuffer().Data()) + source.ByteOffset();
  const auto rows = static_cast<std::int64_t>(length / static_cast<std::size_t>(spec.components));
  guard(info.Env(), [&] { backend_->writeRows(field, first, rows, bytes); });
  return info.Env().Undefined();
}

Napi::Value BatchWrap::readSystems(const Napi::CallbackInfo& info) {
  const Field field = requireField(info, 0);
  const std::vector<std::int64_t> systems = requireIndices(info, 1, "readSystems: systems");
  const FieldInfo& spec = fieldInfo(field);
  if (spec.extent == Extent::PerSystemPlusOne) throwJs(info.Env(), "INVALID_FIELD", "readSystems: ptr has no rows per system");
  // Sized from the host layout (ptr is rebuilt on the host and always current there).
  const std::int32_t* ptr = guard(info.Env(), [&] { return backend_->host({Field::Ptr}).i32(Field::Ptr); });
  std::size_t rows = 0;
  for (std::int64_t s : systems) {
    if (s < 0 || s >= backend_->numSystems()) throwJs(info.Env(), "INVALID_ARGUMENT", "readSystems: system " + std::to_string(s) + " is outside the batch");
    rows += spec.extent == Extent::PerAtom ? static_cast<std::size_t>(ptr[s + 1] - ptr[s]) : 1;
  }
  const std::size_t length = rows * static_cast<std::size_t>(spec.components);
  Napi::ArrayBuffer buffer = Napi::ArrayBuffer::New(info.Env(), length * elementSize(spec.type));
  guard(info.Env(), [&] { backend_->readSystems(field, systems, buffer.Data()); });
  return typedArrayOver(info.Env(), buffer, spec.type, length);
}

Napi::Value BatchWrap::hostView(const Napi::CallbackInfo& info) {
  acquire(info);
  return view(info);
}

Napi::Value BatchWrap::transferStats(const Napi::CallbackInfo& info) {
  const TransferStats& stats = backend_->transferStats();
  Napi::Object out = Napi::Object::New(info.Env());
  out.Set("toHostBytes", static_cast<double>(stats.toHostBytes));
  out.Set("toDeviceBytes", static_cast<double>(stats.toDeviceBytes));
  out.Set("toHostCopies", static_cast<double>(stats.toHostCopies));
  out.Set("toDeviceCopies", static_cast<double>(stats.toDeviceCopies));
  return out;
}

Napi::Value BatchWrap::resetTransferStats(const Napi::CallbackInfo& info) {
  backend_->resetTransferStats();
  return info.Env().Undefined();
}

Napi::Object deviceStatsObject(Napi::Env env, const DeviceStats& stats) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("launches", static_cast<double>(stats.launches));
  out.Set("graphLaunches", static_cast<double>(stats.graphLaunches));
  out.Set("graphCaptures", static_cast<double>(stats.graphCaptures));
  out.Set("hostSyncs", static_cast<double>(stats.hostSyncs));
  out.Set("controlToHostBytes", static_cast<double>(stats.controlToHostBytes));
  out.Set("controlToDeviceBytes", static_cast<double>(stats.controlToDeviceBytes));
  out.Set("rebuildPasses", static_cast<double>(stats.rebuildPasses));
  out.Set("systemsRebuilt", static_cast<double>(stats.systemsRebuilt));
  out.Set("rowRegrowths", static_cast<double>(stats.rowRegrowths));
  out.Set("modeledDeviceBytes", static_cast<double>(stats.modeledDeviceBytes));
  return out;
}

Napi::Value BatchWrap::deviceStats(const Napi::CallbackInfo& info) { return deviceStatsObject(info.Env(), backend_->deviceStats()); }

Napi::Value BatchWrap::resetDeviceStats(const Napi::CallbackInfo& info) {
  backend_->resetDeviceStats();
  return info.Env().Undefined();
}

Napi::Value BatchWrap::unified(const Napi::CallbackInfo& info) { return Napi::Boolean::New(info.Env(), backend_->unified()); }

Napi::Float64Array BatchWrap::perSystemResult(Napi::Env env) {
  return Napi::Float64Array::New(env, static_cast<std::size_t>(backend_->numSystems()));
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
  backend_->units() = units;
  return info.Env().Undefined();
}

Napi::Value BatchWrap::numAtoms(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(backend_->numAtoms()));
}

Napi::Value BatchWrap::numSystems(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(backend_->numSystems()));
}

Napi::Value BatchWrap::generation(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(backend_->generation()));
}

Napi::Value BatchWrap::backendName(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), backend_->name());
}

Napi::Value BatchWrap::device(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), guard(info.Env(), [&] { return backend_->device(); }));
}

}  // namespace hookmd::binding
