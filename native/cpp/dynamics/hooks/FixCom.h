// Holds each system's centre of mass where it starts, as ASE's FixCom does: after every compute the forces
// lose λ·m_i with λ = Σ m_j F_j / Σ m_j² (ASE's adjust_forces: a step along the forces then leaves the
// centre of mass in place), and after every update the velocities lose the centre-of-mass velocity and
// the positions are shifted back to the first centre of mass (adjust_momenta, adjust_positions). The
// degrees of freedom are 3N − 3, which every temperature counts already (math/DegreesOfFreedom.h).
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

 private:
  /** Per system: whether its centre is taken, and the centre (3). */
  std::vector<std::uint8_t> anchored_;
  std::vector<double> centre_;
};

}  // namespace hookmd
