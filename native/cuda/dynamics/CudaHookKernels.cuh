// Launchers of the native built-in hooks on the device (dynamics/hooks): freeze atoms, max-force clamp,
// periodic wrap and the NaN detector, one thread per atom (per frozen atom for the freeze). Declarations
// only; the kernels live in CudaHookKernels.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace hookmd::kernel {

/** The atoms a hook visits: those of systems whose flag in d_active is set (every atom when it is null). */
struct HookAtoms {
  std::int64_t numAtoms;
  const std::int32_t* d_systemIndex;
  const std::uint8_t* d_active;
};

struct FreezeArgs {
  std::int64_t count;
  /** The frozen atoms' indices. */
  const std::int64_t* d_frozen;
  /** count × 3 positions the frozen atoms are held at. */
  double* d_anchor;
  double* d_positions;
  double* d_velocities;
  /** Null when the forces are left alone (every stage but AFTER_COMPUTE). */
  double* d_forces;
};

struct ForceClampArgs {
  HookAtoms atoms;
  double* d_forces;
  double maxForce;
};

struct WrapArgs {
  HookAtoms atoms;
  double* d_positions;
  const double* d_cells;
  const std::uint8_t* d_pbc;
};

struct NonFiniteArgs {
  HookAtoms atoms;
  std::int64_t numSystems;
  const double* d_positions;
  const double* d_velocities;
  const double* d_forces;
  const double* d_energy;
  /** Zeroed by the host; set to 1 for each system with a non-finite value. */
  std::uint8_t* d_bad;
  /** Zeroed by the host; set to 1 when any system is bad, so the host reads one word in the common case. */
  unsigned int* d_anyBad;
};

/** d_anchor ← the frozen atoms' positions. */
cudaError_t anchorFrozen(const FreezeArgs& args);
/** Frozen atoms back to their anchor, with zero velocity (and force). */
cudaError_t freezeAtoms(const FreezeArgs& args);
/** Scales every visited atom's force down to norm maxForce where it is larger, keeping its direction. */
cudaError_t clampForces(const ForceClampArgs& args);
/** Wraps visited atoms into their cell along periodic directions (fractional coordinates in [0, 1)). */
cudaError_t wrapPositions(const WrapArgs& args);
/** Flags visited systems with a non-finite position, velocity, force or energy. */
cudaError_t findNonFinite(const NonFiniteArgs& args);

}  // namespace hookmd::kernel
