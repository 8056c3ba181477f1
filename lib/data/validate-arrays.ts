// Checks the flat arrays of Batch.fromArrays once, at the top, as strictly as normalizeSystem checks a System:
// every failure is a typed error naming the field, the system, the atom and the bad value, and nothing
// reaches native code unchecked. The loops run over typed arrays only, with nothing allocated per system or
// atom (a message is built only for the error), so 65,536 clusters check in milliseconds.
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { MAX_ATOMIC_NUMBER, standardMass } from './elements.js';
import { checkAtomCount, MAX_ATOMS } from './limits.js';
import type { UnitSystem } from './units.js';
import { periodicVolume } from './validate.js';
import { showText } from '../describe-value.js';

/** The arrays of `Batch.fromArrays`: N atoms in B systems, in system order. */
export interface BatchArrays {
  /** N×3 positions (Å in metal units). */
  positions: Float64Array;
  /** N atomic numbers. */
  atomicNumbers: Int32Array;
  /** B atom counts; they sum to N. */
  numAtomsPerSystem: Int32Array;
  /** B×9 cells, rows are lattice vectors (default: no cell). */
  cell?: Float64Array;
  /** B×3 periodicity flags, 0 or 1 (default: none periodic). */
  pbc?: Uint8Array;
  /** N masses (amu in metal; default: the element table, or 1 in lj units). */
  masses?: Float64Array;
  /** N×3 velocities (Å/fs in metal; default: zero). */
  velocities?: Float64Array;
}

/**
 * Checked arrays plus the atom offsets derived from the counts. An optional array left out stays undefined:
 * cell, pbc and velocities are then zero, and the masses are `defaultMasses` (filled where they are stored,
 * so no array of N defaults is made only to be copied).
 */
export interface CheckedArrays extends BatchArrays {
  numAtoms: number;
  numSystems: number;
  ptr: Int32Array;
}

/** Fills `masses` with the default of `units` for each atom of `atomicNumbers` (1 in lj units, else the element table). */
export function defaultMasses(masses: Float64Array, atomicNumbers: Int32Array, units: UnitSystem): void {
  if (units.defaultMass !== undefined) masses.fill(units.defaultMass);
  else for (let i = 0; i < masses.length; i++) masses[i] = standardMass(atomicNumbers[i]);
}

type TypedArrayClass = Float64ArrayConstructor | Int32ArrayConstructor | Uint8ArrayConstructor;

/** `arrays[field]`, which must be a `type`; INVALID_ARRAY names what it is instead. */
function requireType<T extends ArrayLike<number>>(arrays: BatchArrays, field: keyof BatchArrays, type: TypedArrayClass, what: string, where: string): T {
  const value: unknown = arrays[field];
  if (!(value instanceof type)) {
    const got = value === null ? 'null' : typeof value === 'object' ? (value as object).constructor?.name ?? 'object' : typeof value;
    throw new HookmdTypeError('INVALID_ARRAY', `${where}: ${field} must be a ${type.name} (${what}), got ${showText(got)}`, { field, value: got });
  }
  return value as unknown as T;
}

/** requireType, and `length` entries. */
function requireArray<T extends ArrayLike<number>>(arrays: BatchArrays, field: keyof BatchArrays, type: TypedArrayClass, length: number, what: string, where: string): T {
  const value = requireType<T>(arrays, field, type, what, where);
  if (value.length !== length) {
    throw new HookmdTypeError('LENGTH_MISMATCH', `${where}: ${field} has ${value.length} entries, expected ${length} (${what})`, {
      field,
      value: value.length,
      expected: length,
    });
  }
  return value;
}

/** The system that owns atom `atom` (binary search in ptr). */
function systemOfAtom(ptr: Int32Array, atom: number): number {
  let lo = 0;
  let hi = ptr.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ptr[mid] <= atom) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function requireFinite(values: Float64Array, width: number, field: string, code: string, ptr: Int32Array, where: string): void {
  for (let i = 0; i < values.length; i++) {
    // x - x is 0 for every finite x and NaN for NaN and ±Infinity: one comparison per entry.
    if (values[i] - values[i] === 0) continue;
    const atom = Math.floor(i / width);
    const s = systemOfAtom(ptr, atom);
    throw new HookmdRangeError(code, `${where}: ${field}[${atom}][${i % width}] (system ${s}) is ${values[i]}; values must be finite`, {
      field,
      index: atom,
      system: s,
      value: values[i],
    });
  }
}

/**
 * Validates the arrays of `Batch.fromArrays` (`where` starts every message).
 * Throws INVALID_ARRAYS, INVALID_ARRAY, LENGTH_MISMATCH, INVALID_ATOM_COUNT, TOO_MANY_ATOMS,
 * INVALID_POSITIONS, UNKNOWN_ELEMENT, INVALID_CELL, INVALID_PBC, SINGULAR_CELL, INVALID_MASS or
 * INVALID_VELOCITIES.
 */
