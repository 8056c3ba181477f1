// Checks a System once, at the top, and turns it into flat typed arrays. Bad data never reaches native code:
// every failure is a typed error naming the system, the field and the bad value (docs/ARCHITECTURE.md).
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';
import { atomicNumber, isAtomicNumber, standardMass } from './elements.js';
import { checkKeys } from '../option-keys.js';
import { checkAtomCount } from './limits.js';
import type { System, Vectors } from './system.js';
import type { UnitSystem } from './units.js';
import { showValue } from '../describe-value.js';

/** A validated System as flat arrays. */
export interface NormalizedSystem {
  numAtoms: number;
  positions: Float64Array;
  atomicNumbers: Int32Array;
  masses: Float64Array;
  velocities: Float64Array;
  cell: Float64Array;
  pbc: Uint8Array;
  info: Record<string, unknown>;
  /** Undefined when the system gave none. */
  energy: number | undefined;
  forces: Float64Array | undefined;
  stress: Float64Array | undefined;
}

// A length that is not a whole number ≥ 0 (an array-like `{ length: -3 }`) is not an array: it would
// otherwise reach a typed-array constructor and throw an untyped RangeError.
function isArrayLike(value: unknown): value is ArrayLike<unknown> {
  if (value === null || typeof value !== 'object') return false;
  const length = (value as { length?: unknown }).length;
  return typeof length === 'number' && Number.isSafeInteger(length) && length >= 0;
}

/** An entry of a coordinate array as a number; BigInt, Symbol, strings and the like are typed errors. */
function numberAt(value: unknown, where: string, field: string, index: number, code: string): number {
  if (typeof value === 'number') return value;
  const shown = typeof value === 'bigint' ? `${value}n` : typeof value === 'symbol' ? value.toString() : JSON.stringify(value) ?? String(value);
  throw new HookmdTypeError(code, `${where}.${field}[${index}] must be a number, got ${typeof value} ${shown}`, { field, index, value: typeof value });
}

/** Flattens rows or a flat array of `rows`×`width` finite numbers. */
function flatVectors(value: Vectors, rows: number, width: number, where: string, field: string, code: string): Float64Array {
  if (!isArrayLike(value)) {
    throw new HookmdTypeError(code, `${where}.${field} must be an array`, { field, value });
  }
  const out = new Float64Array(rows * width);
  const nested = value.length > 0 && isArrayLike(value[0]);
  if (nested) {
    if (value.length !== rows) {
      throw new HookmdTypeError('LENGTH_MISMATCH', `${where}.${field} has ${value.length} rows, expected ${rows}`, {
        field,
        value: value.length,
        expected: rows,
      });
    }
    for (let i = 0; i < rows; i++) {
      const row = (value as ArrayLike<ArrayLike<number>>)[i];
      if (!isArrayLike(row) || row.length !== width) {
        throw new HookmdTypeError('LENGTH_MISMATCH', `${where}.${field}[${i}] must have ${width} components`, {
          field,
          index: i,
          value: row,
        });
      }
      for (let c = 0; c < width; c++) out[i * width + c] = numberAt(row[c], where, field, i, code);
    }
  } else {
    if (value.length !== rows * width) {
      throw new HookmdTypeError(
        'LENGTH_MISMATCH',
        `${where}.${field} has ${value.length} numbers, expected ${rows * width} (${rows}×${width})`,
        { field, value: value.length, expected: rows * width },
      );
    }
    for (let i = 0; i < rows * width; i++) out[i] = numberAt((value as ArrayLike<unknown>)[i], where, field, Math.floor(i / width), code);
  }
  for (let i = 0; i < out.length; i++) {
    if (!Number.isFinite(out[i])) {
      const atom = Math.floor(i / width);
      throw new HookmdRangeError(code, `${where}.${field}[${atom}][${i % width}] is ${out[i]}; values must be finite`, {
        field,
        index: atom,
        value: out[i],
      });
    }
  }
  return out;
}

function countAtoms(positions: Vectors, where: string): number {
  if (!isArrayLike(positions)) {
    throw new HookmdTypeError('INVALID_POSITIONS', `${where}.positions must be an array`, { field: 'positions', value: positions });
  }
  const nested = positions.length > 0 && isArrayLike(positions[0]);
  if (!nested && positions.length % 3 !== 0) {
    throw new HookmdTypeError('LENGTH_MISMATCH', `${where}.positions has ${positions.length} numbers, not a multiple of 3`, {
      field: 'positions',
      value: positions.length,
    });
  }
  const n = nested ? positions.length : positions.length / 3;
  checkAtomCount(n, where);
  return n;
}

