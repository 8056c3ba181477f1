// `mirror`'s pair-force kernel: the CPU reference computes the numbers (bit for bit cpu's), while the
// schedule of the CUDA kernel (kernels/DevicePairSchedule.h) runs beside it on a model of the device lists,
// so the ledger counts what cuda would: the same uploads, checks, rebuild passes of every system, search
// retries and status reads.
#pragma once

#include <memory>

#include "core/Backend.h"
#include "kernels/PairForceKernel.h"

namespace hookmd {

/** The emulated device kernel for `spec` on `backend` (a mirror backend). */
std::unique_ptr<PairForceKernel> createMirrorPairForceKernel(Backend& backend, const PairForceSpec& spec);

}  // namespace hookmd
