// A System is a plain object, ASE's Atoms in JSON form.

/** Per-atom vectors as rows ([[x, y, z], ...]) or flat ([x0, y0, z0, x1, ...]). */
export type Vectors = ArrayLike<ArrayLike<number>> | ArrayLike<number>;

/**
 * One structure. Lengths are in the batch's units (Å for metal).
 *
 * @example
 * const dimer: System = { symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, 3.8]] };
 */
export interface System {
  /** N×3 positions. */
  positions: Vectors;
  /** Chemical symbols; give these or `atomicNumbers`. */
  symbols?: ArrayLike<string>;
  /** Atomic numbers; give these or `symbols`. */
  atomicNumbers?: ArrayLike<number>;
  /** Masses (amu in metal); defaults to the element table (metal) or 1 (lj). */
  masses?: ArrayLike<number>;
  /** N×3 velocities (Å/fs in metal); default zero. */
  velocities?: Vectors;
  /** Lattice vectors as rows (3×3 or flat 9), or three lengths of an orthorhombic cell. Default zero. */
  cell?: Vectors;
  /** Periodicity per direction; `true`/`false` apply to all three. Default false. */
  pbc?: boolean | ArrayLike<boolean | number>;
  /** Free-form key/value data carried through the pipeline (systemId, converged, steps, ...). */
  info?: Record<string, unknown>;
  /** Potential energy (eV in metal), once computed. */
  energy?: number;
  /** N×3 forces (eV/Å in metal), once computed. */
  forces?: Vectors;
  /** 3×3 stress (eV/Å³ in metal, ASE's sign convention), once computed. */
  stress?: Vectors;
}

/**
 * A System as `batch.toSystems()` returns it: vectors as rows, every structural field present, and each
 * result (`energy`, `forces`, `stress`) present only when it was computed for these positions.
 */
export interface ResolvedSystem extends System {
  positions: number[][];
  symbols: string[];
  atomicNumbers: number[];
  masses: number[];
  velocities: number[][];
  cell: number[][];
  pbc: [boolean, boolean, boolean];
  info: Record<string, unknown>;
  energy?: number;
  forces?: number[][];
  stress?: number[][];
}
