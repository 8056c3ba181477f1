// The TS handle shared by the native potentials read from a LAMMPS file (EAM, Tersoff, StillingerWeber): the
// native object for engines, the compute of native-compute.ts, and the file it was read from.
import type { Batch } from '../data/index.js';
import type { NativeNeighborStats, NativePotential } from '../native/models-binding.js';
import type { ComputeOptions, Model, ModelDescription } from './model.js';
import { computeNative } from './native-compute.js';

export abstract class NativeFileModel implements Model {
  abstract readonly name: string;
  /** The largest cutoff the file sets (Å). */
  readonly cutoff: number;
  readonly #native: NativePotential;
  readonly #file: string;
  readonly #skin: number | undefined;

  protected constructor(native: NativePotential, file: string, skin: number | undefined) {
    this.#native = native;
    this.#file = file;
    this.#skin = skin;
    this.cutoff = native.cutoff;
  }

  /** The native potential, for the dynamics engine's native stepping loop. */
  get native(): NativePotential {
    return this.#native;
  }

  /**
   * Fills `batch.energy`, `batch.forces` (unless `forces: false`) and `batch.stress` (when `stress: true`).
   * Throws MISSING_SPECIES when an atom's element is not among the file's (or the chosen) elements.
   */
  compute(batch: Batch, options: ComputeOptions = {}): void {
    computeNative(this.name, this.#native, this.#skin, batch, options);
  }

  /** Neighbor-list counters: builds so far, pairs and bytes held now. */
  neighborStats(): NativeNeighborStats {
    return this.#native.neighborStats();
  }

  /** B×9 virial W = Σ d⊗F (eV) of the last compute with `stress: true`; σ = −W/V. */
  virial(): Float64Array {
    return this.#native.virial();
  }

  abstract describe(): ModelDescription;

  /** The model's name, file, cutoff and skin, with what `details` adds (format, style, elements). */
  protected describeWith(details: Record<string, unknown>): ModelDescription {
    return { name: this.name, cutoff: this.cutoff, file: this.#file, ...details, skin: this.#skin ?? 'units default (2.0 Å metal)' };
  }
}
