#include "binding/NetworkLossWrap.h"

#include <cmath>
#include <string>
#include <vector>

#include "binding/Args.h"
#include "binding/BatchWrap.h"
#include "binding/Errors.h"
#include "binding/TrainingArgs.h"

namespace hookmd::binding {

namespace {
int wholeNumber(Napi::Env env, double value, double most, const char* what) {
  if (!(value >= 0.0 && value <= most) || std::floor(value) != value) throwJs(env, "INVALID_ARGUMENT", std::string("NetworkLoss: ") + what + " must be whole numbers");
  return static_cast<int>(value);
}

std::vector<double> numbersOf(const Napi::Float64Array& array) { return std::vector<double>(array.Data(), array.Data() + array.ElementLength()); }
}  // namespace

Napi::Function NetworkLossWrap::define(Napi::Env env) {
  return DefineClass(env, "NetworkLoss",
                     {
                         InstanceMethod("bind", &NetworkLossWrap::bind),
                         InstanceMethod("descriptors", &NetworkLossWrap::descriptors),
                         InstanceMethod("derivatives", &NetworkLossWrap::derivatives),
                         InstanceMethod("setScales", &NetworkLossWrap::setScales),
                         InstanceMethod("forward", &NetworkLossWrap::forward),
                         InstanceMethod("loss", &NetworkLossWrap::loss),
                         InstanceMethod("predictions", &NetworkLossWrap::predictions),
                         InstanceMethod("activations", &NetworkLossWrap::activations),
                         InstanceAccessor("numParams", &NetworkLossWrap::numParams, nullptr),
                         InstanceAccessor("numDescriptors", &NetworkLossWrap::numDescriptors, nullptr),
                     });
}

NetworkLossWrap::NetworkLossWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NetworkLossWrap>(info) {
  const Napi::Env env = info.Env();
  NetworkLossDefinition d;
  for (double z : numbersOf(requireFloat64Array(info, 0, "NetworkLoss: elements", -1))) d.elements.push_back(wholeNumber(env, z, 118, "elements"));
  const Napi::Float64Array settings = requireFloat64Array(info, 1, "NetworkLoss: settings", 9);
  d.descriptor.twojmax = wholeNumber(env, settings[0], 1000, "twojmax");
  d.rcutfac = settings[1];
  d.descriptor.rfac0 = settings[2];
  d.descriptor.rmin0 = settings[3];
  d.descriptor.switchFlag = settings[4] != 0.0;
  d.descriptor.bzeroFlag = settings[5] != 0.0;
  d.descriptor.chemFlag = settings[6] != 0.0;
  d.descriptor.bnormFlag = settings[7] != 0.0;
  d.descriptor.wselfAllFlag = settings[8] != 0.0;
  d.radius = numbersOf(requireFloat64Array(info, 2, "NetworkLoss: radius", -1));
  d.weight = numbersOf(requireFloat64Array(info, 3, "NetworkLoss: weight", -1));
  const std::vector<double> network = numbersOf(requireFloat64Array(info, 4, "NetworkLoss: network", -1));
  const int layers = network.empty() ? 0 : wholeNumber(env, network[0], 64, "network layers");
  if (layers < 1 || network.size() != 1 + 2 * static_cast<std::size_t>(layers)) {
    throwJs(env, "INVALID_ARGUMENT", "NetworkLoss: network must be [layers, then activation and nodes of each layer]");
  }
  for (int l = 0; l < layers; ++l) {
    d.activations.push_back(wholeNumber(env, network[1 + 2 * l], 1e6, "network activations"));
    d.nodes.push_back(wholeNumber(env, network[2 + 2 * l], 1e6, "network node counts"));
  }
  guard(env, [&] { loss_ = std::make_unique<NetworkLoss>(d); });
}

Napi::Value NetworkLossWrap::bind(const Napi::CallbackInfo& info) {
  Backend& backend = BatchWrap::backendOf(info.Env(), info[0]);
  const ReferenceArrays refs = requireReferences(info, backend, "NetworkLoss.bind");
  guard(info.Env(), [&] { loss_->bind(backend, refs); });
  return info.Env().Undefined();
}

Napi::Value NetworkLossWrap::descriptors(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  const SnapDescriptorSet* set = loss_->descriptors();
  if (set == nullptr) throwJs(env, "NOT_BOUND", "NetworkLoss.descriptors: bind() first");
  const std::int64_t atoms = loss_->numAtoms();
  const std::size_t n = static_cast<std::size_t>(set->numDescriptors());
  Napi::Float64Array values = Napi::Float64Array::New(env, static_cast<std::size_t>(atoms) * n);
  if (atoms > 0) std::copy(set->descriptors(0), set->descriptors(0) + static_cast<std::size_t>(atoms) * n, values.Data());
  Napi::Int32Array types = Napi::Int32Array::New(env, static_cast<std::size_t>(atoms));
  std::copy(loss_->types().begin(), loss_->types().end(), types.Data());
  Napi::Object out = Napi::Object::New(env);
  out.Set("values", values);
  out.Set("types", types);
  return out;
}

Napi::Value NetworkLossWrap::derivatives(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  const SnapDescriptorSet* set = loss_->descriptors();
  if (set == nullptr) throwJs(env, "NOT_BOUND", "NetworkLoss.derivatives: bind() first");
  const std::int64_t atoms = loss_->numAtoms();
  const std::int64_t entries = set->numEntries();
  const std::size_t n = static_cast<std::size_t>(set->numDescriptors());
  Napi::Float64Array begin = Napi::Float64Array::New(env, static_cast<std::size_t>(atoms) + 1);
  for (std::int64_t j = 0; j <= atoms; ++j) begin[static_cast<std::size_t>(j)] = static_cast<double>(set->entryBegin(j));
  Napi::Int32Array atom = Napi::Int32Array::New(env, static_cast<std::size_t>(entries));
  for (std::int64_t e = 0; e < entries; ++e) atom[static_cast<std::size_t>(e)] = set->entryAtom(e);
  Napi::Float64Array values = Napi::Float64Array::New(env, static_cast<std::size_t>(entries) * 3 * n);
  if (entries > 0) std::copy(set->entryDerivatives(0), set->entryDerivatives(0) + values.ElementLength(), values.Data());
  Napi::Float64Array virial = Napi::Float64Array::New(env, static_cast<std::size_t>(atoms) * 6 * n);
  if (atoms > 0) std::copy(set->virialDerivatives(0), set->virialDerivatives(0) + virial.ElementLength(), virial.Data());
  Napi::Object out = Napi::Object::New(env);
  out.Set("entryBegin", begin);
  out.Set("entryAtom", atom);
  out.Set("values", values);
  out.Set("virial", virial);
  return out;
}

Napi::Value NetworkLossWrap::setScales(const Napi::CallbackInfo& info) {
  const std::int64_t length = static_cast<std::int64_t>(loss_->numParams() / loss_->paramsPerElement()) * 2 * loss_->numDescriptors();
  const Napi::Float64Array scales = requireFloat64Array(info, 0, "NetworkLoss.setScales: scales", length);
  guard(info.Env(), [&] { loss_->setScales(scales.Data()); });
  return info.Env().Undefined();
}

Napi::Value NetworkLossWrap::forward(const Napi::CallbackInfo& info) {
  const Napi::Float64Array theta = requireFloat64Array(info, 0, "NetworkLoss.forward: theta", static_cast<std::int64_t>(loss_->numParams()));
  const Napi::Int32Array systems = requireTyped<Napi::Int32Array>(info, 1, napi_int32_array, "NetworkLoss.forward: systems", "Int32Array", -1);
  guard(info.Env(), [&] { loss_->forward(theta.Data(), systems.Data(), static_cast<std::int64_t>(systems.ElementLength())); });
  return info.Env().Undefined();
}

Napi::Value NetworkLossWrap::loss(const Napi::CallbackInfo& info) {
  const LossWeights weights = requireLossWeights(info, "NetworkLoss.loss");
  double* gradient = nullptr;
  if (info.Length() > 1 && !info[1].IsNull() && !info[1].IsUndefined()) {
    gradient = requireFloat64Array(info, 1, "NetworkLoss.loss: gradient", static_cast<std::int64_t>(loss_->numParams())).Data();
  }
  const LossStats s = guard(info.Env(), [&] { return loss_->loss(weights, gradient); });
  return statsArray(info.Env(), s);
}

Napi::Value NetworkLossWrap::predictions(const Napi::CallbackInfo& info) {
  Napi::Object out = Napi::Object::New(info.Env());
  out.Set("energy", copyOut(info.Env(), loss_->energy()));
  out.Set("forces", copyOut(info.Env(), loss_->forces()));
  out.Set("stress", copyOut(info.Env(), loss_->stress()));
  return out;
}

Napi::Value NetworkLossWrap::activations(const Napi::CallbackInfo& info) {
  const std::size_t layers = loss_->layerCount();
  Napi::Array out = Napi::Array::New(info.Env(), layers);
  for (std::size_t l = 0; l < layers; ++l) out.Set(static_cast<std::uint32_t>(l), copyOut(info.Env(), loss_->activations(static_cast<int>(l))));
  return out;
}

Napi::Value NetworkLossWrap::numParams(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(loss_->numParams()));
}

Napi::Value NetworkLossWrap::numDescriptors(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), loss_->numDescriptors()); }

}  // namespace hookmd::binding
