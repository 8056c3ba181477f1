// MaxForceClampHook's per-atom rule, shared by the CPU hook and the CUDA kernel: a force longer than the
// limit is scaled down to it along its own direction; shorter ones are left bit for bit.
#pragma once

#include <cmath>

#include "core/HostDevice.h"
#include "math/Reductions.h"

namespace hookmd {

/** Clamps |f| to at most `maxForce` (force units); returns whether it changed f. */
HD bool clampForce(double* f, double maxForce) {
  const double norm = sqrt(squaredNorm3(f));
  if (!(norm > maxForce)) return false;
  const double scale = maxForce / norm;
  for (int c = 0; c < 3; ++c) f[c] *= scale;
  return true;
}

}  // namespace hookmd
