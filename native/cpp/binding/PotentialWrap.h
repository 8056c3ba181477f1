// The JS handles of native potentials. Every potential class (PairPotential, EAM) is an ObjectWrap
// that derives from PotentialWrapBase<T>, which adds the members they share: compute, skin, cutoff,
// neighborStats and virial. Each class tags its objects with its own napi type tag, so native code that
// receives a model handle from JS (the dynamics engine) gets the Potential back through
// PotentialWrap::potentialOf without any JS in between.
#pragma once

#include <napi.h>

#include <memory>
#include <optional>
#include <vector>

#include "binding/Args.h"
#include "binding/BatchWrap.h"
#include "binding/Errors.h"
#include "models/Potential.h"

namespace hookmd::binding {

class PotentialWrap {
 public:
  /**
   * The Potential behind a native model object (`model.native` in TS). Shared, so a stepping loop can keep
   * it alive while it runs. Throws a typed JS error for anything else.
   */
  static std::shared_ptr<Potential> potentialOf(Napi::Env env, const Napi::Value& value);

  // Argument guards shared by the potential constructors.
  static bool requireFlag(const Napi::CallbackInfo& info, std::size_t index, const char* what);
  /** Rows of a Float64Array pair table with `columns` numbers each; the first two must be integers. */
  static std::vector<const double*> requirePairRows(const Napi::CallbackInfo& info, std::size_t index, const char* what,
                                                    std::size_t columns);
  /** An optional skin: undefined gives an unset optional. */
  static std::optional<double> optionalSkin(const Napi::CallbackInfo& info, std::size_t index, const char* what);
  /** { builds, resets, pairs, systems, bytes }, as `neighborStats()` returns them. */
  static Napi::Object neighborStatsObject(Napi::Env env, const NeighborStats& stats);
};

template <class T>
class PotentialWrapBase : public Napi::ObjectWrap<T> {
 public:
  const std::shared_ptr<Potential>& potential() const { return potential_; }

 protected:
  using Descriptors = std::vector<Napi::ClassPropertyDescriptor<T>>;

  explicit PotentialWrapBase(const Napi::CallbackInfo& info) : Napi::ObjectWrap<T>(info) {
    if (napi_type_tag_object(info.Env(), info.This(), &T::kTypeTag) != napi_ok) {
      throwJs(info.Env(), "NATIVE_FAILURE", "could not tag a native potential object");
    }
  }

  /** The shared members, to append to a class's own descriptors. */
  static Descriptors sharedMembers() {
    using Base = PotentialWrapBase<T>;
    return {
        Napi::ObjectWrap<T>::InstanceMethod("compute", &Base::compute),
        Napi::ObjectWrap<T>::InstanceMethod("setSkin", &Base::setSkin),
        Napi::ObjectWrap<T>::InstanceMethod("neighborStats", &Base::neighborStats),
        Napi::ObjectWrap<T>::InstanceMethod("virial", &Base::virial),
        Napi::ObjectWrap<T>::InstanceAccessor("skin", &Base::skin, nullptr),
        Napi::ObjectWrap<T>::InstanceAccessor("cutoff", &Base::cutoff, nullptr),
        Napi::ObjectWrap<T>::InstanceAccessor("name", &Base::name, nullptr),
    };
  }

  void setPotential(std::shared_ptr<Potential> potential) { potential_ = std::move(potential); }

 private:
  /** compute(batch: NativeBatch, forces: boolean, stress: boolean): void */
  Napi::Value compute(const Napi::CallbackInfo& info) {
    Backend& backend = BatchWrap::backendOf(info.Env(), info[0]);
    ComputeRequest request;
    request.forces = PotentialWrap::requireFlag(info, 1, "compute: forces");
    request.stress = PotentialWrap::requireFlag(info, 2, "compute: stress");
    guard(info.Env(), [&] { potential_->compute(backend, request); });
    return info.Env().Undefined();
  }

  Napi::Value setSkin(const Napi::CallbackInfo& info) {
    const double skin = requireNumber(info, 0, "setSkin: skin");
    guard(info.Env(), [&] { potential_->setSkin(skin); });
    return info.Env().Undefined();
  }

  Napi::Value neighborStats(const Napi::CallbackInfo& info) {
    return PotentialWrap::neighborStatsObject(info.Env(), potential_->neighborStats());
  }

  Napi::Value virial(const Napi::CallbackInfo& info) {
    const std::vector<double>& values = potential_->virial();
    Napi::Float64Array out = Napi::Float64Array::New(info.Env(), values.size());
    std::copy(values.begin(), values.end(), out.Data());
    return out;
  }

  Napi::Value skin(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), potential_->skin()); }
  Napi::Value cutoff(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), potential_->cutoff()); }
  Napi::Value name(const Napi::CallbackInfo& info) { return Napi::String::New(info.Env(), potential_->name()); }

  std::shared_ptr<Potential> potential_;
};

}  // namespace hookmd::binding
