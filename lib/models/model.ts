// The interface every force field implements: native pair potentials and JsModel alike. Engines and users
// call compute(batch); the dynamics engine also takes `native`, the handle its native stepping loop calls.
import type { Batch } from '../data/index.js';
import type { NativePotential } from '../native/models-binding.js';

/**
 * What a compute writes besides the energy.
 *
 * @example
 * model.compute(batch, { forces: false });   // energies only, forces untouched
 * model.compute(batch, { stress: true });    // energies, forces and stress
 */
export interface ComputeOptions {
  /** Write `batch.forces` (default true). */
  forces?: boolean;
  /** Write `batch.stress` (default false: it costs a few more operations per pair). */
  stress?: boolean;
}

/**
 * A JSON-friendly summary of a model and its parameters.
 *
 * @example
 * new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 }).describe();
 * // { name: 'LennardJones', cutoff: 2.5, skin: 'units default …', shift: false, switchOn: null,
 * //   pairs: { default: { epsilon: 1, sigma: 1, cutoff: 2.5 } } }
 */
export interface ModelDescription {
  readonly name: string;
  readonly cutoff: number;
  readonly [parameter: string]: unknown;
}

/**
 * A force field. `compute` fills `batch.energy` (B), `batch.forces` (N×3) and, when asked,
 * `batch.stress` (B×9, ASE's sign: σ = (1/V) ∂E/∂ε, negative under compression), in the batch's units.
 *
 * @example
 * const model: Model = new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });
 * model.compute(batch, { stress: true });
 * console.log(batch.energy[0], batch.stress.subarray(0, 9));
 */
export interface Model {
  /** 'LennardJones', 'Morse', or the JsModel's name. */
  readonly name: string;
  /** Largest interaction range (length units); Infinity when unknown (JsModel without one). */
  readonly cutoff: number;
  /** The native potential the dynamics engine calls directly; undefined for models computed in JS. */
  readonly native: NativePotential | undefined;
  /**
   * True for models whose compute returns a promise (OnnxModel, IpiModel): await it; engines await it in
   * `run()` and `runStream()`, and `runSync()` refuses them.
   */
  readonly asyncCompute?: boolean;
  compute(batch: Batch, options?: ComputeOptions): void | Promise<void>;
  describe(): ModelDescription;
}
