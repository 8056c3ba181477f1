// EnergyDriftMonitorHook: watches the total energy of NVE runs.
import type { Batch } from '../../data/index.js';
import { nativeBatchOf } from '../../data/index.js';
import { HookmdError, HookmdRangeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import type { DynamicsContext } from '../../hooks/index.js';
import { DynamicsStage } from '../stage.js';
import { checkFrequency } from './builtin-options.js';

/** Options of `EnergyDriftMonitorHook`. */
export interface EnergyDriftOptions {
  /** Check every `frequency` steps (default 100). */
  frequency?: number;
  /** Relative drift |E − E₀|/|E₀| per system that fails the run (default: never fail, only record). */
  maxRelativeDrift?: number;
  name?: string;
}

/**
 * Records each system's total energy E = potential + kinetic at AFTER_STEP and its drift from the first
 * check. With `maxRelativeDrift`, a larger drift throws ENERGY_DRIFT naming the systems.
 *
 * @example
 * const drift = new EnergyDriftMonitorHook({ frequency: 100 });
 * await new VelocityVerlet({ model, dt: 0.005, hooks: [drift] }).run(batch, { steps: 1000 });
 * console.log(drift.maxRelativeDrift());
 */
export class EnergyDriftMonitorHook {
  readonly stage: DynamicsStage = DynamicsStage.AFTER_STEP;
  readonly frequency: number;
  readonly name: string;
  readonly limit: number | undefined;
  /** Per check: the step and the per-system total energies. */
  readonly history: Array<{ step: number; total: Float64Array }> = [];

  constructor(options: EnergyDriftOptions = {}) {
    checkKeys('EnergyDriftMonitorHook', options, ['frequency', 'maxRelativeDrift', 'name']);
    this.frequency = checkFrequency('EnergyDriftMonitorHook', options.frequency ?? 100);
    if (options.maxRelativeDrift !== undefined && !(options.maxRelativeDrift > 0)) {
      throw new HookmdRangeError('INVALID_PARAMETER', `EnergyDriftMonitorHook: maxRelativeDrift must be > 0, got ${options.maxRelativeDrift}`, {
        field: 'maxRelativeDrift',
        value: options.maxRelativeDrift,
      });
    }
    this.limit = options.maxRelativeDrift;
    this.name = options.name ?? 'EnergyDriftMonitorHook';
  }

  call(ctx: DynamicsContext<Batch, unknown, DynamicsStage>): void {
    const kinetic = nativeBatchOf(ctx.batch).kineticEnergy();
    const potential = ctx.batch.read('energy');
    const total = Float64Array.from(kinetic, (k, s) => k + potential[s]);
    this.history.push({ step: ctx.stepCount, total });
    const drift = this.relativeDrift();
    if (this.limit === undefined) return;
    const bad = [...drift].flatMap((d, s) => (d > (this.limit as number) ? [s] : []));
    if (bad.length > 0) {
      throw new HookmdError('ENERGY_DRIFT', `EnergyDriftMonitorHook: relative energy drift above ${this.limit} at step ${ctx.stepCount} in systems ${bad.join(', ')}`, {
        step: ctx.stepCount,
        systems: bad,
      });
    }
  }

  /** |E − E₀| / |E₀| per system at the latest check. */
  relativeDrift(): Float64Array {
    const first = this.history[0]?.total;
    const last = this.history[this.history.length - 1]?.total;
    if (first === undefined || last === undefined) return new Float64Array(0);
    return Float64Array.from(last, (e, s) => Math.abs(e - first[s]) / Math.max(Math.abs(first[s]), Number.MIN_VALUE));
  }

  /** The largest relative drift seen at any check, over all systems. */
  maxRelativeDrift(): number {
    const first = this.history[0]?.total;
    if (first === undefined) return 0;
    let max = 0;
    for (const { total } of this.history) {
      total.forEach((e, s) => {
        max = Math.max(max, Math.abs(e - first[s]) / Math.max(Math.abs(first[s]), Number.MIN_VALUE));
      });
    }
    return max;
  }

  stateDict(): unknown {
    return { history: this.history.map(({ step, total }) => ({ step, total: Array.from(total) })) };
  }

  loadStateDict(state: unknown): void {
    const history = (state as { history?: Array<{ step: number; total: number[] }> })?.history ?? [];
    this.history.splice(0, this.history.length, ...history.map(({ step, total }) => ({ step, total: Float64Array.from(total) })));
  }
}
