#include "dynamics/Lbfgs.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/Error.h"
#include "math/LbfgsUpdate.h"

namespace hookmd {

Lbfgs::Lbfgs(const Parameters& parameters, std::int64_t numSystems)
    : Optimizer("LBFGS", false, numSystems), histories_(static_cast<std::size_t>(numSystems)) {
  updateParameters(parameters, numSystems);
}

void Lbfgs::updateParameters(const Parameters& parameters, std::int64_t numSystems) {
  auto get = [&](const char* name) { return parameters.perSystem("LBFGS", name, numSystems); };
  const auto memory = get("memory"), maxStep = get("maxStep"), alpha = get("alpha"), damping = get("damping");
  std::vector<Settings> systems(static_cast<std::size_t>(numSystems));
  for (std::size_t s = 0; s < systems.size(); ++s) {
    if (!(memory[s] >= 1.0 && memory[s] <= 1e6) || memory[s] != std::floor(memory[s])) {
      fail("INVALID_PARAMETER", "LBFGS: memory must be an integer in [1, 1e6], got " + std::to_string(memory[s]));
    }
    systems[s] = Settings{static_cast<int>(memory[s]), maxStep[s], alpha[s], damping[s]};
  }
  // A changed memory only takes effect from a fresh history: the ring's size is fixed at a system's start.
  for (std::size_t s = 0; s < systems.size() && s < histories_.size() && s < systems_.size(); ++s) {
    if (systems[s].memory != systems_[s].memory) histories_[s] = History{};
  }
  systems_ = std::move(systems);
}

void Lbfgs::requireCount(std::int64_t numSystems) const {
  if (static_cast<std::int64_t>(histories_.size()) != numSystems) {
    fail("INVALID_STATE", "LBFGS: state covers " + std::to_string(histories_.size()) + " systems, the batch has " + std::to_string(numSystems));
  }
  if (static_cast<std::int64_t>(systems_.size()) != numSystems) {
    fail("INVALID_PARAMETER", "LBFGS: parameters cover " + std::to_string(systems_.size()) + " systems, the batch has " + std::to_string(numSystems));
  }
}

void Lbfgs::start(History& history, std::int64_t rows, int memory) const {
  const std::size_t size = static_cast<std::size_t>(3 * rows);
  history = History{};
  history.rows = rows;
  history.r0.assign(size, 0.0);
  history.f0.assign(size, 0.0);
  history.s.assign(size * memory, 0.0);
  history.y.assign(size * memory, 0.0);
  history.rho.assign(static_cast<std::size_t>(memory), 0.0);
}

// ASE's update(): s = x − r0, y = f0 − f, ρ = 1/(y·s); the oldest pair goes once `memory` are stored.
void Lbfgs::push(History& history, const double* x, const double* f, int memory) const {
  const std::int64_t size = 3 * history.rows;
  const int slot = history.stored < memory ? (history.head + history.stored) % memory : history.head;
  double* s = history.s.data() + slot * size;
  double* y = history.y.data() + slot * size;
  for (std::int64_t k = 0; k < size; ++k) {
    s[k] = x[k] - history.r0[k];
    y[k] = history.f0[k] - f[k];
  }
  history.rho[slot] = 1.0 / dotProduct(y, s, size);
  if (history.stored < memory) ++history.stored;
  else history.head = (history.head + 1) % memory;
}

void Lbfgs::stepSystem(std::int64_t s, const OptimizerRows& rows) {
  const Settings& settings = systems_[s];
  History& history = histories_[s];
  if (history.rows != rows.count) start(history, rows.count, settings.memory);
  const std::int64_t size = 3 * rows.count;
  if (history.iteration > 0) push(history, rows.x, rows.f, settings.memory);
  history.sPointers.resize(static_cast<std::size_t>(history.stored));
  history.yPointers.resize(static_cast<std::size_t>(history.stored));
  std::vector<double> rho(static_cast<std::size_t>(history.stored));
  for (int i = 0; i < history.stored; ++i) {
    const int slot = (history.head + i) % settings.memory;
    history.sPointers[i] = history.s.data() + slot * size;
    history.yPointers[i] = history.y.data() + slot * size;
    rho[i] = history.rho[slot];
  }
  history.step.resize(static_cast<std::size_t>(size));
  history.a.resize(static_cast<std::size_t>(history.stored));
  lbfgsStep(rows.f, size, history.sPointers.data(), history.yPointers.data(), rho.data(), history.stored, settings.alpha,
            history.a.data(), history.step.data());
  lbfgsCapStep(history.step.data(), rows.count, settings.maxStep, settings.damping);
  std::copy(rows.x, rows.x + size, history.r0.begin());
  std::copy(rows.f, rows.f + size, history.f0.begin());
  for (std::int64_t k = 0; k < size; ++k) rows.x[k] += history.step[k];
  ++history.iteration;
}

std::vector<double> Lbfgs::ownState() const {
  std::vector<double> out{static_cast<double>(histories_.size())};
  for (std::size_t s = 0; s < histories_.size(); ++s) {
    const History& h = histories_[s];
    out.insert(out.end(), {static_cast<double>(h.rows), static_cast<double>(h.iteration), static_cast<double>(h.stored)});
    if (h.rows == 0) continue;
    out.insert(out.end(), h.r0.begin(), h.r0.end());
    out.insert(out.end(), h.f0.begin(), h.f0.end());
    const std::size_t size = static_cast<std::size_t>(3 * h.rows);
    const int memory = static_cast<int>(h.rho.size());
    for (int i = 0; i < h.stored; ++i) {
      const int slot = (h.head + i) % memory;
      out.push_back(h.rho[slot]);
      out.insert(out.end(), h.s.begin() + slot * size, h.s.begin() + (slot + 1) * size);
      out.insert(out.end(), h.y.begin() + slot * size, h.y.begin() + (slot + 1) * size);
    }
  }
  return out;
}

void Lbfgs::loadOwnState(const std::vector<double>& state) {
  const auto bad = [] { fail("INVALID_STATE", "LBFGS: the saved state is malformed or from another batch"); };
  std::size_t at = 0;
  const auto next = [&]() -> double {
    if (at >= state.size()) bad();
    return state[at++];
  };
  const double count = next();
  if (count != static_cast<double>(systems_.size())) bad();
  std::vector<History> histories(systems_.size());
  for (std::size_t s = 0; s < histories.size(); ++s) {
    const double rows = next(), iteration = next(), stored = next();
    const int memory = systems_[s].memory;
    if (!(rows >= 0 && rows < 1e9) || !(iteration >= 0) || !(stored >= 0 && stored <= memory)) bad();
    History& h = histories[s];
    if (rows == 0) continue;
    start(h, static_cast<std::int64_t>(rows), memory);
    h.iteration = static_cast<std::int64_t>(iteration);
    const std::size_t size = static_cast<std::size_t>(3 * h.rows);
    if (at + 2 * size + static_cast<std::size_t>(stored) * (1 + 2 * size) > state.size()) bad();
    std::copy(state.begin() + at, state.begin() + at + size, h.r0.begin());
    at += size;
    std::copy(state.begin() + at, state.begin() + at + size, h.f0.begin());
    at += size;
    h.stored = static_cast<int>(stored);
    for (int i = 0; i < h.stored; ++i) {
      h.rho[i] = state[at++];
      std::copy(state.begin() + at, state.begin() + at + size, h.s.begin() + i * size);
      at += size;
      std::copy(state.begin() + at, state.begin() + at + size, h.y.begin() + i * size);
      at += size;
    }
  }
  if (at != state.size()) bad();
  histories_ = std::move(histories);
}

void Lbfgs::remapOwn(const std::vector<std::int64_t>& keep, std::int64_t added) {
  std::vector<History> histories;
  histories.reserve(keep.size() + static_cast<std::size_t>(added));
  for (std::int64_t k : keep) {
    if (k < 0 || k >= static_cast<std::int64_t>(histories_.size())) fail("INVALID_ARGUMENT", "LBFGS: remap index out of range");
    histories.push_back(std::move(histories_[k]));
  }
  histories.resize(keep.size() + static_cast<std::size_t>(added));
  histories_ = std::move(histories);
}

}  // namespace hookmd
