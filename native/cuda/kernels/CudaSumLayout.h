// What the device force kernels' fixed-order per-system sums (kernel::systemSums) need of a batch's layout,
// written once for the pair and many-body kernels: each atom's system, the runs of at most
// kernel::kSumSegmentSlots atoms one warp sums, and each system's first run; the sums' launch over them; and
// the zero results of a batch with no atoms. Host-compiler safe.
#pragma once

#include <cstdint>
#include <vector>

#include "cuda/neighbor/CudaBinGrid.cuh"
#include "cuda/core/DeviceBuffer.h"

namespace hookmd {

class CudaBackend;

/**
 * Uploads the tables of the layout `ptr` (numSystems + 1 offsets, `numSegments` runs in all) into
 * `systemOf`, `segments` and `segmentOffset`, each in its own copy (an empty one in none); failures name
 * `operation`.
 */
void uploadSumLayout(const std::vector<std::int32_t>& ptr, std::int64_t numSegments, DeviceBuffer& systemOf, DeviceBuffer& segments,
                     DeviceBuffer& segmentOffset, const char* operation);

/**
 * The per-segment and per-system sums (kernel::systemSums) of `slotSums` (the energy per slot, then with
 * `stress` its six virial components) over the tables uploadSumLayout wrote: the energies into `backend`'s
 * Energy field and, with `stress`, the virial into `virial` (9 per system) and the stress into its field.
 */
void sumSystemEnergies(CudaBackend& backend, const kernel::SystemArrays& systems, const DeviceBuffer& slotSums, bool stress,
                       const DeviceBuffer& segments, std::int64_t numSegments, const DeviceBuffer& segmentOffset,
                       DeviceBuffer& segmentSums, DeviceBuffer& virial, const char* operation);

/** Zeroes the energies of `systems` systems on `backend`'s device (and their stress with `stress`): the sums over no atoms. */
void zeroSystemResults(CudaBackend& backend, std::int64_t systems, bool stress, const char* operation);

}  // namespace hookmd
