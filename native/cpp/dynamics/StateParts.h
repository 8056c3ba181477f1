// Integrator state made of several parts (an optimizer's per-system rows and its per-atom velocities), kept
// in one flat vector of doubles for state()/loadState() as
//
//   [length of part 0, part 0, length of part 1, part 1, ...]
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace hookmd {

/** Joins `parts` into one state vector. */
std::vector<double> joinState(const std::vector<std::vector<double>>& parts);

/** Splits a joinState() of exactly `count` parts; throws INVALID_STATE naming `owner` otherwise. */
std::vector<std::vector<double>> splitState(const std::vector<double>& state, std::size_t count, const std::string& owner);

}  // namespace hookmd
