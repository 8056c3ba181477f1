// Collective variables and bias potentials for BiasHook (docs/hooks.md, "BiasHook"): a collective variable
// gives one value s per system and its gradient ∂s/∂x; a bias potential gives U(s) and dU/ds per system.
import type { Batch } from '../../data/index.js';
import { HookmdRangeError, HookmdTypeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import type { PerSystem } from '../parameters.js';
import { showText, showValue } from '../../describe-value.js';

/** A collective variable's values (one per system) and gradients (∂s/∂x, N×3, zero where s does not depend). */
export interface CollectiveValues {
  readonly values: Float64Array;
  readonly gradient: Float64Array;
}

/**
 * A collective variable: a function s(x) of each system's positions.
 *
 * @example
 * const r = distance(0, 1);
 * const { values } = r.evaluate(batch);   // one distance per system
 */
export interface CollectiveVariable {
  /** Shown in messages ('distance(0, 1)'). */
  readonly name: string;
  evaluate(batch: Batch): CollectiveValues;
}

/**
 * A bias potential U(s) of a collective variable: its energy and slope dU/ds for system `system` (energy
 * units per unit of s).
 *
 * @example
 * const flatBottom: BiasPotential = { name: 'wall', at: (s) => (s > 2 ? { energy: (s - 2) ** 2, slope: 2 * (s - 2) } : { energy: 0, slope: 0 }) };
 */
export interface BiasPotential {
  readonly name: string;
  at(s: number, system: number): { energy: number; slope: number };
}

function atomIndex(owner: string, field: string, value: unknown): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0) {
    throw new HookmdRangeError('INVALID_PARAMETER', `${owner}: ${field} must be an atom index ≥ 0 (within each system), got ${showText(value)}`, { field, value });
  }
  return value as number;
}

/** The global index of local atom `atom` of every system; ATOM_OUT_OF_RANGE names a system too small. */
function atomsOf(batch: Batch, atom: number, owner: string): Int32Array {
  const ptr = batch.ptr;
  return Int32Array.from({ length: batch.numSystems }, (_, s) => {
    if (atom >= ptr[s + 1] - ptr[s]) {
      throw new HookmdRangeError('ATOM_OUT_OF_RANGE', `${owner}: system ${s} has ${ptr[s + 1] - ptr[s]} atoms, no atom ${atom}`, { field: 'atom', value: atom, system: s });
    }
    return ptr[s] + atom;
  });
}

// d reduced to its nearest periodic image along the system's periodic directions (any cell, rows a, b, c).
function minimumImage(d: number[], cell: Float64Array, pbc: Uint8Array, s: number): void {
  if (pbc[3 * s] === 0 && pbc[3 * s + 1] === 0 && pbc[3 * s + 2] === 0) return;
  const c = Array.from(cell.subarray(9 * s, 9 * s + 9));
  const det = c[0] * (c[4] * c[8] - c[5] * c[7]) - c[1] * (c[3] * c[8] - c[5] * c[6]) + c[2] * (c[3] * c[7] - c[4] * c[6]);
  // Fractional coordinates f with d = f·C, from the inverse of C.
  const inverse = [
    c[4] * c[8] - c[5] * c[7], c[2] * c[7] - c[1] * c[8], c[1] * c[5] - c[2] * c[4],
    c[5] * c[6] - c[3] * c[8], c[0] * c[8] - c[2] * c[6], c[2] * c[3] - c[0] * c[5],
    c[3] * c[7] - c[4] * c[6], c[1] * c[6] - c[0] * c[7], c[0] * c[4] - c[1] * c[3],
  ].map((v) => v / det);
  const f = [0, 1, 2].map((k) => d[0] * inverse[k] + d[1] * inverse[3 + k] + d[2] * inverse[6 + k]);
  for (let k = 0; k < 3; k++) if (pbc[3 * s + k] !== 0) f[k] -= Math.round(f[k]);
  for (let k = 0; k < 3; k++) d[k] = f[0] * c[k] + f[1] * c[3 + k] + f[2] * c[6 + k];
}

/**
 * The distance between atoms `i` and `j` of each system (indices within the system; the nearest periodic
 * image in periodic directions), in length units.
 *
 * @example
 * new BiasHook({ cv: distance(0, 1), potential: harmonic({ k: 10, center: 1.5 }) });
 */
