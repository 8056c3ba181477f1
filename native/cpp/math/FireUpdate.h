// One step of FIRE (Bitzek et al., PRL 97, 170201 (2006)) exactly as ase.optimize.FIRE (ASE 3.22, without
// the downhill check) takes it, per system, plus nvalchemi's floor dt ≥ dtMin. Like ASE it is unit-free:
// masses are ignored, v += dt·F and dr = dt·v, so velocities carry force·time units.
#pragma once

#include <cmath>

#include "core/HostDevice.h"

namespace hookmd {

struct FireParameters {
  double dt, dtMax, dtMin, maxStep, nMin, fInc, fDec, alphaStart, fAlpha;
};

/** Per-system state, all doubles so it serializes as one row: current dt, α, P>0 streak, first-step flag. */
struct FireState {
  double dt, alpha, nSteps, first;
};

/** Σ F·v, Σ F·F and Σ v·v over one system's atoms. */
struct FirePower {
  double vf = 0.0;
  double ff = 0.0;
  double vv = 0.0;
};

HD void accumulatePower(FirePower& power, const double* velocity, const double* force) {
  for (int c = 0; c < 3; ++c) {
    power.vf += force[c] * velocity[c];
    power.ff += force[c] * force[c];
    power.vv += velocity[c] * velocity[c];
  }
}

/** What the step does to the velocities before the kick: zero them, or mix them towards F̂ with α. */
struct FireMixing {
  bool zero;
  double alpha;
  double forceNorm;
  double speedNorm;
};

/**
 * Advances dt, α and the P>0 streak from the system's power and says how to treat its velocities. On the
 * first step the state starts from the parameters and the velocities are zeroed (ASE: self.v is None).
 * The mixing branch needs F·v > 0, which implies |F| > 0, so the mixing never divides by zero.
 */
HD FireMixing fireAdvance(FireState& state, const FireParameters& p, const FirePower& power) {
  FireMixing mixing{true, 0.0, 0.0, 0.0};
  if (state.first != 0.0) {
    state = FireState{p.dt, p.alphaStart, 0.0, 0.0};
    return mixing;
  }
  if (power.vf > 0.0) {
    mixing = FireMixing{false, state.alpha, sqrt(power.ff), sqrt(power.vv)};
    if (state.nSteps > p.nMin) {
      state.dt = fmin(state.dt * p.fInc, p.dtMax);
      state.alpha *= p.fAlpha;
    }
    state.nSteps += 1.0;
  } else {
    state.alpha = p.alphaStart;
    state.dt = fmax(state.dt * p.fDec, p.dtMin);
    state.nSteps = 0.0;
  }
  return mixing;
}

/** v ← (1−α)·v + α·F/|F|·|v|, in ASE's order of operations. */
HD void mixVelocity(double* velocity, const double* force, double alpha, double forceNorm, double speedNorm) {
  for (int c = 0; c < 3; ++c) velocity[c] = (1.0 - alpha) * velocity[c] + alpha * force[c] / forceNorm * speedNorm;
}

/** One atom: zero or mix its velocity, then v += dt·F. */
HD void fireKick(double* velocity, const double* force, const FireMixing& mixing, double dt) {
  if (mixing.zero) {
    for (int c = 0; c < 3; ++c) velocity[c] = 0.0;
  } else {
    mixVelocity(velocity, force, mixing.alpha, mixing.forceNorm, mixing.speedNorm);
  }
  for (int c = 0; c < 3; ++c) velocity[c] += dt * force[c];
}

}  // namespace hookmd
