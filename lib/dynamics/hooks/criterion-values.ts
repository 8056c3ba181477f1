// The value of one convergence criterion per system, from JS (docs/dynamics.md, "Convergence"), with
// nvalchemi's two-level meaning: each entry (an atom's vector, a system's row) is reduced by `reduceOp`
// (without one, to its largest component), then a per-atom key takes the largest over the system's atoms.
// `systemNorm` is the norm over the whole system. The native loop computes the same numbers for its keys.
import type { Batch } from '../../data/index.js';
import type { NativeBatch } from '../../native/index.js';
import { degreesOfFreedom } from '../degrees-of-freedom.js';

/** Reductions within each entry, plus the whole-system norm. */
export type ReduceOp = 'min' | 'max' | 'norm' | 'mean' | 'sum' | 'systemNorm';

/** The batch arrays a criterion key may name, besides registered extra fields. */
export const PER_ATOM_KEYS: readonly string[] = ['positions', 'velocities', 'forces', 'masses', 'atomicNumbers'];
export const PER_SYSTEM_KEYS: readonly string[] = ['energy', 'stress', 'cell', 'status', 'systemId', 'numAtoms'];
/** Keys derived from the batch: fmax (largest per-atom force norm), energyChange, kineticEnergy, temperature (docs/dynamics.md, "Temperature"). */
export const DERIVED_KEYS: readonly string[] = ['fmax', 'energyChange', 'kineticEnergy', 'temperature'];
const WIDTH: Record<string, number> = { positions: 3, velocities: 3, forces: 3, masses: 1, atomicNumbers: 1, energy: 1, stress: 9, cell: 9, status: 1, systemId: 1, numAtoms: 1 };

function entry(op: ReduceOp | undefined, values: ArrayLike<number>, start: number, width: number): number {
  let accumulator = op === 'min' ? Infinity : op === 'max' || op === undefined ? -Infinity : 0;
  for (let c = 0; c < width; c++) {
    const v = values[start + c];
    if (op === 'min') accumulator = v < accumulator ? v : accumulator;
    else if (op === 'max' || op === undefined) accumulator = v > accumulator ? v : accumulator;
    else if (op === 'norm' || op === 'systemNorm') accumulator += v * v;
    else accumulator += v;
  }
  if (op === 'mean') return accumulator / width;
  if (op === 'norm' || op === 'systemNorm') return Math.sqrt(accumulator);
  return accumulator;
}

/** Per system: the largest entry value over its atoms (NaN if any entry is NaN; 0 for an empty system). */
function perAtom(values: ArrayLike<number>, width: number, ptr: Int32Array, op: ReduceOp | undefined, numSystems: number): Float64Array {
  const out = new Float64Array(numSystems);
  for (let s = 0; s < numSystems; s++) {
    if (op === 'systemNorm') {
      out[s] = entry('systemNorm', values, width * ptr[s], width * (ptr[s + 1] - ptr[s]));
      continue;
    }
    let largest = ptr[s] < ptr[s + 1] ? -Infinity : 0;
    for (let i = ptr[s]; i < ptr[s + 1] && !Number.isNaN(largest); i++) {
      const value = entry(op, values, width * i, width);
      if (!(value <= largest)) largest = value;
    }
    out[s] = largest;
  }
  return out;
}

/** The key's value per system. `previous` holds the energies of the last check, for energyChange. */
export function criterionValues(batch: Batch, native: NativeBatch, key: string, op: ReduceOp | undefined, previous: { energy?: Float64Array }): Float64Array {
  const numSystems = batch.numSystems;
  switch (key) {
    case 'fmax':
      return perAtom(batch.read('forces'), 3, batch.ptr, 'norm', numSystems);
    case 'energyChange': {
      const energy = Float64Array.from(batch.read('energy'));
      const last = previous.energy;
      previous.energy = energy;
      return Float64Array.from(energy, (e, s) => (last === undefined || last.length !== energy.length ? Infinity : Math.abs(e - last[s])));
    }
    case 'kineticEnergy':
      return native.kineticEnergy();
    case 'temperature': {
      const n = batch.read('numAtoms');
      return Float64Array.from(native.kineticEnergy(), (k, s) => {
        const dof = degreesOfFreedom(n[s], 0);
        return dof > 0 ? (2 * k) / (dof * batch.units.kB) : 0;
      });
    }
    default:
      break;
  }
  if (PER_ATOM_KEYS.includes(key)) return perAtom(batch.read(key as 'positions'), WIDTH[key], batch.ptr, op, numSystems);
  if (PER_SYSTEM_KEYS.includes(key)) {
    const values = batch.read(key as 'energy');
    return Float64Array.from({ length: numSystems }, (_, s) => entry(op, values, WIDTH[key] * s, WIDTH[key]));
  }
  const spec = batch.extraFieldSpec(key);
  const data = batch.field(key);
  if (spec.per === 'atom') return perAtom(data, spec.components, batch.ptr, op, numSystems);
  return Float64Array.from({ length: numSystems }, (_, s) => entry(op, data, spec.components * s, spec.components));
}