export function checkBatchArrays(arrays: BatchArrays, units: UnitSystem, where: string): CheckedArrays {
  if (arrays === null || typeof arrays !== 'object' || Array.isArray(arrays)) {
    throw new HookmdTypeError('INVALID_ARRAYS', `${where}: expected an object { positions, atomicNumbers, numAtomsPerSystem, cell?, pbc? }`, {
      field: 'arrays',
      value: arrays === null ? 'null' : typeof arrays,
    });
  }
  // A misspelt array is an error, not a field silently left at its default (as for every option).
  checkKeys(where, arrays, ['positions', 'atomicNumbers', 'numAtomsPerSystem', 'cell', 'pbc', 'masses', 'velocities']);
  const counts = requireType<Int32Array>(arrays, 'numAtomsPerSystem', Int32Array, 'one atom count per system', where);
  const numSystems = counts.length;
  const ptr = new Int32Array(numSystems + 1);
  let numAtoms = 0;
  for (let s = 0; s < numSystems; s++) {
    const count = counts[s];
    numAtoms += count;
    ptr[s + 1] = numAtoms;
    if (count >= 0 && numAtoms <= MAX_ATOMS) continue;
    if (count < 0) {
      throw new HookmdRangeError('INVALID_ATOM_COUNT', `${where}: numAtomsPerSystem[${s}] is ${count}; counts must be ≥ 0`, {
        field: 'numAtomsPerSystem',
        index: s,
        value: count,
      });
    }
    checkAtomCount(count, `${where}: system ${s}`);
    checkAtomCount(numAtoms, `${where}: the batch`);
  }
  const positions = requireArray<Float64Array>(arrays, 'positions', Float64Array, 3 * numAtoms, `N×3 with N = ${numAtoms}, the sum of numAtomsPerSystem`, where);
  requireFinite(positions, 3, 'positions', 'INVALID_POSITIONS', ptr, where);
  const atomicNumbers = requireArray<Int32Array>(arrays, 'atomicNumbers', Int32Array, numAtoms, 'one per atom', where);
  for (let i = 0; i < numAtoms; i++) {
    // Int32Array entries are integers: the range is the whole of isAtomicNumber.
    const z = atomicNumbers[i];
    if (z >= 1 && z <= MAX_ATOMIC_NUMBER) continue;
    throw new HookmdError('UNKNOWN_ELEMENT', `${where}: atomicNumbers[${i}] (system ${systemOfAtom(ptr, i)}): unknown atomic number ${atomicNumbers[i]}`, {
      field: 'atomicNumbers',
      index: i,
      value: atomicNumbers[i],
    });
  }
  const cell = arrays.cell === undefined ? undefined : requireArray<Float64Array>(arrays, 'cell', Float64Array, 9 * numSystems, 'B×9, rows are lattice vectors', where);
  for (let k = 0; cell !== undefined && k < cell.length; k++) {
    if (cell[k] - cell[k] !== 0) {
      throw new HookmdRangeError('INVALID_CELL', `${where}: cell[${Math.floor(k / 9)}][${k % 9}] is ${cell[k]}; values must be finite`, {
        field: 'cell',
        index: Math.floor(k / 9),
        value: cell[k],
      });
    }
  }
  const pbc = arrays.pbc === undefined ? undefined : requireArray<Uint8Array>(arrays, 'pbc', Uint8Array, 3 * numSystems, 'B×3 flags', where);
  for (let k = 0; pbc !== undefined && k < pbc.length; k++) {
    if (pbc[k] > 1) {
      throw new HookmdRangeError('INVALID_PBC', `${where}: pbc[${Math.floor(k / 3)}][${k % 3}] is ${pbc[k]}; flags must be 0 or 1`, {
        field: 'pbc',
        index: Math.floor(k / 3),
        value: pbc[k],
      });
    }
  }
  // Without flags no direction is periodic, and there is no volume to check.
  for (let s = 0; pbc !== undefined && s < numSystems; s++) {
    if ((pbc[3 * s] | pbc[3 * s + 1] | pbc[3 * s + 2]) === 0) continue;
    if (cell === undefined || Math.abs(periodicVolume(cell, pbc, 9 * s, 3 * s)) < 1e-12) {
      throw new HookmdRangeError('SINGULAR_CELL', `${where}: cell[${s}] has zero volume in its periodic directions`, {
        field: 'cell',
        index: s,
        value: cell === undefined ? Array(9).fill(0) : Array.from(cell.subarray(9 * s, 9 * s + 9)),
      });
    }
  }
  const masses = arrays.masses === undefined ? undefined : requireArray<Float64Array>(arrays, 'masses', Float64Array, numAtoms, 'one per atom', where);
  for (let i = 0; masses !== undefined && i < numAtoms; i++) {
    if (!(masses[i] > 0 && masses[i] - masses[i] === 0)) {
      throw new HookmdRangeError('INVALID_MASS', `${where}: masses[${i}] (system ${systemOfAtom(ptr, i)}) is ${masses[i]}; masses must be finite and > 0`, {
        field: 'masses',
        index: i,
        value: masses[i],
      });
    }
  }
  const velocities = arrays.velocities === undefined ? undefined : requireArray<Float64Array>(arrays, 'velocities', Float64Array, 3 * numAtoms, 'N×3', where);
  if (velocities !== undefined) requireFinite(velocities, 3, 'velocities', 'INVALID_VELOCITIES', ptr, where);
  return { numAtoms, numSystems, positions, atomicNumbers, numAtomsPerSystem: counts, cell, pbc, masses, velocities, ptr };
}
