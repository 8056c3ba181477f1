// The half neighbor list of one system, built from a BinGrid. Each unordered pair (i, j, lattice image) is
// stored once, by the atom that comes first in bin order, so forces use Newton's third law. Pairs are
// compact: one uint32 per pair packs j (a local atom index) above a few bits of image index into the
// system's table of shift vectors; no doubles are stored per pair. Lists are split into chunks of about
// kChunkAtoms owners along the bins, so big systems build and evaluate in parallel; the layout does not
// depend on the thread count.
#pragma once

#include <cstdint>
#include <vector>

namespace hookmd {

struct NeighborChunk {
  /** Owner slots [ownerBegin, ownerEnd) of SystemNeighborList::owners. */
  std::int32_t ownerBegin = 0;
  std::int32_t ownerEnd = 0;
  /** ownerEnd − ownerBegin + 1 offsets into `entries`. */
  std::vector<std::uint32_t> start;
  /** (j << imageBits) | image, j a local atom index. */
  std::vector<std::uint32_t> entries;
  /**
   * The atoms the chunk writes to (its owners and their neighbors), as a set of the list's atom blocks: bit
   * b stands for atoms [b << atomBlockShift, (b + 1) << atomBlockShift). One interval would not do: the last
   * chunks of a periodic system reach the first atoms through the boundary, and an interval then spans the
   * whole system.
   */
  std::uint64_t atomBlocks = 0;
};

/**
 * Scratch memory of one build (each atom's bin, the CSR offsets of each bin's slots, and the counting sort's
 * next slot per block of atoms and bin), reused between builds.
 */
struct NeighborScratch {
  std::vector<std::int32_t> binOf;
  std::vector<std::int32_t> binStart;
  std::vector<std::int32_t> blockNext;
};

struct SystemNeighborList {
  bool valid = false;
  /**
   * Which build this is, unique over every list of the process (0: never built), so a kernel that derives
   * tables from the pairs knows when to redo them.
   */
  std::uint64_t generation = 0;
  std::int32_t atomBegin = 0;
  std::int32_t atomCount = 0;
  /**
   * Cell and pbc at build time. A change of pbc means a rebuild; a fully periodic cell may deform (NPT, a
   * cell filter) and the list follows it while the skin allows (NeighborCache).
   */
  double cell[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  std::uint8_t pbc[3] = {0, 0, 0};
  /** Rows used for lattice translations (the cell's rows in periodic directions), for the current cell. */
  double basis[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  /** basis and shifts as built; the current ones are these carried by the cell's deformation since. */
  double buildBasis[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  std::vector<double> buildShifts;
  int imageBits = 0;
  std::uint32_t imageMask = 0;
  /** Shift vector of each image index, 3 doubles each. */
  std::vector<double> shifts;
  /** Local atom index of each owner slot (atoms in bin order). */
  std::vector<std::int32_t> owners;
  /**
   * Wrapped positions at build time in slot order, one block per coordinate (all x, then all y, then all
   * z: a run of slots loads straight into vector lanes): the build searches them (contiguous per bin) and
   * the skin check measures displacements against them, so one array serves both.
   */
  std::vector<double> positions;
  std::vector<NeighborChunk> chunks;
  /**
   * Per atom, the lattice translation (3 ints) that put it inside the cell at build time; empty when every
   * atom already was. Pair shifts are relative to those wrapped positions.
   */
  std::vector<std::int32_t> wrap;
  std::int64_t pairs = 0;
  /** Atoms per bit of NeighborChunk::atomBlocks, as a shift: at most 64 blocks cover the atoms. */
  int atomBlockShift = 0;

  std::size_t bytes() const;
};

/**
 * Unpacks a list's entries in a pair loop: the neighbor's index and the vector to its image. A copy of what
 * it needs, so a loop holds it in registers even where it stores through pointers the compiler cannot tell
 * apart from the list.
 */
struct EntryDecoder {
  const double* shifts;
  int bits;
  std::uint32_t mask;

  explicit EntryDecoder(const SystemNeighborList& list)
      : shifts(list.shifts.data()), bits(list.imageBits), mask(list.imageMask) {}

  std::int32_t neighbor(std::uint32_t entry) const { return static_cast<std::int32_t>(entry >> bits); }

  /** d = x_j + shift − x_i for entry's neighbor j (x: 3 per atom, local), xi the owner's position. */
  void offset(std::uint32_t entry, const double* x, const double* xi, double* d) const {
    const std::int32_t j = neighbor(entry);
    const double* shift = shifts + 3 * (entry & mask);
    d[0] = x[3 * j] + shift[0] - xi[0];
    d[1] = x[3 * j + 1] + shift[1] - xi[1];
    d[2] = x[3 * j + 2] + shift[2] - xi[2];
  }
};

/** Owner slots per chunk. Fixed, so results never depend on how many threads build or evaluate. */
constexpr std::int32_t kChunkAtoms = 1024;

/**
 * Rebuilds `list` for `count` atoms at `positions` (local, 3 per atom): every pair closer than `rlist`,
 * with the periodic images that `cell` (rows) and `pbc` imply; each owner's pairs closer than `cutoff`
 * (0: rlist) come before the others. Small systems take the single-bin O(n²) search, when count × (lattice
 * images it needs) ≤ kSingleBinCandidates. Runs its chunks on the global thread pool (inline when called
 * from inside a parallel region).
 */
void buildNeighborList(SystemNeighborList& list, const double* positions, std::int32_t count, const double* cell,
                       const std::uint8_t* pbc, double rlist, NeighborScratch& scratch, double cutoff = 0.0);

/**
 * Crossover of the single-bin search, in atoms × images: measured on random clusters and periodic cubes at
 * ρ = 0.8442 σ⁻³, rlist = 2.8σ, where the binned build overtakes it near 256 cluster atoms (bench/RESULTS.md).
 */
constexpr std::int64_t kSingleBinCandidates = 256;

/** out = positions + wrap·basis for the atoms of a list built with wrapped atoms (3 per atom, local). */
void wrappedPositions(const SystemNeighborList& list, const double* positions, double* out);

/**
 * Whether any atom at `positions` (local) moved farther than `limit` from where the list was built (build
 * cell). With `wrappedOut` (3 per atom, for a list with wraps): when no atom did, it also holds what
 * wrappedPositions would write while the basis is the build basis, since the check computes those anyway.
 */
bool movedBeyond(const SystemNeighborList& list, const double* positions, double limit, double* wrappedOut = nullptr);

/**
 * The same for a cell deformed since the build, x_now = x_build·T: whether any atom moved farther than `limit`
 * from its build position carried along by T, with its wrap taken in the current `basis`.
 */
bool movedBeyondDeformed(const SystemNeighborList& list, const double* positions, const double* deformation,
                         const double* basis, double limit);

/** Points the list's lattice translations at `basis`, the build basis deformed by T (basis = buildBasis·T). */
void followDeformation(SystemNeighborList& list, const double* deformation, const double* basis);

}  // namespace hookmd
