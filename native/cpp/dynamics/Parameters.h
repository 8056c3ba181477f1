// Per-system engine parameters by name. The TS layer expands scalars to one value per system and fills
// every default, so native code only checks presence and length.
#pragma once

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

}  // namespace hookmd