export function distance(i: number, j: number): CollectiveVariable {
  const owner = 'distance';
  const a = atomIndex(owner, 'i', i);
  const b = atomIndex(owner, 'j', j);
  if (a === b) throw new HookmdRangeError('INVALID_PARAMETER', `${owner}: i and j must be two atoms, got ${showText(i)} twice`, { field: 'j', value: j });
  return {
    name: `distance(${a}, ${b})`,
    evaluate(batch: Batch): CollectiveValues {
      const x = batch.read('positions');
      const [cell, pbc] = [batch.read('cell'), batch.read('pbc')];
      const first = atomsOf(batch, a, owner);
      const second = atomsOf(batch, b, owner);
      const values = new Float64Array(batch.numSystems);
      const gradient = new Float64Array(x.length);
      for (let s = 0; s < values.length; s++) {
        const d = [0, 1, 2].map((k) => x[3 * second[s] + k] - x[3 * first[s] + k]);
        minimumImage(d, cell, pbc, s);
        const r = Math.hypot(d[0], d[1], d[2]);
        values[s] = r;
        for (let k = 0; k < 3; k++) {
          gradient[3 * second[s] + k] = d[k] / r;
          gradient[3 * first[s] + k] = -d[k] / r;
        }
      }
      return { values, gradient };
    },
  };
}

const AXES: Readonly<Record<string, number>> = { x: 0, y: 1, z: 2 };

/**
 * One Cartesian coordinate of atom `atom` of each system (its index within the system), in length units.
 *
 * @example
 * new BiasHook({ cv: coordinate(0, 'z'), potential: harmonic({ k: 5, center: [8, 9, 10, 11] }) });  // umbrella windows along z
 */
export function coordinate(atom: number, axis: 'x' | 'y' | 'z'): CollectiveVariable {
  const owner = 'coordinate';
  const index = atomIndex(owner, 'atom', atom);
  const k = AXES[axis];
  if (k === undefined) throw new HookmdTypeError('INVALID_PARAMETER', `${owner}: axis must be 'x', 'y' or 'z', got ${showValue(axis)}`, { field: 'axis', value: axis });
  return {
    name: `coordinate(${index}, ${axis})`,
    evaluate(batch: Batch): CollectiveValues {
      const x = batch.read('positions');
      const atoms = atomsOf(batch, index, owner);
      const gradient = new Float64Array(x.length);
      const values = Float64Array.from(atoms, (g) => {
        gradient[3 * g + k] = 1;
        return x[3 * g + k];
      });
      return { values, gradient };
    },
  };
}

function perSystem(owner: string, field: string, value: PerSystem): (system: number) => number {
  const check = (v: number): void => {
    if (!Number.isFinite(v)) throw new HookmdRangeError('INVALID_PARAMETER', `${owner}: ${field} must be finite, got ${showText(v)}`, { field, value: v });
  };
  if (typeof value === 'number') {
    check(value);
    return () => value;
  }
  Array.from(value).forEach(check);
  return (system) => {
    if (system >= value.length) {
      throw new HookmdRangeError('LENGTH_MISMATCH', `${owner}: ${field} has ${value.length} values, no value for system ${system}`, { field, value: value.length });
    }
    return value[system];
  };
}

/**
 * The harmonic bias U = ½·k·(s − center)²: a restraint, or one umbrella-sampling window per system when
 * `center` (or `k`) is given per system. k in energy per unit of s squared.
 *
 * @example
 * harmonic({ k: 20, center: [1.2, 1.4, 1.6, 1.8] });   // four umbrella windows, one per system
 */
export function harmonic(options: { k: PerSystem; center: PerSystem }): BiasPotential {
  const owner = 'harmonic';
  if (options === null || typeof options !== 'object') throw new HookmdTypeError('INVALID_PARAMETER', `${owner}: options must be { k, center }`, { field: 'options' });
  checkKeys(owner, options, ['k', 'center']);
  const k = perSystem(owner, 'k', options.k);
  const center = perSystem(owner, 'center', options.center);
  return {
    name: 'harmonic',
    at(s: number, system: number) {
      const delta = s - center(system);
      const stiffness = k(system);
      return { energy: 0.5 * stiffness * delta * delta, slope: stiffness * delta };
    },
  };
}
