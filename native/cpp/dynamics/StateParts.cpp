#include "dynamics/StateParts.h"

#include "core/Error.h"

namespace hookmd {

std::vector<double> joinState(const std::vector<std::vector<double>>& parts) {
  std::vector<double> state;
  for (const std::vector<double>& part : parts) {
    state.push_back(static_cast<double>(part.size()));
    state.insert(state.end(), part.begin(), part.end());
  }
  return state;
}

std::vector<std::vector<double>> splitState(const std::vector<double>& state, std::size_t count, const std::string& owner) {
  std::vector<std::vector<double>> parts;
  std::size_t at = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const double length = at < state.size() ? state[at] : -1.0;
    if (!(length >= 0.0) || length > static_cast<double>(state.size() - at - 1) ||
        length != static_cast<double>(static_cast<std::size_t>(length))) {
      fail("INVALID_STATE", owner + ": the saved state is malformed (expected " + std::to_string(count) + " parts, each its length then its values)");
    }
    const std::size_t size = static_cast<std::size_t>(length);
    parts.emplace_back(state.begin() + static_cast<std::ptrdiff_t>(at + 1), state.begin() + static_cast<std::ptrdiff_t>(at + 1 + size));
    at += 1 + size;
  }
  if (at != state.size()) fail("INVALID_STATE", owner + ": the saved state has " + std::to_string(state.size() - at) + " values too many");
  return parts;
}

}  // namespace hookmd
