// Launchers of the GPU many-body kernel (docs/cuda.md, "Many-body potentials on the GPU"): per-system
// images, wrapped positions, every centre's neighbours within the cutoff, the centre routines of
// native/cpp/math (TersoffEval.h, StillingerWeberEval.h) one thread per centre, and each atom's force
// gathered from the rows that name it, with no atomics. Declarations only: the kernels live in
// CudaManyBodyForces.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda/neighbor/CudaBinGrid.cuh"

namespace hookmd::kernel {

/** One system's periodic images: the completed cell, its inverse, and how many images each direction reaches. */
struct ManyBodySystem {
  double basis[9];
  double inverse[9];
  int images[3];
  std::uint8_t periodic[3];
  /** False when the system has no usable cell for its periodic directions (reported for wanted systems): no pairs. */
  std::uint8_t valid;
};

struct ManyBodyArgs {
  /** numSystems, numAtoms, ptr, the system of each atom, the wanted flags (or null) and the status block. */
  SystemArrays systems;
  const double* d_positions;
  const double* d_cell;
  const std::uint8_t* d_pbc;
  /** Species type per atom, or null (one type). */
  const std::uint8_t* d_types;
  ManyBodySystem* d_images;
  /** Positions wrapped into their cells (3 per atom). */
  double* d_wrapped;
  /** A ManyBodyStyle as int (kernels/ManyBodyForceKernel.h), the rows of its math header and their types. */
  int style;
  int numTypes;
  const void* d_rows;
  double cutoffSq;
  /**
   * Row capacity: centre i's neighbour m at i · capacity + m, in each of the row arrays below (the layout
   * math/ManyBodyNeighbors.h reads, one centre's neighbours contiguous).
   */
  int capacity;
  std::int32_t* d_count;
  /** Each neighbour's atom (batch index) and image index, which the force gather matches. */
  std::int32_t* d_atom;
  std::int32_t* d_image;
  int* d_type;
  /** dx, dy, dz, r, ux, uy, uz, one array of numAtoms · capacity after another. */
  double* d_geometry;
  /** The centre routine's per-neighbour scratch: 7 arrays of numAtoms · capacity, and flags. */
  double* d_scratch;
  unsigned char* d_flags;
  /** The force each centre puts on each of its neighbours: fx, fy, fz arrays of numAtoms · capacity. */
  double* d_entryForces;
  /** Per atom: its centre's energy and virial xx, yy, zz, xy, xz, yz (component c at c · numAtoms + i). */
  double* d_slotSums;
  bool virial;
  /** Forces[N×3], or null when forces are not asked for. */
  double* d_forces;
};

/** Images and wrapped positions of every wanted system, then every wanted centre's neighbours within the cutoff. */
cudaError_t searchCentres(const ManyBodyArgs& args);

/** Every wanted centre's energy and virial and the forces on its neighbours, then every wanted atom's force. */
cudaError_t manyBodyForces(const ManyBodyArgs& args);

}  // namespace hookmd::kernel
