// Holds each system's centre of mass where it starts, as ASE's FixCom does: after every compute the forces
// lose λ·m_i with λ = Σ m_j F_j / Σ m_j² (ASE's adjust_forces: a step along the forces then leaves the
// centre of mass in place), and after every update the velocities lose the centre-of-mass velocity and
// the positions are shifted back to the first centre of mass (adjust_momenta, adjust_positions). Beside
// frozen atoms the sums run over the mobile atoms only: the frozen ones never move, so holding the mobile
// centre holds the whole one, and a correction given to a frozen atom would be undone by its freeze. The
// degrees of freedom are 3N − 3, or 3·N_mobile − 3 beside frozen atoms (Stepper counts them).
#pragma once

#include <cstdint>
#include <vector>

#include "dynamics/NativeHook.h"

namespace hookmd {

class FixCom final : public NativeHook {
 public:
  explicit FixCom(HookSchedule schedule) : NativeHook(schedule) {}
  const char* name() const noexcept override { return "FixCom"; }
  /** Kept systems keep their centre; refilled ones take theirs at the next call. */
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added) override;
  void apply(Backend& backend, DynamicsStage stage, std::int64_t step, const std::uint8_t* active) override;
  bool holdsCentre() const noexcept override { return true; }
  void useFrozen(const std::vector<std::uint8_t>* frozen) override { frozen_ = frozen == nullptr ? std::vector<std::uint8_t>{} : *frozen; }

 private:
  bool mobile(std::int32_t i) const { return frozen_.empty() || frozen_[static_cast<std::size_t>(i)] == 0; }

  /** Per system: whether its centre is taken, and the centre (3). */
  std::vector<std::uint8_t> anchored_;
  std::vector<double> centre_;
  /** The stepper's frozen atoms (empty: none), left out of every sum and correction. */
  std::vector<std::uint8_t> frozen_;
};

}  // namespace hookmd
