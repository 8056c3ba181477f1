// Launchers of the per-system bin grids of the GPU neighbor build (docs/cuda.md), with the geometry rules
// of neighbor/BinGrid.cpp, and the status block every build kernel reports to. Declarations only: the
// kernels live in CudaBinGrid.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace hookmd::kernel {

/** Build errors, in the order the CPU build raises them for one system. */
enum NeighborError : unsigned { kNonFinitePosition = 0, kSingularCell, kCellTooNarrow, kSystemTooLarge, kFarPosition };

/** "No error" value of NeighborStatus::firstError, which atomicMin can only lower. */
constexpr unsigned long long kNoError = ~0ull;

/** What the build and check kernels report back; the host resets and reads it as one block. */
struct NeighborStatus {
  /** min over failures of (system << 3) | NeighborError: the first failing system and its first error. */
  unsigned long long firstError;
  /** Bins over every system (copied from the scan of the bin counts). */
  unsigned long long totalBins;
  /** Full-list entries written by the last search (each unordered pair twice). */
  unsigned long long entries;
  /** Longest row the last search wanted; a row longer than the capacity means: grow and search again. */
  unsigned int maxNeighbors;
  /** Set by the checks when a wanted system's list is stale. */
  unsigned int rebuild;
  /** min over wanted systems whose energy came out non-finite (~0 for none), for the overlap diagnosis. */
  unsigned long long firstNonFinite;
};

/**
 * One system's bin grid and the state its list was built in. Rows of `basis` are the lattice vectors of
 * periodic directions and unit normals for the others, as in BinGrid.
 */
struct SystemGrid {
  double basis[9];
  double inverse[9];
  /** Cell and pbc at build time: any change makes the system stale. */
  double cell[9];
  double lower[3];
  double binWidth[3];
  double binFraction[3];
  int bins[3];
  int reach[3];
  int images[3];
  std::int32_t atomBegin;
  std::int32_t atomCount;
  /** Bits of the image index in a list entry: (local slot << imageBits) | image. */
  int imageBits;
  std::uint8_t pbc[3];
  std::uint8_t periodic[3];
  std::uint8_t orthogonal;
  /** False when the grid could not be built (an error, reported for wanted systems): no pairs. */
  std::uint8_t valid;
};

/** The per-system arrays of one batch. */
struct SystemArrays {
  std::int64_t numSystems;
  std::int64_t numAtoms;
  const std::int32_t* d_ptr;
  /** System of each atom (and of each slot: a system's slots are its own atom range). */
  const std::int32_t* d_systemOf;
  /** One flag per system, or null: only flagged systems report errors and ask for rebuilds. */
  const std::uint8_t* d_wanted;
  SystemGrid* d_grids;
  /** 1 where a system's list no longer matches its atoms, cell or pbc. */
  std::uint8_t* d_stale;
  NeighborStatus* d_status;
  /**
   * A resident chunk's rebuild (cuda/kernels/CudaResidentChunk.h): binning, slot positions and search touch only
   * stale systems; the others keep their bin keys (so the stable sort keeps their slot order), references
   * and rows.
   */
  bool staleOnly = false;
};

struct GridArgs {
  SystemArrays systems;
  const double* d_positions;
  const double* d_cell;
  const std::uint8_t* d_pbc;
  double rlist;
  /** 6 per system: order-preserving encodings of the min and max projection on each non-periodic row. */
  unsigned long long* d_extents;
  /** Bins of each system (numSystems). */
  unsigned long long* d_binCount;
  /** numSystems + 1 exclusive offsets of each system's first bin, written by the scan. */
  unsigned long long* d_binOffset;
  void* d_temp;
  std::size_t tempBytes;
};

/** Scratch bytes setupGrids needs (the scan of the bin counts). */
cudaError_t scanTempBytes(std::int64_t numSystems, std::size_t* bytes);

/** Grids of every system, their bin counts and offsets; status.totalBins gets the sum. */
cudaError_t setupGrids(const GridArgs& args);

}  // namespace hookmd::kernel
