// JsModel: a force field computed by user code (an ML potential behind onnxruntime, a test double, ...).
// The callback's output is checked before it reaches the batch: lengths, and that every number is finite.
import { HookmdRangeError, HookmdTypeError } from '../errors.js';
import type { Batch } from '../data/index.js';
import { flattenNumbers } from '../data/flatten-numbers.js';
import { computeRequest } from './compute-options.js';
import type { ComputeOptions, Model, ModelDescription } from './model.js';
import { checkKeys } from '../option-keys.js';
import { showText } from '../describe-value.js';

/**
 * Nested arrays of numbers, flattened row-major (N×3 forces may be rows or flat).
 *
 * @example
 * const forces: NumericArray = [[0, 0, 1], [0, 0, -1]]; // the same as Float64Array.of(0, 0, 1, 0, 0, -1)
 */
export type NumericArray = number | ArrayLike<number> | ArrayLike<ArrayLike<number>> | ArrayLike<ArrayLike<ArrayLike<number>>>;

/**
 * What a JsModel callback returns, in the batch's units.
 *
 * @example
 * const result: JsModelResult = { energy: [-1.5], forces: new Float64Array(6) }; // one system, two atoms
 */
export interface JsModelResult {
  /** B energies (a bare number when B = 1). */
  energy: NumericArray;
  /** N×3 forces; required unless the compute asked for `forces: false`. */
  forces?: NumericArray;
  /** B×9 (or B×3×3) stress, ASE's sign convention; required when the compute asked for `stress: true`. */
  stress?: NumericArray;
}

/**
 * The user callback: reads the batch (positions, cell, atomicNumbers, ...) and returns its results.
 *
 * @example
 * const zero: JsModelFunction = (batch) => ({ energy: new Float64Array(batch.numSystems), forces: new Float64Array(3 * batch.numAtoms) });
 */
export type JsModelFunction = (batch: Batch, request: Required<ComputeOptions>) => JsModelResult;

/**
 * Options of `new JsModel(fn, ...)`.
 *
 * @example
 * new JsModel(fn, { name: 'MACE-MP-0', cutoff: 6 });
 */
export interface JsModelOptions {
  /** Name in logs and errors (default 'JsModel'). */
  name?: string;
  /** Interaction range, if the model has one (default Infinity). */
  cutoff?: number;
}

function isNumeric(value: unknown): value is NumericArray {
  return typeof value === 'number' || (value !== null && typeof value === 'object' && typeof (value as ArrayLike<unknown>).length === 'number');
}

/**
 * A model whose energy, forces and stress come from a JS callback: the way to plug in ML potentials.
 * Synchronous; the callback must not return a promise.
 *
 * @example
 * // A harmonic well around the origin, E = ½k|r|² per atom (one system):
 * const k = 2.0;
 * const well = new JsModel((batch) => {
 *   const x = batch.positions;
 *   let energy = 0;
 *   const forces = new Float64Array(x.length);
 *   for (let i = 0; i < x.length; i++) { energy += 0.5 * k * x[i] ** 2; forces[i] = -k * x[i]; }
 *   return { energy: [energy], forces };
 * }, { name: 'HarmonicWell' });
 * well.compute(batch);
 */
export class JsModel implements Model {
  readonly name: string;
  readonly cutoff: number;
  readonly #fn: JsModelFunction;

  constructor(fn: JsModelFunction, options: JsModelOptions = {}) {
    if (typeof fn !== 'function') {
      throw new HookmdTypeError('INVALID_MODEL', 'JsModel: expected a function (batch) => ({ energy, forces, stress? })', { field: 'fn', value: fn });
    }
    checkKeys('JsModel', options, ['name', 'cutoff']);
    const name = options.name ?? 'JsModel';
    if (typeof name !== 'string' || name.length === 0) {
      throw new HookmdTypeError('INVALID_PARAMETER', 'JsModel: name must be a non-empty string', { field: 'name', value: name });
    }
    const cutoff = options.cutoff ?? Infinity;
    if (typeof cutoff !== 'number' || Number.isNaN(cutoff) || cutoff <= 0) {
      throw new HookmdRangeError('INVALID_CUTOFF', `JsModel: cutoff must be a number > 0, got ${showText(cutoff)}`, { field: 'cutoff', value: cutoff });
    }
    this.#fn = fn;
    this.name = name;
    this.cutoff = cutoff;
  }

  /** Always undefined: engines call compute() from JS for this model. */
  get native(): undefined {
    return undefined;
  }

  /** Calls the callback and writes its checked results into the batch. */
  compute(batch: Batch, options: ComputeOptions = {}): void {
    const request = computeRequest(this.name, options);
    const result: unknown = this.#fn(batch, request);
    if (result !== null && typeof result === 'object' && typeof (result as { then?: unknown }).then === 'function') {
      throw new HookmdTypeError('ASYNC_MODEL', `${this.name}: the callback returned a promise; compute is synchronous`, { field: 'result' });
    }
    if (result === null || typeof result !== 'object') {
      throw new HookmdTypeError('INVALID_MODEL_OUTPUT', `${this.name}: the callback must return { energy, forces, stress? }, got ${showText(result)}`, {
        field: 'result',
        value: result,
      });
    }
    const output = result as Partial<JsModelResult>;
    const energy = this.#checked(output.energy, 'energy', batch.numSystems, true);
    const forces = this.#checked(output.forces, 'forces', 3 * batch.numAtoms, request.forces);
    const stress = this.#checked(output.stress, 'stress', 9 * batch.numSystems, request.stress);
    if (energy !== undefined) batch.energy.set(energy);
    if (forces !== undefined && request.forces) batch.forces.set(forces);
    if (stress !== undefined && request.stress) batch.stress.set(stress);
    // The callback may have read positions through the writing getter; what it returned belongs to them.
    batch.markResults({ energy: true, ...(request.forces ? { forces: true } : {}), ...(request.stress ? { stress: true } : {}) });
  }

  describe(): ModelDescription {
    return { name: this.name, cutoff: this.cutoff, kind: 'JsModel' };
  }

  /** The flattened output `field` of `length` finite numbers; undefined when absent and not required. */
  #checked(value: unknown, field: string, length: number, required: boolean): Float64Array | undefined {
    if (value === undefined && !required) return undefined;
    if (!isNumeric(value)) {
      throw new HookmdTypeError('INVALID_MODEL_OUTPUT', `${this.name}: the callback's ${field} must be a number array, got ${showText(value)}`, {
        field,
        value,
      });
    }
    // NumericArray nests at most three levels (B×3×3 stress); the shape is checked before anything is copied.
    return flattenNumbers(value, length, { owner: this.name, field: `the callback's ${field}`, code: 'INVALID_MODEL_OUTPUT', maxDepth: 3 });
  }
}
