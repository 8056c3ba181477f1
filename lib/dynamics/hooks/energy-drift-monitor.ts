// EnergyDriftMonitorHook: watches the total energy of NVE runs.
import type { Batch } from '../../data/index.js';
import { nativeBatchOf } from '../../data/index.js';
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import { registerHookType, type DynamicsContext } from '../../hooks/index.js';
import { DynamicsStage } from '../stage.js';
import { checkFrequency } from './builtin-options.js';
import { showText, showValue } from '../../describe-value.js';

/**
 * How drift is measured per system, from E₀ at the first check: `relative` |E − E₀|/|E₀|, `absolute`
 * |E − E₀| (energy units), `perAtomPerStep` |E − E₀|/(N·steps) (nvalchemi's per_atom_per_step).
 */
export type DriftMetric = 'relative' | 'absolute' | 'perAtomPerStep';

/** Options of `EnergyDriftMonitorHook`. */
export interface EnergyDriftOptions {
  /** Check every `frequency` steps (default 100). */
  frequency?: number;
  /** The drift measure compared with `threshold` (default 'relative'). */
  metric?: DriftMetric;
  /** A larger drift triggers `action` (default: none, only record). */
  threshold?: number;
  /** What a drift above `threshold` does: 'warn' logs and goes on (default, nvalchemi's), 'raise' throws ENERGY_DRIFT. */
  action?: 'warn' | 'raise';
  /** Monitor E_pot + E_kin (default true) or E_pot alone. */
  includeKinetic?: boolean;
  /** Shorthand for `{ metric: 'relative', threshold, action: 'raise' }`. */
  maxRelativeDrift?: number;
  name?: string;
}

/**
 * Records each system's energy E (potential + kinetic, or potential alone without `includeKinetic`) at
 * AFTER_STEP and its drift from the first check. With `threshold`, a larger drift (in `metric`) warns or,
 * with `action: 'raise'` (or `maxRelativeDrift`), throws ENERGY_DRIFT naming the systems.
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
  /** The threshold of `metric`, or undefined (record only). */
  readonly limit: number | undefined;
  readonly metric: DriftMetric;
  readonly action: 'warn' | 'raise';
  readonly includeKinetic: boolean;
  /** Per check: the step and the per-system energies (total, or potential without includeKinetic). */
  readonly history: Array<{ step: number; total: Float64Array }> = [];
  #atoms: Int32Array | undefined;

  constructor(options: EnergyDriftOptions = {}) {
    const owner = 'EnergyDriftMonitorHook';
    checkKeys(owner, options, ['frequency', 'metric', 'threshold', 'action', 'includeKinetic', 'maxRelativeDrift', 'name']);
    this.frequency = checkFrequency(owner, options.frequency ?? 100);
    if (options.maxRelativeDrift !== undefined && options.threshold !== undefined) {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: give threshold or maxRelativeDrift, not both`, { field: 'maxRelativeDrift', value: options.maxRelativeDrift });
    }
    const limit = options.maxRelativeDrift ?? options.threshold;
    if (limit !== undefined && !(limit > 0)) {
      const field = options.maxRelativeDrift !== undefined ? 'maxRelativeDrift' : 'threshold';
      throw new HookmdRangeError('INVALID_PARAMETER', `${owner}: ${field} must be > 0, got ${showText(limit)}`, { field, value: limit });
    }
    const metric = options.maxRelativeDrift !== undefined ? 'relative' : (options.metric ?? 'relative');
    if (!['relative', 'absolute', 'perAtomPerStep'].includes(metric)) {
      throw new HookmdTypeError('INVALID_PARAMETER', `${owner}: metric must be 'relative', 'absolute' or 'perAtomPerStep', got ${showValue(metric)}`, { field: 'metric', value: metric });
    }
    const action = options.action ?? (options.maxRelativeDrift !== undefined ? 'raise' : 'warn');
    if (action !== 'warn' && action !== 'raise') {
      throw new HookmdTypeError('INVALID_PARAMETER', `${owner}: action must be 'warn' or 'raise', got ${showValue(action)}`, { field: 'action', value: action });
    }
    if (options.includeKinetic !== undefined && typeof options.includeKinetic !== 'boolean') {
      throw new HookmdTypeError('INVALID_PARAMETER', `${owner}: includeKinetic must be a boolean`, { field: 'includeKinetic', value: options.includeKinetic });
    }
    this.limit = limit;
    this.metric = metric;
    this.action = action;
    this.includeKinetic = options.includeKinetic ?? true;
    this.name = options.name ?? owner;
  }

  call(ctx: DynamicsContext<Batch, unknown, DynamicsStage>): void {
    const potential = ctx.batch.read('energy');
    const kinetic = this.includeKinetic ? nativeBatchOf(ctx.batch).kineticEnergy() : new Float64Array(potential.length);
    const total = Float64Array.from(kinetic, (k, s) => k + potential[s]);
    this.#atoms = ctx.batch.read('numAtoms');
    this.history.push({ step: ctx.stepCount, total });
    if (this.limit === undefined) return;
    const drift = this.drift();
    const bad = [...drift].flatMap((d, s) => (d > (this.limit as number) ? [s] : []));
    if (bad.length === 0) return;
    const message = `${this.name}: ${this.metric} energy drift above ${this.limit} at step ${ctx.stepCount} in systems ${bad.join(', ')}`;
    if (this.action === 'raise') throw new HookmdError('ENERGY_DRIFT', message, { step: ctx.stepCount, systems: bad, metric: this.metric });
    console.warn(message);
  }

  /** The drift per system at the latest check, in `metric`. */
  drift(): Float64Array {
    const first = this.history[0];
    const last = this.history[this.history.length - 1];
    if (first === undefined || last === undefined) return new Float64Array(0);
    const steps = last.step - first.step;
    return Float64Array.from(last.total, (e, s) => {
      const change = Math.abs(e - first.total[s]);
      if (this.metric === 'absolute') return change;
      if (this.metric === 'perAtomPerStep') return steps === 0 ? 0 : change / (Math.max(this.#atoms?.[s] ?? 1, 1) * steps);
      return change / Math.max(Math.abs(first.total[s]), Number.MIN_VALUE);
    });
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

registerHookType('EnergyDriftMonitorHook', (args) => new EnergyDriftMonitorHook(args as EnergyDriftOptions));
