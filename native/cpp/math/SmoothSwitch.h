// The XPLOR/CHARMM switching function S(r), applied to any pair energy between r_on and r_c so that both
// energy and force go continuously to zero at the cutoff (LAMMPS lj/charmm, HOOMD's xplor mode and ASE's
// LennardJones(smooth=True) use the same S):
//   S = 1                                              r ≤ r_on
//   S = (r_c² − r²)² (r_c² + 2r² − 3r_on²) / (r_c² − r_on²)³    r_on < r < r_c
#pragma once

#include "core/HostDevice.h"

namespace hookmd {

struct SwitchParams {
  double onSq;         // r_on²
  double cutoffSq;     // r_c²
  double inverseCube;  // 1 / (r_c² − r_on²)³
};

inline SwitchParams makeSwitchParams(double switchOn, double cutoff) {
  const double onSq = switchOn * switchOn;
  const double cutoffSq = cutoff * cutoff;
  const double width = cutoffSq - onSq;
  return SwitchParams{onSq, cutoffSq, 1.0 / (width * width * width)};
}

/**
 * Turns (energy, fOverR) of the bare pair term into those of S·E. With u = r²,
 * dS/du = −6(r_c² − u)(u − r_on²)/(r_c² − r_on²)³ and −d(S·E)/dr / r = S·fOverR − 2E·dS/du.
 */
HD void applySwitch(const SwitchParams& s, double r2, double& energy, double& fOverR) {
  if (r2 <= s.onSq) return;
  const double outer = s.cutoffSq - r2;
  const double inner = r2 - s.onSq;
  const double value = outer * outer * (s.cutoffSq + 2.0 * r2 - 3.0 * s.onSq) * s.inverseCube;
  const double slopeU = -6.0 * outer * inner * s.inverseCube;
  fOverR = value * fOverR - 2.0 * energy * slopeU;
  energy *= value;
}

}  // namespace hookmd