function species(system: System, n: number, where: string): Int32Array {
  const out = new Int32Array(n);
  if (system.symbols !== undefined) {
    if (!isArrayLike(system.symbols) || system.symbols.length !== n) {
      throw new HookmdTypeError('LENGTH_MISMATCH', `${where}.symbols must have ${n} entries (one per atom)`, {
        field: 'symbols',
        value: isArrayLike(system.symbols) ? system.symbols.length : system.symbols,
      });
    }
    for (let i = 0; i < n; i++) {
      try {
        out[i] = atomicNumber(system.symbols[i]);
      } catch (error) {
        throw new HookmdError('UNKNOWN_ELEMENT', `${where}.symbols[${i}]: unknown element ${showValue(system.symbols[i])}`, {
          field: 'symbols',
          index: i,
          value: system.symbols[i],
        }, { cause: error });
      }
    }
    return out;
  }
  if (system.atomicNumbers === undefined) {
    throw new HookmdTypeError('MISSING_SPECIES', `${where} needs symbols or atomicNumbers`, { field: 'symbols' });
  }
  if (!isArrayLike(system.atomicNumbers) || system.atomicNumbers.length !== n) {
    throw new HookmdTypeError('LENGTH_MISMATCH', `${where}.atomicNumbers must have ${n} entries (one per atom)`, {
      field: 'atomicNumbers',
    });
  }
  for (let i = 0; i < n; i++) {
    const z = system.atomicNumbers[i];
    if (!isAtomicNumber(z)) {
      throw new HookmdError('UNKNOWN_ELEMENT', `${where}.atomicNumbers[${i}]: unknown atomic number ${z}`, {
        field: 'atomicNumbers',
        index: i,
        value: z,
      });
    }
    out[i] = z;
  }
  return out;
}

function masses(system: System, z: Int32Array, units: UnitSystem, where: string): Float64Array {
  const n = z.length;
  const out = new Float64Array(n);
  if (system.masses === undefined) {
    for (let i = 0; i < n; i++) out[i] = units.defaultMass ?? standardMass(z[i]);
    return out;
  }
  if (!isArrayLike(system.masses) || system.masses.length !== n) {
    throw new HookmdTypeError('LENGTH_MISMATCH', `${where}.masses must have ${n} entries (one per atom)`, { field: 'masses' });
  }
  for (let i = 0; i < n; i++) {
    const m = system.masses[i];
    if (!(typeof m === 'number' && Number.isFinite(m) && m > 0)) {
      throw new HookmdRangeError('INVALID_MASS', `${where}.masses[${i}] is ${m}; masses must be finite and > 0`, {
        field: 'masses',
        index: i,
        value: m,
      });
    }
    out[i] = m;
  }
  return out;
}

function cellOf(system: System, where: string): Float64Array {
  if (system.cell === undefined) return new Float64Array(9);
  if (isArrayLike(system.cell) && system.cell.length === 3 && !isArrayLike(system.cell[0])) {
    const lengths = flatVectors(system.cell, 1, 3, where, 'cell', 'INVALID_CELL');
    return Float64Array.of(lengths[0], 0, 0, 0, lengths[1], 0, 0, 0, lengths[2]);
  }
  return flatVectors(system.cell, 3, 3, where, 'cell', 'INVALID_CELL');
}

function pbcOf(system: System, where: string): Uint8Array {
  const pbc = system.pbc;
  if (pbc === undefined || typeof pbc === 'boolean') return new Uint8Array(3).fill(pbc === true ? 1 : 0);
  if (!isArrayLike(pbc) || pbc.length !== 3) {
    throw new HookmdTypeError('INVALID_PBC', `${where}.pbc must be a boolean or three booleans`, { field: 'pbc', value: pbc });
  }
  return Uint8Array.from([0, 1, 2], (i) => (pbc[i] ? 1 : 0));
}

/** Determinant of a row-major 3×3 matrix. */
export function determinant3(m: ArrayLike<number>, offset = 0): number {
  const a = (i: number): number => m[offset + i];
  return a(0) * (a(4) * a(8) - a(5) * a(7)) - a(1) * (a(3) * a(8) - a(5) * a(6)) + a(2) * (a(3) * a(7) - a(4) * a(6));
}

/**
 * The volume the periodic lattice vectors span, with each non-periodic vector replaced by the unit normal
 * of the others, as the native neighbor search treats it: a slab may leave its non-periodic vector zero
 * (docs/models.md). 1 when no direction is periodic; 0 when the periodic vectors are degenerate. The cell is
 * the 9 values of `cell` from `cellOffset`, the flags the 3 of `pbc` from `pbcOffset`, so a batch's flat
 * arrays are checked system by system without a view per system.
 */
export function periodicVolume(cell: Float64Array, pbc: Uint8Array, cellOffset = 0, pbcOffset = 0): number {
  const periodicCount = (pbc[pbcOffset] === 1 ? 1 : 0) + (pbc[pbcOffset + 1] === 1 ? 1 : 0) + (pbc[pbcOffset + 2] === 1 ? 1 : 0);
  if (periodicCount === 0) return 1;
  if (periodicCount === 3) return determinant3(cell, cellOffset);
  // The first (and second) periodic direction; one periodic vector: its length; two: the area of their parallelogram.
  const first = pbc[pbcOffset] === 1 ? 0 : pbc[pbcOffset + 1] === 1 ? 1 : 2;
  const a = cellOffset + 3 * first;
  if (periodicCount === 1) return Math.hypot(cell[a], cell[a + 1], cell[a + 2]);
  const b = cellOffset + 3 * (pbc[pbcOffset + first + 1] === 1 ? first + 1 : 2);
  return Math.hypot(cell[a + 1] * cell[b + 2] - cell[a + 2] * cell[b + 1], cell[a + 2] * cell[b] - cell[a] * cell[b + 2], cell[a] * cell[b + 1] - cell[a + 1] * cell[b]);
}

