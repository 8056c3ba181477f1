// Launchers of the per-system reductions (docs/ARCHITECTURE.md). Declarations only: the kernels live in
// CudaReductions.cu, and the host code sees nothing but argument structs and a returned status.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace hookmd::kernel {

/** The CSR layout every per-system kernel walks: system s owns atoms [d_ptr[s], d_ptr[s + 1]). */
struct SystemRanges {
  const std::int32_t* d_ptr;
  std::int64_t numSystems;
  std::int64_t numAtoms;
  /**
   * Error flag, set by the host to all ones (no error) before launch. A system whose range is not inside
   * [0, numAtoms] writes its index here (atomicMin: the first bad system wins) and NaN to its result.
   */
  unsigned long long* d_firstBadSystem;
};

struct ReduceFieldArgs {
  SystemRanges systems;
  /** numAtoms × components values of a per-atom float64 field. */
  const double* d_values;
  int components;
  /** A ReduceOp as int, numbered as in math/Reductions.h. */
  int op;
  /** numSystems results. */
  double* d_out;
};

struct KineticEnergyArgs {
  SystemRanges systems;
  const double* d_masses;
  const double* d_velocities;
  double forceToAccel;
  double* d_out;
};

/** d_out[s] = reduction of the field over system s (semantics of Backend::reduce). */
cudaError_t reduceField(const ReduceFieldArgs& args);

/** d_out[s] = Σ ½ m v² / forceToAccel over system s. */
cudaError_t kineticEnergy(const KineticEnergyArgs& args);

/**
 * cudaSuccess when these kernels have an image (SASS or PTX) the current device can run; otherwise the
 * error a launch would return, such as cudaErrorNoKernelImageForDevice on a GPU older than the build's
 * architecture list.
 */
cudaError_t checkKernelImage();

}  // namespace hookmd::kernel
