// MsdHook and VacfHook: per system, the average over its atoms of the current per-atom vector against the
// one it had when the hook first saw the system, as LAMMPS's compute msd and compute vacf give them (their
// fourth value, the total): MSD(t) = ⟨|r(t) − r(0)|²⟩, VACF(t) = ⟨v(0)·v(t)⟩, t = 0 being the state a run
// starts in (or a streamed system enters with). Systems are keyed by systemId.
import type { Batch } from '../../data/index.js';
import { checkKeys } from '../../option-keys.js';
import type { DynamicsContext, Trigger } from '../../hooks/index.js';
import { DynamicsStage } from '../stage.js';
import { stepsTaken } from '../state-observers.js';
import { checkFrequency } from './builtin-options.js';
import { multiplesOf } from './logging-hook.js';

/** Options of `MsdHook` and `VacfHook`. */
export interface ReferenceSeriesOptions {
  /** Fire every `frequency` steps (default 100). */
  frequency?: number;
  name?: string;
}

/** One system's series: the steps the hook fired at and the value at each. */
export interface Series {
  readonly steps: readonly number[];
  readonly values: readonly number[];
}

abstract class ReferenceSeriesHook {
  readonly stage: DynamicsStage = DynamicsStage.AFTER_STEP;
  readonly frequency: number;
  readonly trigger: Trigger | undefined;
  readonly name: string;
  readonly #field: 'positions' | 'velocities';
  readonly #reference = new Map<number, Float64Array>();
  readonly #series = new Map<number, { steps: number[]; values: number[] }>();

  protected constructor(owner: string, field: 'positions' | 'velocities', options: ReferenceSeriesOptions) {
    checkKeys(owner, options, ['frequency', 'name']);
    this.frequency = checkFrequency(owner, options.frequency ?? 100);
    // The states a log records (docs/dynamics.md, "Logs and trajectories"): the input (step 0), every
    // multiple of `frequency` steps, and the last, so the series lines up with a LoggingHook's rows.
    this.trigger = multiplesOf(this.stage, this.frequency);
    this.name = options.name ?? owner;
    this.#field = field;
  }

  /** The value for one atom, from its vector now (`now[k..k+2]`) and at the reference. */
  protected abstract term(now: Float64Array, reference: Float64Array, k: number, r: number): number;

  call(ctx: DynamicsContext<Batch, unknown, DynamicsStage>): void {
    this.#record(ctx.batch, stepsTaken(this.stage, ctx.stepCount), null);
  }

  /** The state a run starts or ends in (after `ctx.stepCount` steps), for the systems in `systems` (null: all). */
  observeState(ctx: DynamicsContext<Batch, unknown, DynamicsStage>, systems: Uint8Array | null): void {
    this.#record(ctx.batch, ctx.stepCount, systems);
  }

  #record(batch: Batch, step: number, systems: Uint8Array | null): void {
    const values = batch.read(this.#field);
    const ptr = batch.read('ptr');
    const ids = batch.read('systemId');
    for (let s = 0; s < batch.numSystems; s++) {
      const seen = this.#series.get(ids[s]);
      if ((systems !== null && systems[s] === 0) || seen?.steps.at(-1) === step) continue;
      const [begin, end] = [3 * ptr[s], 3 * ptr[s + 1]];
      let reference = this.#reference.get(ids[s]);
      if (reference === undefined) {
        reference = values.slice(begin, end);
        this.#reference.set(ids[s], reference);
      }
      let sum = 0;
      for (let k = begin; k < end; k += 3) sum += this.term(values, reference, k, k - begin);
      const series = seen ?? { steps: [], values: [] };
      series.steps.push(step);
      series.values.push(end > begin ? sum / ((end - begin) / 3) : 0);
      this.#series.set(ids[s], series);
    }
  }

  /**
   * A LoggingHook column of each system's latest value (empty before the first): register this hook before
   * the LoggingHook with the same frequency, so that each row gets the value of its own state.
   *
   * @example
   * new LoggingHook({ path: 'md.csv', frequency: 100, columns: { msd: msd.column } });
   */
  get column(): (ctx: { readonly batch: Batch }, system: number) => number | string {
    return (ctx, system) => this.#series.get(ctx.batch.read('systemId')[system])?.values.at(-1) ?? '';
  }

  /** System `systemId`'s series so far; undefined before the hook first saw it. */
  series(systemId: number): Series | undefined {
    return this.#series.get(systemId);
  }
}

/**
 * Mean squared displacement per system, ⟨|r(t) − r(0)|²⟩ over its atoms (LAMMPS compute msd, its total), at
 * the states a log records (the input, every `frequency` steps, the last), from the input's positions. Positions are the
 * engine's, which no engine wraps: with a WrapPeriodicHook in the run, atoms that cross the cell would jump.
 *
 * @example
 * const msd = new MsdHook({ frequency: 10 });
 * await md.run(batch, { steps: 1000 });
 * msd.series(0); // { steps: [0, 10, ...], values: [0, ...] } (Å²)
 */
export class MsdHook extends ReferenceSeriesHook {
  constructor(options: ReferenceSeriesOptions = {}) {
    super('MsdHook', 'positions', options);
  }

  protected override term(now: Float64Array, reference: Float64Array, k: number, r: number): number {
    return (now[k] - reference[r]) ** 2 + (now[k + 1] - reference[r + 1]) ** 2 + (now[k + 2] - reference[r + 2]) ** 2;
  }
}

/**
 * Velocity autocorrelation per system, ⟨v(0)·v(t)⟩ over its atoms (LAMMPS compute vacf, its total), at
 * the states a log records (the input, every `frequency` steps, the last), from the input's velocities.
 *
 * @example
 * const vacf = new VacfHook({ frequency: 2 });
 * await md.run(batch, { steps: 500 });
 * vacf.series(0); // (Å/fs)²
 */
export class VacfHook extends ReferenceSeriesHook {
  constructor(options: ReferenceSeriesOptions = {}) {
    super('VacfHook', 'velocities', options);
  }

  protected override term(now: Float64Array, reference: Float64Array, k: number, r: number): number {
    return now[k] * reference[r] + now[k + 1] * reference[r + 1] + now[k + 2] * reference[r + 2];
  }
}
