// `mirror`'s many-body kernel (the many-body-forces family, platform/DarkKernels.h): the CPU reference computes
// the numbers on the "device" arrays (bit for bit cpu's), while the schedule of the CUDA kernel
// (kernels/DeviceManyBodySchedule.h) runs beside it with the rows the device would have needed, so the
// ledger counts what cuda would: the same uploads, evaluations, retries with longer rows and status reads.
#pragma once

#include <memory>

#include "core/Backend.h"
#include "kernels/ManyBodyForceKernel.h"

namespace hookmd {

/** The emulated device kernel for `spec` on `backend` (a mirror backend). */
std::unique_ptr<ManyBodyForceKernel> createMirrorManyBodyForceKernel(Backend& backend, const ManyBodyForceSpec& spec);

}  // namespace hookmd
