// The value of one convergence criterion per system, from JS (docs/dynamics.md, "Convergence"), with
// nvalchemi's two-level meaning: `reduceOp` reduces within each entry (an atom's vector, a system's row;
// without one, to its largest component), or over the dimensions `reduceDims` names, and each system then
// takes the largest value left. `systemNorm` is the norm over the whole system. The native loop computes
// the same numbers for its keys.
import type { Batch } from '../../data/index.js';
import { HookmdError } from '../../errors.js';
import type { NativeBatch } from '../../native/index.js';
import { degreesOfFreedom } from '../degrees-of-freedom.js';
import { showText } from '../../describe-value.js';

/** Reductions within each entry, plus the whole-system norm. */
export type ReduceOp = 'min' | 'max' | 'norm' | 'mean' | 'sum' | 'systemNorm';

/** The batch arrays a criterion key may name, besides registered extra fields. */
export const PER_ATOM_KEYS: readonly string[] = ['positions', 'velocities', 'forces', 'masses', 'atomicNumbers'];
export const PER_SYSTEM_KEYS: readonly string[] = ['energy', 'stress', 'cell', 'status', 'systemId', 'numAtoms'];
/** Keys derived from the batch: fmax (largest per-atom force norm), energyChange, kineticEnergy, temperature (docs/dynamics.md, "Temperature"). */
export const DERIVED_KEYS: readonly string[] = ['fmax', 'energyChange', 'kineticEnergy', 'temperature'];
const WIDTH: Record<string, number> = { positions: 3, velocities: 3, forces: 3, masses: 1, atomicNumbers: 1, energy: 1, stress: 9, cell: 9, status: 1, systemId: 1, numAtoms: 1 };
// Per-system rows that nvalchemi shapes as 3×3 matrices ([B, 3, 3]).
const MATRIX_KEYS: readonly string[] = ['stress', 'cell'];

/** What a criterion reads: its key, and how it reduces. */
export interface CriterionSpec {
  readonly key: string;
  readonly reduceOp?: ReduceOp;
  readonly reduceDims?: number | readonly number[];
}

/** A key's raw values: `values` has `width` per row, row r belongs to system `systemIndex[r]`. */
export interface CriterionInput {
  readonly values: Float64Array;
  readonly systemIndex: Int32Array;
  readonly width: number;
  readonly perAtom: boolean;
}

function entry(op: ReduceOp | undefined, values: ArrayLike<number>, start: number, width: number, stride = 1): number {
  let accumulator = op === 'min' ? Infinity : op === 'max' || op === undefined ? -Infinity : 0;
  for (let c = 0; c < width; c++) {
    const v = values[start + c * stride];
    if (op === 'min') accumulator = v < accumulator ? v : accumulator;
    else if (op === 'max' || op === undefined) accumulator = v > accumulator ? v : accumulator;
    else if (op === 'norm' || op === 'systemNorm') accumulator += v * v;
    else accumulator += v;
  }
  if (op === 'mean') return accumulator / width;
  if (op === 'norm' || op === 'systemNorm') return Math.sqrt(accumulator);
  return accumulator;
}

/** The largest of `values` (NaN if any is NaN; 0 when empty). */
function largestOf(values: readonly number[]): number {
  let largest = values.length > 0 ? -Infinity : 0;
  for (const value of values) {
    if (Number.isNaN(largest)) break;
    if (!(value <= largest)) largest = value;
  }
  return largest;
}

/** Per system: the largest entry value over its atoms (NaN if any entry is NaN; 0 for an empty system). */
function perAtom(values: ArrayLike<number>, width: number, ptr: Int32Array, op: ReduceOp | undefined, numSystems: number): Float64Array {
  const out = new Float64Array(numSystems);
  for (let s = 0; s < numSystems; s++) {
    if (op === 'systemNorm') {
      out[s] = entry('systemNorm', values, width * ptr[s], width * (ptr[s + 1] - ptr[s]));
      continue;
    }
    const entries: number[] = [];
    for (let i = ptr[s]; i < ptr[s + 1]; i++) entries.push(entry(op, values, width * i, width));
    out[s] = largestOf(entries);
  }
  return out;
}

/**
 * Checks `reduceDims` against nvalchemi's shape of the key: [N, w] per atom, [B, 3, 3] for stress and cell,
 * [B, c] for other per-system rows. Dimension 0 of a per-system key runs across systems: refused.
 */
export function checkReduceDims(owner: string, where: string, c: CriterionSpec & { customOp?: unknown }): void {
  const dims = Array.isArray(c.reduceDims) ? c.reduceDims : [c.reduceDims];
  const fail = (problem: string): never => {
    throw new HookmdError('INVALID_CRITERION', `${owner}: ${where}.reduceDims ${problem}`, { field: `${where}.reduceDims`, value: c.reduceDims });
  };
  if (dims.length === 0 || !dims.every((d) => Number.isInteger(d))) fail('must be an integer or a non-empty array of integers');
  if (c.reduceOp === undefined || c.reduceOp === 'systemNorm') fail(`needs a reduceOp of ${['min', 'max', 'norm', 'mean', 'sum'].join(', ')}`);
  if (DERIVED_KEYS.includes(c.key)) fail(`does not apply to the derived key ${c.key}, which is one value per system`);
  const rank = MATRIX_KEYS.includes(c.key) ? 3 : 2;
  for (const d of dims) if (d < -rank || d >= rank) fail(`must be dimensions of the key's shape (rank ${rank}), got ${showText(d)}`);
  if (!PER_ATOM_KEYS.includes(c.key) && dims.some((d) => (d + rank) % rank === 0)) {
    fail(`would reduce across systems: dimension 0 of the per-system key ${c.key} numbers the systems`);
  }
}

