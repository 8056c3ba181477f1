// The TS handle shared by the native pair potentials: the parameters they were built from, the compute of
// native-compute.ts, and the native object for engines.
import type { Batch } from '../data/index.js';
import type { NativeNeighborStats, NativePotential } from '../native/models-binding.js';
import type { ComputeOptions, Model, ModelDescription } from './model.js';
import { computeNative } from './native-compute.js';
import type { ParsedPairOptions } from './pair-options.js';

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
    computeNative(this.name, this.#native, this.#parsed.skin, batch, options);
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
