// How System fields map to extxyz keys and columns, as ASE reads and writes them. Shared by the
// reader and the writer so that the two cannot drift apart.

/**
 * ASE's unit of time is Å·sqrt(amu/eV) ≈ 10.1805 fs, so `ase.units.fs` = 0.09822694788464063 of it.
 * ASE stores velocities as `momenta` = mass × velocity in amu·Å per ASE time unit; a hookmd velocity
 * in Å/fs (metal units) is `momentum / mass × ASE_FS`.
 *
 * @example
 * const vAse = 0.05;                 // an ASE velocity, Å per ASE time unit
 * const vMetal = vAse * ASE_FS;      // the same velocity in Å/fs
 */
export const ASE_FS = 0.09822694788464063;

/** Comment-line keys that come from System fields, never from `info`. */
export const RESERVED_KEYS: readonly string[] = ['Lattice', 'Properties', 'pbc', 'energy', 'stress', 'arrays'];

/** Comment-line keys whose 9 values are a 3×3 matrix in Fortran (column-major) order, as ASE has it. */
export const MATRIX_KEYS: readonly string[] = ['stress', 'virial'];

/** What a mapped column fills: a System field, or momenta (converted to velocities). */
export type ColumnField = 'symbols' | 'atomicNumbers' | 'positions' | 'forces' | 'momenta' | 'velocities' | 'masses';

/** Property names read into System fields, with the shape they must have. */
export const FIELD_COLUMNS: Readonly<Record<string, { field: ColumnField; type: 'R' | 'I' | 'S'; ncols: number }>> = {
  species: { field: 'symbols', type: 'S', ncols: 1 },
  Z: { field: 'atomicNumbers', type: 'I', ncols: 1 },
  pos: { field: 'positions', type: 'R', ncols: 3 },
  forces: { field: 'forces', type: 'R', ncols: 3 },
  momenta: { field: 'momenta', type: 'R', ncols: 3 },
  velocities: { field: 'velocities', type: 'R', ncols: 3 },
  vel: { field: 'velocities', type: 'R', ncols: 3 },
  velo: { field: 'velocities', type: 'R', ncols: 3 },
  masses: { field: 'masses', type: 'R', ncols: 1 },
  mass: { field: 'masses', type: 'R', ncols: 1 },
};

/** The factor f in `velocity = momentum / mass × f` for a unit system ('lj' has no ASE time to convert from). */
export function momentumFactor(units: 'metal' | 'lj'): number {
  return units === 'metal' ? ASE_FS : 1;
}

/** A 3×3 matrix (rows) from 9 values in Fortran order: m[i][j] = v[i + 3j]. */
export function fromFortran(values: readonly number[]): number[][] {
  return [0, 1, 2].map((i) => [0, 1, 2].map((j) => values[i + 3 * j]));
}

/** 9 values in Fortran order from a row-major flat 3×3. */
export function toFortran(flat: ArrayLike<number>): number[] {
  return [0, 1, 2].flatMap((j) => [0, 1, 2].map((i) => flat[3 * i + j]));
}

/** The 3×3 stress from ASE's Voigt order xx yy zz yz xz xy. */
export function fromVoigt(v: readonly number[]): number[][] {
  return [
    [v[0], v[5], v[4]],
    [v[5], v[1], v[3]],
    [v[4], v[3], v[2]],
  ];
}

/** ASE's capitalization of species symbols ('AR' and 'ar' are 'Ar'). */
export function capitalize(symbol: string): string {
  return symbol.charAt(0).toUpperCase() + symbol.slice(1).toLowerCase();
}
