// One step of FIRE 2.0 (Guénolé et al., Comput. Mater. Sci. 175, 109584 (2020), Algorithm 2) per system:
// semi-implicit Euler, inertia correction, delayed start (no dt decrease or α reset during the first nDelay
// steps), dt decreased only while it stays ≥ dtMin, no ABC correction and no stop after repeated P ≤ 0.
// Unit-free like FIRE: unit masses, v += dt·F. The whole-system cap |dr| ≤ maxStep is FIRE's, and a capped
// step also scales v (fire2MatchVelocity).
#pragma once

#include "core/HostDevice.h"
#include "math/FireUpdate.h"

namespace hookmd {

struct Fire2Parameters {
  double dt, dtMax, dtMin, maxStep, nDelay, fInc, fDec, alphaStart, fAlpha;
};

/** Per-system state: current dt, α, P>0 streak, steps taken (0: the system has not started). */
struct Fire2State {
  double dt, alpha, nPositive, steps;
};

/** What happens to the velocities before the kick. */
enum class Fire2Reset : int { Keep = 0, Zero, StepBackAndZero };

/**
 * Advances dt, α, the P>0 streak and the step count from P = F·v. The first step starts from the
 * parameters with zero velocities. P ≤ 0 asks for the inertia correction x ← x − ½·dt·v with the updated
 * dt, then v = 0.
 */
HD Fire2Reset fire2Advance(Fire2State& state, const Fire2Parameters& p, double power) {
  if (state.steps == 0.0) {
    state = Fire2State{p.dt, p.alphaStart, 0.0, 1.0};
    return Fire2Reset::Zero;
  }
  state.steps += 1.0;
  if (power > 0.0) {
    state.nPositive += 1.0;
    if (state.nPositive > p.nDelay) {
      state.dt = fmin(state.dt * p.fInc, p.dtMax);
      state.alpha *= p.fAlpha;
    }
    return Fire2Reset::Keep;
  }
  state.nPositive = 0.0;
  if (state.steps >= p.nDelay) {
    if (state.dt * p.fDec >= p.dtMin) state.dt *= p.fDec;
    state.alpha = p.alphaStart;
  }
  return Fire2Reset::StepBackAndZero;
}

/** One atom before the mixing: apply the reset, then v += dt·F. */
HD void fire2Kick(double* position, double* velocity, const double* force, Fire2Reset reset, double dt) {
  if (reset == Fire2Reset::StepBackAndZero) {
    for (int c = 0; c < 3; ++c) position[c] -= 0.5 * dt * velocity[c];
  }
  if (reset != Fire2Reset::Keep) {
    for (int c = 0; c < 3; ++c) velocity[c] = 0.0;
  }
  for (int c = 0; c < 3; ++c) velocity[c] += dt * force[c];
}

/**
 * After the capped displacement: when the cap shrank the step, v shrinks with it, so v stays the velocity
 * of the move actually made and a later inertia correction undoes half of that move instead of half of a
 * larger move that never happened (which can throw atoms far apart while forces are large).
 */
HD void fire2MatchVelocity(double* velocity, double stepNorm, double maxStep) {
  if (stepNorm > maxStep) {
    for (int c = 0; c < 3; ++c) velocity[c] *= maxStep / stepNorm;
  }
}

}  // namespace hookmd
