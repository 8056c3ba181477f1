// Which quantities of a system stopped being finite, and where: what NaNDetectorHook and the blow-up
// diagnosis name (docs/dynamics.md, "When numbers blow up").
import type { Batch } from '../data/index.js';

/** A quantity of one system that is not finite: the first such atom of a per-atom field, and its value. */
export interface NonFiniteValue {
  readonly quantity: 'positions' | 'velocities' | 'forces' | 'energy';
  /** The atom's index within its system (per-atom quantities only). */
  readonly atom?: number;
  readonly value: number;
}

/** Every quantity of system `s` that holds a non-finite value, per-atom fields first. */
export function nonFiniteValues(batch: Batch, s: number): NonFiniteValue[] {
  const ptr = batch.ptr;
  const found: NonFiniteValue[] = [];
  for (const quantity of ['positions', 'velocities', 'forces'] as const) {
    const values = batch.read(quantity);
    for (let k = 3 * ptr[s]; k < 3 * ptr[s + 1]; k++) {
      if (Number.isFinite(values[k])) continue;
      found.push({ quantity, atom: Math.floor(k / 3) - ptr[s], value: values[k] });
      break;
    }
  }
  const energy = batch.read('energy')[s];
  if (!Number.isFinite(energy)) found.push({ quantity: 'energy', value: energy });
  return found;
}

/** `forces of atom 2 are NaN`, `energy is Infinity`. */
export function describeNonFinite(value: NonFiniteValue): string {
  return value.atom === undefined ? `${value.quantity} is ${value.value}` : `${value.quantity} of atom ${value.atom} are ${value.value}`;
}
