// The TS handle shared by the native pair potentials: it resolves the skin from the batch's units when the
// user gave none, syncs host mirrors around the native call, and exposes the native object for engines.
import { HookmdTypeError } from '../errors.js';
import { nativeBatchOf } from '../data/index.js';
import type { Batch } from '../data/index.js';
import type { NativeNeighborStats, NativePotential } from '../native/models-binding.js';
import type { ComputeOptions, Model, ModelDescription } from './model.js';
import type { ParsedPairOptions } from './pair-options.js';

function flag(model: string, options: ComputeOptions, name: 'forces' | 'stress', fallback: boolean): boolean {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') {
    throw new HookmdTypeError('INVALID_OPTIONS', `${model}.compute: ${name} must be a boolean, got ${JSON.stringify(value)}`, {
      field: name,
      value,
    });
  }
  return value;
}

/** Base of LennardJones and Morse: everything but the parameter names. */
export abstract class NativePairModel implements Model {
  readonly name: string;
  /** Largest pair cutoff (length units). */
  readonly cutoff: number;
  readonly #native: NativePotential;
  readonly #parsed: ParsedPairOptions;

  protected constructor(name: string, native: NativePotential, parsed: ParsedPairOptions) {
    this.name = name;
    this.cutoff = parsed.maxCutoff;
    this.#native = native;
    this.#parsed = parsed;
  }

  /** The native potential, for the dynamics engine's native stepping loop. */
  get native(): NativePotential {
    return this.#native;
  }

  /** The skin given at construction, or undefined: then each compute uses `batch.units.defaultSkin`. */
  get skin(): number | undefined {
    return this.#parsed.skin;
  }

  /**
   * Fills `batch.energy`, `batch.forces` (unless `forces: false`) and `batch.stress` (when `stress: true`).
   * Throws MISSING_PAIR when the batch holds a species pair without parameters.
   */
  compute(batch: Batch, options: ComputeOptions = {}): void {
    if (options === null || typeof options !== 'object') {
      throw new HookmdTypeError('INVALID_OPTIONS', `${this.name}.compute: options must be an object`, { field: 'options', value: options });
    }
    const forces = flag(this.name, options, 'forces', true);
    const stress = flag(this.name, options, 'stress', false);
    const native = nativeBatchOf(batch);
    const skin = this.#parsed.skin ?? batch.units.defaultSkin;
    if (this.#native.skin !== skin) this.#native.setSkin(skin);
    batch.commitHostViews();
    try {
      this.#native.compute(native, forces, stress);
    } catch (error) {
      // A compute that failed part-way may have overwritten some systems' results: none of the requested
      // ones can be trusted any more.
      batch.invalidateHostViews();
      batch.markResults({ energy: false, ...(forces ? { forces: false } : {}), ...(stress ? { stress: false } : {}) });
      throw error;
    }
    batch.invalidateHostViews();
    batch.markResults(forces ? { energy: true, forces: true, ...(stress ? { stress: true } : {}) } : { energy: true, ...(stress ? { stress: true } : {}) });
  }

  /** Neighbor-list counters: builds so far, pairs and bytes held now. */
  neighborStats(): NativeNeighborStats {
    return this.#native.neighborStats();
  }

  /** B×9 virial W = Σ_pairs d⊗F (energy units) of the last compute with `stress: true`; σ = −W/V. */
  virial(): Float64Array {
    return this.#native.virial();
  }

  describe(): ModelDescription {
    const { shift, switchOn, skin, pairs } = this.#parsed;
    return {
      name: this.name,
      cutoff: this.cutoff,
      skin: skin ?? 'units default (2.0 Å metal, 0.3 σ lj)',
      shift,
      switchOn: switchOn === 0 ? null : switchOn,
      pairs: structuredClone(pairs),
    };
  }
}
