// Launchers of the GPU neighbor build (docs/cuda.md): a stable radix sort of the atoms by (system, bin),
// the skin check, and a full Verlet list (every pair in both rows) stored column-major at a fixed row
// capacity. Declarations only: the kernels live in CudaNeighborList.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "cuda/neighbor/CudaBinGrid.cuh"

namespace hookmd::kernel {

/**
 * A slot's wrapped position, with its species type's bits in w. 32-byte aligned so a neighbor's position
 * and type arrive in one vectorised load.
 */
struct alignas(32) SlotPosition {
  double x;
  double y;
  double z;
  double w;
};

struct BinArgs {
  SystemArrays systems;
  const double* d_positions;
  const unsigned long long* d_binOffset;
  std::uint64_t totalBins;
  /** Per atom: the lattice translation that brings it into its cell (3 ints). */
  std::int32_t* d_wrap;
  std::uint32_t* d_keys;
  std::int32_t* d_atoms;
  /** Bin of each slot, then the atom in each slot (the sort's outputs). */
  std::uint32_t* d_slotKeys;
  std::int32_t* d_slotAtom;
  /** totalBins + 1 slot offsets. */
  std::int32_t* d_binStart;
  void* d_temp;
  std::size_t tempBytes;
};

struct PrepareArgs {
  SystemArrays systems;
  const double* d_positions;
  const double* d_cell;
  const std::uint8_t* d_pbc;
  const std::int32_t* d_wrap;
  const std::int32_t* d_slotAtom;
  /** Species type per atom, or null (one type). */
  const std::uint8_t* d_types;
  /** Wrapped positions by slot, the type's bits in w: what the search and the pair loop read. */
  SlotPosition* d_slotPositions;
  /** Wrapped positions at build time by slot. */
  SlotPosition* d_reference;
  /** True right after binning: write the reference. False: compare against it and flag stale systems. */
  bool build;
  /** (skin / 2)²: a larger displacement since the build makes the system stale. */
  double limitSq;
};

struct SearchArgs {
  SystemArrays systems;
  const SlotPosition* d_slotPositions;
  const std::uint32_t* d_slotKeys;
  const unsigned long long* d_binOffset;
  const std::int32_t* d_binStart;
  double rlistSq;
  /** Row capacity; entry k of slot p is d_neighbors[k · numAtoms + p]. */
  int capacity;
  std::uint32_t* d_neighbors;
  std::int32_t* d_neighborCount;
  /**
   * The neighbor-build family (platform/DarkKernels.h): a periodic direction whose reach is at most its bin count
   * wraps a stencil bin with one compare instead of an integer division (the same image and bin).
   */
  bool compareWrap;
};

/** Scratch bytes binAtoms needs (the radix sort of the atoms by bin). */
cudaError_t sortTempBytes(std::int64_t numAtoms, std::uint64_t totalBins, std::size_t* bytes);

/** Bins the atoms, sorts them by bin (stable: atom order within a bin) and lays out the bin offsets. */
cudaError_t binAtoms(const BinArgs& args);

/** Slot positions from the current positions; in check mode, flags moved atoms and changed cells. */
cudaError_t prepareSlots(const PrepareArgs& args);

/** Every slot's full row of neighbors within rlist; overlong rows raise status.maxNeighbors. */
cudaError_t searchNeighbors(const SearchArgs& args);

}  // namespace hookmd::kernel