/**
 * One system's block, reduced over `dims` (of the key's shape; dimension 0 of a per-atom key is the
 * system's atoms), then its largest value.
 */
function reduceBlock(values: ArrayLike<number>, start: number, rows: number, cols: number, dims: readonly number[], op: ReduceOp): number {
  const overRows = dims.includes(0);
  const overCols = dims.includes(1);
  const left: number[] = [];
  if (overRows && overCols) left.push(entry(op, values, start, rows * cols));
  else if (overCols) for (let r = 0; r < rows; r++) left.push(entry(op, values, start + r * cols, cols));
  else if (overRows) for (let k = 0; k < cols; k++) left.push(entry(op, values, start + k, rows, cols));
  else for (let k = 0; k < rows * cols; k++) left.push(values[start + k]);
  return largestOf(left);
}

/** The block dimensions `reduceDims` names: per-atom keys keep theirs, per-system keys drop the system axis. */
function blockDims(c: CriterionSpec, perAtom: boolean): number[] {
  const rank = MATRIX_KEYS.includes(c.key) ? 3 : 2;
  const dims = (Array.isArray(c.reduceDims) ? c.reduceDims : [c.reduceDims]) as number[];
  const normal = dims.map((d) => (d + rank) % rank);
  if (perAtom) return normal;
  // [B, 3, 3] → a 3×3 block (dims 1, 2 → 0, 1); [B, c] → a 1×c block (dim 1 → its columns).
  return MATRIX_KEYS.includes(c.key) ? normal.map((d) => d - 1) : normal.map(() => 1);
}

/** The key's raw rows and the system of each row (customOp's input). `previous` as in criterionValues. */
export function criterionInput(batch: Batch, native: NativeBatch, key: string, previous: { energy?: Float64Array }): CriterionInput {
  const numSystems = batch.numSystems;
  const identity = Int32Array.from({ length: numSystems }, (_, s) => s);
  if (DERIVED_KEYS.includes(key)) return { values: derived(batch, native, key, previous), systemIndex: identity, width: 1, perAtom: false };
  if (PER_ATOM_KEYS.includes(key)) return { values: Float64Array.from(batch.read(key as 'positions')), systemIndex: batch.read('systemIndex'), width: WIDTH[key], perAtom: true };
  if (PER_SYSTEM_KEYS.includes(key)) return { values: Float64Array.from(batch.read(key as 'energy')), systemIndex: identity, width: WIDTH[key], perAtom: false };
  const spec = batch.extraFieldSpec(key);
  const values = Float64Array.from(batch.field(key));
  return spec.per === 'atom'
    ? { values, systemIndex: batch.read('systemIndex'), width: spec.components, perAtom: true }
    : { values, systemIndex: identity, width: spec.components, perAtom: false };
}

function derived(batch: Batch, native: NativeBatch, key: string, previous: { energy?: Float64Array }): Float64Array {
  switch (key) {
    case 'fmax':
      return perAtom(batch.read('forces'), 3, batch.ptr, 'norm', batch.numSystems);
    case 'energyChange': {
      const energy = Float64Array.from(batch.read('energy'));
      const last = previous.energy;
      previous.energy = energy;
      return Float64Array.from(energy, (e, s) => (last === undefined || last.length !== energy.length ? Infinity : Math.abs(e - last[s])));
    }
    case 'kineticEnergy':
      return native.kineticEnergy();
    default: {
      const n = batch.read('numAtoms');
      return Float64Array.from(native.kineticEnergy(), (k, s) => {
        const dof = degreesOfFreedom(n[s], 0);
        return dof > 0 ? (2 * k) / (dof * batch.units.kB) : 0;
      });
    }
  }
}

/** The criterion's value per system. `previous` holds the energies of the last check, for energyChange. */
export function criterionValues(batch: Batch, native: NativeBatch, c: CriterionSpec, previous: { energy?: Float64Array }): Float64Array {
  const numSystems = batch.numSystems;
  const input = criterionInput(batch, native, c.key, previous);
  if (DERIVED_KEYS.includes(c.key)) return input.values;
  const { values, width } = input;
  if (c.reduceDims !== undefined && c.reduceOp !== undefined && c.reduceOp !== 'systemNorm') {
    const dims = blockDims(c, input.perAtom);
    const ptr = batch.ptr;
    const op = c.reduceOp;
    if (input.perAtom) return Float64Array.from({ length: numSystems }, (_, s) => reduceBlock(values, width * ptr[s], ptr[s + 1] - ptr[s], width, dims, op));
    const rows = MATRIX_KEYS.includes(c.key) ? 3 : 1;
    return Float64Array.from({ length: numSystems }, (_, s) => reduceBlock(values, width * s, rows, width / rows, dims, op));
  }
  if (input.perAtom) return perAtom(values, width, batch.ptr, c.reduceOp, numSystems);
  return Float64Array.from({ length: numSystems }, (_, s) => entry(c.reduceOp, values, width * s, width));
}
