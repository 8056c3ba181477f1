#include "models/PairPotential.h"

#include <algorithm>
#include <cmath>

#include "core/Error.h"
#include "core/ThreadPool.h"
#include "core/Messages.h"
#include "platform/KernelFactory.h"

namespace hookmd {

namespace {
constexpr int kMaxAtomicNumber = 118;
}  // namespace

std::string PairPotential::label(const PairKey& key) {
  if (key.z1 == 0 && key.z2 == 0) return "default";
  return elementSymbol(key.z1) + "-" + elementSymbol(key.z2);
}

PairPotential::PairPotential(const char* name, PairEvaluator evaluator, std::size_t paramBytes,
                             const std::vector<PairKey>& keys, double switchOn, std::optional<double> skin)
    : name_(name) {
  spec_.evaluator = evaluator;
  spec_.model = name;
  const std::string model(name);
  if (keys.empty()) fail("INVALID_PAIR", model + ": no pair parameters were given");
  std::vector<int> species;
  for (const PairKey& key : keys) {
    const std::string where = model + ": pairs['" + label(key) + "']";
    if (key.z1 == 0 || key.z2 == 0) {
      if (key.z1 != key.z2 || keys.size() != 1) {
        fail("INVALID_PAIR", model + ": the default parameters (species 0) apply to every pair and cannot be mixed with a pair table");
      }
      wildcard_ = true;
    } else if (key.z1 < 1 || key.z1 > kMaxAtomicNumber || key.z2 < 1 || key.z2 > kMaxAtomicNumber) {
      fail("INVALID_PAIR", where + ": species must be atomic numbers 1..118");
    }
    if (!std::isfinite(key.cutoff)) fail("INVALID_PARAMETER", where + ".cutoff must be finite, got " + formatNumber(key.cutoff));
    if (!(key.cutoff > 0.0)) fail("INVALID_CUTOFF", where + ".cutoff must be > 0, got " + formatNumber(key.cutoff));
    spec_.cutoff = std::max(spec_.cutoff, key.cutoff);
    species.push_back(key.z1);
    species.push_back(key.z2);
  }
  std::sort(species.begin(), species.end());
  species.erase(std::unique(species.begin(), species.end()), species.end());
  zOfType_ = species;
  spec_.numTypes = static_cast<int>(species.size());
  typeOfZ_.assign(kMaxAtomicNumber + 1, -1);
  for (int t = 0; t < spec_.numTypes; ++t) typeOfZ_[species[t]] = t;
  defined_.assign(tableSize(), 0);
  spec_.params.assign(tableSize() * paramBytes, 0);
  for (const PairKey& key : keys) {
    if (defined_[slot(key, false)]) {
      fail("DUPLICATE_PAIR", model + ": pairs['" + label(key) + "'] is given twice (pairs are unordered)");
    }
    defined_[slot(key, false)] = defined_[slot(key, true)] = 1;
  }

  if (switchOn != 0.0) {
    if (!std::isfinite(switchOn)) fail("INVALID_PARAMETER", model + ": switchOn must be finite, got " + formatNumber(switchOn));
    spec_.switches.resize(tableSize());
    for (const PairKey& key : keys) {
      if (!(switchOn > 0.0 && switchOn < key.cutoff)) {
        fail("INVALID_SWITCH", model + ": switchOn must lie in (0, cutoff) for every pair, got " + formatNumber(switchOn) +
                                   " with pairs['" + label(key) + "'].cutoff = " + formatNumber(key.cutoff));
      }
      spec_.switches[slot(key, false)] = spec_.switches[slot(key, true)] = makeSwitchParams(switchOn, key.cutoff);
    }
  }
  if (skin) setSkin(*skin);
}

std::size_t PairPotential::slot(const PairKey& key, bool swapped) const {
  if (wildcard_) return 0;
  const int a = typeOfZ_[key.z1];
  const int b = typeOfZ_[key.z2];
  return swapped ? static_cast<std::size_t>(b) * spec_.numTypes + a : static_cast<std::size_t>(a) * spec_.numTypes + b;
}

void PairPotential::setSkin(double skin) {
  if (!std::isfinite(skin)) fail("INVALID_PARAMETER", std::string(name_) + ": skin must be finite, got " + formatNumber(skin));
  if (skin < 0.0) fail("INVALID_SKIN", std::string(name_) + ": skin must be >= 0, got " + formatNumber(skin));
  skin_ = skin;
}

void PairPotential::assignTypes(Backend& backend) {
  if (wildcard_) return;
  if (FieldStamp::of(backend, Field::AtomicNumbers) == typedAtoms_ && FieldStamp::of(backend, Field::Ptr) == typedPtr_) return;
  const BatchStorage& storage = backend.host({Field::AtomicNumbers, Field::Ptr});
  const std::int64_t systems = storage.numSystems();
  const std::int32_t* z = storage.i32(Field::AtomicNumbers);
  const std::int32_t* ptr = storage.i32(Field::Ptr);
  types_.resize(static_cast<std::size_t>(storage.numAtoms()));
  // First missing pair of each system (z1 * 1000 + z2, −1 if none), so the reported one never depends on
  // which thread found it.
  std::vector<std::int32_t> missing(static_cast<std::size_t>(systems), -1);
  ThreadPool::global().parallelFor(0, systems, 1, [&](std::int64_t lo, std::int64_t hi, int) {
    for (std::int64_t s = lo; s < hi; ++s) {
      bool present[kMaxAtomicNumber + 1] = {};
      for (std::int32_t i = ptr[s]; i < ptr[s + 1]; ++i) {
        const int type = z[i] >= 0 && z[i] <= kMaxAtomicNumber ? typeOfZ_[z[i]] : -1;
        if (type < 0) {
          // A number outside 0..118 (written through a view) is reported as Z=999, never as "no pair missing".
          const int reported = std::min(std::max(z[i], 0), 999);
          missing[s] = reported * 1000 + reported;
          break;
        }
        types_[i] = static_cast<std::uint8_t>(type);
        present[type] = true;
      }
      for (int a = 0; a < spec_.numTypes && missing[s] < 0; ++a) {
        for (int b = a; b < spec_.numTypes && missing[s] < 0; ++b) {
          if (present[a] && present[b] && !defined_[static_cast<std::size_t>(a) * spec_.numTypes + b]) {
            missing[s] = zOfType_[a] * 1000 + zOfType_[b];
          }
        }
      }
    }
  });
  for (std::int64_t s = 0; s < systems; ++s) {
    if (missing[s] < 0) continue;
    const PairKey key{missing[s] / 1000, missing[s] % 1000, 0.0};
    fail("MISSING_PAIR", std::string(name_) + ": no parameters for the species pair " + label(key) + " (Z " +
                             std::to_string(key.z1) + "-" + std::to_string(key.z2) + ") in system " + std::to_string(s) +
                             "; add pairs['" + label(key) + "'] (no mixing rule is applied)");
  }
  typedAtoms_ = FieldStamp::of(backend, Field::AtomicNumbers);
  typedPtr_ = FieldStamp::of(backend, Field::Ptr);
  ++typesVersion_;
}

void PairPotential::compute(Backend& backend, const ComputeRequest& request) {
  if (!(skin_ >= 0.0)) {
    fail("SKIN_UNSET", std::string(name_) + ": the Verlet skin is not set; pass skin, or compute through the " +
                           "TypeScript model once so it takes the batch units' default");
  }
  checkPtrLayout(backend, name_, checkedPtr_);
  assignTypes(backend);
  PairForceKernel& kernel = kernel_.forBackend(backend, [&] { return createKernel<operation::PairForces>(backend, spec_); });
  kernel.execute(backend, request, AtomTypes{&types_, typesVersion_}, skin_, virial_);
}

void PairPotential::finishEnergies(Backend& backend) {
  if (PairForceKernel* kernel = kernel_.current(backend)) kernel->finishEnergies(backend);
}

ResidentStepKernel* PairPotential::residentSteps(Backend& backend) {
  PairForceKernel* kernel = kernel_.current(backend);
  return kernel != nullptr ? kernel->residentSteps() : nullptr;
}

NeighborStats PairPotential::neighborStats() const { return kernel_.neighborStats(); }

bool PairPotential::allPairs(Backend& backend, AllPairsModel& model) {
  checkPtrLayout(backend, name_, checkedPtr_);
  assignTypes(backend);
  model.spec = &spec_;
  model.types = AtomTypes{&types_, typesVersion_};
  return true;
}

}  // namespace hookmd
