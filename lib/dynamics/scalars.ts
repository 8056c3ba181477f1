// Per-system scalars for hooks: computed natively on first access within a dispatch and cached for the
// rest of it, so hooks that never read them cost nothing.
import { nativeBatchOf, type Batch } from '../data/index.js';

/**
 * Energy, kinetic energy, temperature and fmax per system, as hooks see them in `ctx.scalars`.
 *
 * @example
 * md.register({ stage: DynamicsStage.AFTER_STEP, frequency: 100, call: (ctx) => console.log(ctx.scalars.temperature) });
 */
export class SystemScalars {
  readonly #batch: Batch;
  #kinetic: Float64Array | undefined;
  #temperature: Float64Array | undefined;
  #fmax: Float64Array | undefined;

  constructor(batch: Batch) {
    this.#batch = batch;
  }

  /** Potential energy per system (energy units). */
  get energy(): Float64Array {
    return this.#batch.read('energy');
  }

  /** Kinetic energy per system, ½Σmv² (energy units). */
  get kineticEnergy(): Float64Array {
    return (this.#kinetic ??= nativeBatchOf(this.#batch).kineticEnergy());
  }

  /** Kinetic temperature per system, 2·KE/(3N·k_B) (ASE's convention). */
  get temperature(): Float64Array {
    if (this.#temperature === undefined) {
      const n = this.#batch.read('numAtoms');
      const kB = this.#batch.units.kB;
      this.#temperature = Float64Array.from(this.kineticEnergy, (k, s) => (n[s] > 0 ? (2 * k) / (3 * n[s] * kB) : 0));
    }
    return this.#temperature;
  }

  /** Largest per-atom force norm per system. */
  get fmax(): Float64Array {
    return (this.#fmax ??= nativeBatchOf(this.#batch).fmax());
  }

  /** @internal Forgets cached values; the engine calls it before each dispatch. */
  invalidate(): void {
    this.#kinetic = undefined;
    this.#temperature = undefined;
    this.#fmax = undefined;
  }
}
