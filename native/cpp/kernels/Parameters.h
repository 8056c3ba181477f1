// Per-system engine parameters by name. The TS layer expands scalars to one value per system and fills
// every default, so native code only checks presence and length.
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/Error.h"

namespace hookmd {

class Parameters {
 public:
  void set(const std::string& name, std::vector<double> values) { values_[name] = std::move(values); }
  bool has(const std::string& name) const { return values_.count(name) != 0; }

  /** The per-system values of `name`; throws MISSING_PARAMETER / INVALID_PARAMETER. */
  const std::vector<double>& perSystem(const std::string& owner, const std::string& name, std::int64_t numSystems) const {
    auto found = values_.find(name);
    if (found == values_.end()) fail("MISSING_PARAMETER", owner + ": parameter '" + name + "' is missing");
    if (static_cast<std::int64_t>(found->second.size()) != numSystems) {
      fail("INVALID_PARAMETER", owner + ": parameter '" + name + "' needs " + std::to_string(numSystems) +
                                    " values (one per system), got " + std::to_string(found->second.size()));
    }
    return found->second;
  }

  /** Every name and its values, for code that splits a parameter set (FusedStage). */
  const std::map<std::string, std::vector<double>>& all() const noexcept { return values_; }

  /** A single value (the first) of `name`, or `fallback` when absent. */
  double scalar(const std::string& name, double fallback) const {
    auto found = values_.find(name);
    return found == values_.end() || found->second.empty() ? fallback : found->second.front();
  }

 private:
  std::map<std::string, std::vector<double>> values_;
};

/**
 * A seed stored in a double: doubles represent every integer up to 2^53 exactly; beyond that the seed the
 * user wrote is not the one stored, and a non-integral or non-finite value has no integer meaning at all.
 */
inline std::uint64_t seedParameter(const std::string& owner, const std::string& name, double value) {
  if (!(std::fabs(value) <= 9007199254740992.0) || value != std::floor(value)) {
    fail("INVALID_PARAMETER", owner + ": " + name + " must be an integer with |" + name + "| ≤ 2^53, got " + std::to_string(value));
  }
  return static_cast<std::uint64_t>(static_cast<std::int64_t>(value));
}

}  // namespace hookmd
