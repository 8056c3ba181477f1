// Launcher of the device side of a refill (core/RefillPlan.h): the rows of every kept system of one field are
// copied from the old device array to the new one, on the device. Declarations only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace hookmd::kernel {

struct RowGatherArgs {
  /** The plan, per new system (RefillPlan's vectors on the device). */
  const std::int64_t* d_sourceSystem;
  const std::int64_t* d_sourceAtom;
  const std::int64_t* d_targetAtom;
  const std::int32_t* d_atomCount;
  std::int64_t numSystems;
  const unsigned char* d_from;
  unsigned char* d_to;
  /** Bytes of one row: components × element size. */
  std::size_t rowBytes;
  /** Per-atom field (rows follow the atoms) or per-system field (one row per system). */
  bool perAtom;
};

/** Copies the kept rows; appended systems' rows are left as they are. */
cudaError_t gatherRows(const RowGatherArgs& args);

}  // namespace hookmd::kernel
