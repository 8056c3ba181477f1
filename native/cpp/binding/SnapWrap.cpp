#include "binding/SnapWrap.h"

#include <cmath>
#include <string>

#include "models/SnapPotential.h"

namespace hookmd::binding {

namespace {

std::vector<double> numbersOf(const Napi::Float64Array& array) { return std::vector<double>(array.Data(), array.Data() + array.ElementLength()); }

}  // namespace

Napi::Function SnapWrap::define(Napi::Env env) { return DefineClass(env, "Snap", sharedMembers()); }

SnapWrap::SnapWrap(const Napi::CallbackInfo& info) : PotentialWrapBase<SnapWrap>(info) {
  const Napi::Env env = info.Env();
  const std::string name = requireString(info, 0, "Snap: name");
  // The name outlives this call: it starts every message the potential throws.
  static const char* const kNames[] = {"SNAP", "MLIAP"};
  const char* stable = nullptr;
  for (const char* known : kNames) {
    if (name == known) stable = known;
  }
  if (stable == nullptr) throwJs(env, "INVALID_ARGUMENT", "Snap: name must be 'SNAP' or 'MLIAP', got '" + name + "'");
  const Napi::Float64Array elements = requireFloat64Array(info, 1, "Snap: elements", -1);
  SnapDefinition d;
  for (std::size_t k = 0; k < elements.ElementLength(); ++k) {
    const double z = elements[k];
    if (!(z >= 1.0 && z <= 118.0) || std::floor(z) != z) throwJs(env, "INVALID_ARGUMENT", "Snap: elements must be atomic numbers");
    d.elements.push_back(static_cast<int>(z));
  }
  // The descriptor: SNAP's bispectrum (10 settings) or, with "so3" at index 9, ML-IAP's so3 (rcutfac, nmax, lmax, alpha, quadratic).
  const bool so3 = info.Length() > 9 && !info[9].IsUndefined() && requireString(info, 9, "Snap: descriptor") == "so3";
  const Napi::Float64Array settings = requireFloat64Array(info, 2, "Snap: settings", so3 ? 5 : 10);
  if (so3) {
    d.rcutfac = settings[0];
    for (const std::size_t k : {1u, 2u}) {
      if (!(settings[k] >= 0.0 && settings[k] <= 1000.0) || std::floor(settings[k]) != settings[k]) throwJs(env, "INVALID_ARGUMENT", "Snap: nmax and lmax must be whole numbers");
    }
    d.so3 = So3DescriptorSettings{static_cast<int>(settings[1]), static_cast<int>(settings[2]), settings[3]};
    d.quadratic = settings[4] != 0.0;
  } else {
    const double twojmax = settings[0];
    if (!(twojmax >= 0.0 && twojmax <= 1000.0) || std::floor(twojmax) != twojmax) throwJs(env, "INVALID_ARGUMENT", "Snap: twojmax must be a whole number");
    d.descriptor.twojmax = static_cast<int>(twojmax);
    d.rcutfac = settings[1];
    d.descriptor.rfac0 = settings[2];
    d.descriptor.rmin0 = settings[3];
    d.descriptor.switchFlag = settings[4] != 0.0;
    d.descriptor.bzeroFlag = settings[5] != 0.0;
    d.quadratic = settings[6] != 0.0;
    d.descriptor.chemFlag = settings[7] != 0.0;
    d.descriptor.bnormFlag = settings[8] != 0.0;
    d.descriptor.wselfAllFlag = settings[9] != 0.0;
  }
  d.radius = numbersOf(requireFloat64Array(info, 3, "Snap: radius", -1));
  d.weight = numbersOf(requireFloat64Array(info, 4, "Snap: weight", -1));
  d.coefficients = numbersOf(requireFloat64Array(info, 5, "Snap: coefficients", -1));
  const std::vector<double> zbl = numbersOf(requireFloat64Array(info, 6, "Snap: zbl", -1));
  if (zbl.size() == 1) throwJs(env, "INVALID_ARGUMENT", "Snap: zbl must be empty or [inner, outer, charges...]");
  if (zbl.size() >= 2) {
    d.zblInner = zbl[0];
    d.zblOuter = zbl[1];
    d.zblCharges.assign(zbl.begin() + 2, zbl.end());
  }
  const std::vector<double> network = numbersOf(requireFloat64Array(info, 7, "Snap: network", -1));
  if (!network.empty()) {
    const double layers = network[0];
    if (!(layers >= 1.0 && layers <= 64.0) || std::floor(layers) != layers || network.size() != 1 + 2 * static_cast<std::size_t>(layers)) {
      throwJs(env, "INVALID_ARGUMENT", "Snap: network must be [layers, then activation and nodes of each layer]");
    }
    for (std::size_t l = 0; l < static_cast<std::size_t>(layers); ++l) {
      const double activation = network[1 + 2 * l], nodes = network[2 + 2 * l];
      if (!(activation >= 0.0 && activation <= 1e6 && nodes >= 0.0 && nodes <= 1e6) || std::floor(activation) != activation || std::floor(nodes) != nodes) {
        throwJs(env, "INVALID_ARGUMENT", "Snap: network activations and node counts must be whole numbers");
      }
      d.networkActivations.push_back(static_cast<int>(activation));
      d.networkNodes.push_back(static_cast<int>(nodes));
    }
  }
  const std::optional<double> skin = PotentialWrap::optionalSkin(info, 8, "Snap: skin");
  guard(env, [&] { setPotential(std::make_shared<SnapPotential>(stable, d, skin)); });
}

}  // namespace hookmd::binding
