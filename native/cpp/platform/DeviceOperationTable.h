// The table of device operations, one line each, that the platform's enums and checks expand (docs/ARCHITECTURE.md,
// "A device kernel for an existing operation"): the kernel families with their verification on a GPU, and
// the operations the device backends run on their device arrays. What each operation costs is
// HOOKMD_DEVICE_COSTS (core/DeviceCosts.h), which stays on the ground floor because storage charges its own
// copies; which backend brings a kernel for an operation is HOOKMD_KERNEL_OPERATIONS (platform/KernelFactory.h).
// Macros only, so that any platform header can include it without a cycle.
#pragma once

/** Where and when the first families passed the parity suite on a GPU. */
#define HOOKMD_VERIFIED_20261126 "NVIDIA H200, 2026-11-26, commit 7f9f22f (bash scripts/gpu-check.sh backends suite sanitize bench)"

/**
 * The device kernel families: X(family, name as backendInfo() and HOOKMD_CUDA_DISABLE spell it, where and
 * when the parity suite passed on a GPU (docs/cuda.md, "Verified on a GPU"; empty while dark), whether an
 * older path runs without it, so that HOOKMD_CUDA_DISABLE may name it).
 */
#define HOOKMD_DEVICE_KERNEL_FAMILIES(X)                                                                             \
  X(Reductions, "reductions", HOOKMD_VERIFIED_20261126, false)                                                        \
  X(PairForces, "pair-forces", HOOKMD_VERIFIED_20261126, false)                                                       \
  X(Integrators, "integrators", "NVIDIA H200, 2026-11-27, commit 1425145 (bash scripts/gpu-check.sh verify backends)", \
    false)                                                                                                           \
  X(NativeHooks, "native-hooks", HOOKMD_VERIFIED_20261126, false)                                                     \
  X(PairLoss, "pair-loss", HOOKMD_VERIFIED_20261126, false)                                                           \
  X(SmallSystems, "small-systems", "NVIDIA H200, 2026-11-27, commit 1425145 (bash scripts/gpu-check.sh verify)", true) \
  X(DeviceStep, "device-step", "NVIDIA H200, 2026-11-27, commit f79aa5f (bash scripts/gpu-check.sh verify)", true)     \
  X(NeighborBuild, "neighbor-build", "NVIDIA H200, 2026-11-27, commit f79aa5f (bash scripts/gpu-check.sh verify)",     \
    true)                                                                                                            \
  X(ResidentStep, "resident-step", "NVIDIA H200, 2026-11-27, commit b01644d (bash scripts/gpu-check.sh verify)", true) \
  X(ResidentRegrow, "resident-regrow", "", true)                                                                      \
  X(ManyBodyForces, "many-body-forces", "", true)

/**
 * The operations a backend may run on its device (OpenMM's kernel names): X(kernel, whether the device
 * backends run it on their device arrays, an expression read at each use). ManyBodyForces is the row styles'
 * many-body kernel (Tersoff, Stillinger–Weber), on the device while its dark family is enabled; SnapForces is
 * SNAP's and ML-IAP's, which run the same CPU kernel over their own centre routine but have no device kernel.
 */
#define HOOKMD_DEVICE_KERNELS(X)                                                      \
  X(Reductions, true)                                                                 \
  X(PairForces, true)                                                                 \
  X(Integrator, true)                                                                 \
  X(NativeHooks, true)                                                                \
  X(PairLoss, false)                                                                  \
  X(EamForces, false)                                                                 \
  X(SmallSystems, true)                                                               \
  X(ManyBodyForces, deviceKernelEnabled(DeviceKernelFamily::ManyBodyForces))          \
  X(SnapForces, false)