// The keys of a System (system.ts); anything else is UNKNOWN_OPTION with the closest key.
const SYSTEM_KEYS: readonly string[] = ['positions', 'symbols', 'atomicNumbers', 'masses', 'velocities', 'cell', 'pbc', 'info', 'energy', 'forces', 'stress'];
// ASE's Atoms spellings. Momenta are refused rather than guessed at: their unit is ASE's (amu·Å per ASE time unit).
const SYSTEM_ALIASES = {
  momenta: 'a System takes velocities, not momenta: velocities = momenta / masses × ASE_FS (0.09822694788464063, ASE\'s units.fs) for Å/fs in metal units, momenta / masses in lj; readExtxyz converts ASE momenta itself',
  numbers: 'atomicNumbers',
  species: 'symbols',
  lattice: 'cell',
};

/**
 * Validates one System (the `index`-th of the call) and returns it as flat arrays.
 * `operation` starts every error message, e.g. 'Batch.fromSystems'.
 */
export function normalizeSystem(system: System, index: number, units: UnitSystem, operation: string, options?: NormalizeOptions): NormalizedSystem {
  return normalizeSystemAt(system, `${operation}: systems[${index}]`, units, index, options);
}

/** What a caller that does not simulate may take (readers and writers, which keep what ASE keeps). */
export interface NormalizeOptions {
  /**
   * A cell without volume in its periodic directions (`pbc="T T F"` and no Lattice, a flat Lattice): ASE
   * reads and writes such files. Models and engines need the volume, so a Batch refuses it (SINGULAR_CELL).
   */
  readonly singularCell?: boolean;
}

/**
 * normalizeSystem with messages led by `where` itself (`where.positions[2][0] is NaN ...`), for readers
 * that name a system by its file and line rather than its index in a call.
 */
export function normalizeSystemAt(system: System, where: string, units: UnitSystem, index: number = 0, options: NormalizeOptions = {}): NormalizedSystem {
  if (system === null || typeof system !== 'object') {
    throw new HookmdTypeError('INVALID_SYSTEM', `${where} must be an object`, { field: 'systems', index, value: system });
  }
  // A misspelt key (velocites, mass) would be dropped and the run start at rest or with table masses.
  checkKeys(where, system, SYSTEM_KEYS, '', SYSTEM_ALIASES);
  const n = countAtoms(system.positions, where);
  const positions = flatVectors(system.positions, n, 3, where, 'positions', 'INVALID_POSITIONS');
  const atomicNumbers = species(system, n, where);
  const velocities = system.velocities === undefined ? new Float64Array(3 * n) : flatVectors(system.velocities, n, 3, where, 'velocities', 'INVALID_VELOCITIES');
  const cell = cellOf(system, where);
  const pbc = pbcOf(system, where);
  if (options.singularCell !== true && Math.abs(periodicVolume(cell, pbc)) < 1e-12) {
    // Neighbor lists, wrapping, volume and pressure all divide by it: name the two ways to a valid cell.
    throw new HookmdRangeError('SINGULAR_CELL', `${where}.cell has zero volume in its periodic directions; give each periodic direction a lattice vector, or set pbc false where there is none`, {
      field: 'cell',
      value: Array.from(cell),
    });
  }
  const energy = system.energy;
  if (energy !== undefined && (typeof energy !== 'number' || !Number.isFinite(energy))) {
    throw new HookmdRangeError('INVALID_ENERGY', `${where}.energy is ${energy}; it must be a finite number`, { field: 'energy', value: energy });
  }
  if (system.info !== undefined && (system.info === null || typeof system.info !== 'object')) {
    throw new HookmdTypeError('INVALID_INFO', `${where}.info must be an object`, { field: 'info', value: system.info });
  }
  return {
    numAtoms: n,
    positions,
    atomicNumbers,
    masses: masses(system, atomicNumbers, units, where),
    velocities,
    cell,
    pbc,
    info: { ...(system.info ?? {}) },
    energy,
    forces: system.forces === undefined ? undefined : flatVectors(system.forces, n, 3, where, 'forces', 'INVALID_FORCES'),
    stress: system.stress === undefined ? undefined : flatVectors(system.stress, 3, 3, where, 'stress', 'INVALID_STRESS'),
  };
}

/**
 * The options object of `Batch.fromSystems` (and the like): undefined means none; anything but an object
 * is INVALID_OPTIONS, so that `fromSystems(systems, null)` is a typed error rather than a property read
 * of null, and a key outside `known` is UNKNOWN_OPTION.
 */
export function checkBatchOptions(options: unknown, operation: string, known: readonly string[] = ['units']): { units?: unknown } {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new HookmdTypeError('INVALID_OPTIONS', `${operation}: options must be an object such as { units: 'lj' }, got ${options === null ? 'null' : typeof options}`, {
      field: 'options',
      value: options,
    });
  }
  return checkKeys(operation, options, known);
}
