// ProgressHook: a progress callback (or line on stderr) every few steps.
import type { Batch } from '../../data/index.js';
import { registerHookType, type DynamicsContext } from '../../hooks/index.js';
import type { EngineModel } from '../engine-model.js';
import { SystemScalars } from '../scalars.js';
import { DynamicsStage } from '../stage.js';
import type { Trigger } from '../../hooks/index.js';
import { checkFrequency } from './builtin-options.js';
import { multiplesOf } from './logging-hook.js';
import { checkKeys } from '../../option-keys.js';

/** What ProgressHook reports. */
export interface ProgressEvent {
  /** Steps taken: the event describes the state after this many steps (the engine's count, across runs). */
  step: number;
  numSystems: number;
  /** Systems whose status reached the engine's exitStatus. */
  converged: number;
  /** Steps per second since the previous report. */
  stepsPerSecond: number;
  /** Mean kinetic temperature over the systems (K in metal units). */
  temperature: number;
  /** Mean total (potential + kinetic) energy per system (eV in metal units). */
  totalEnergy: number;
  /** Largest per-atom force over every system (eV/Å in metal units). */
  fmax: number;
  /** Mean pressure over the systems (eV/Å³ in metal units); only with `pressure: true`. */
  pressure?: number;
}

function mean(values: Float64Array): number {
  let sum = 0;
  for (const v of values) sum += v;
  return values.length === 0 ? 0 : sum / values.length;
}

/**
 * Reports progress at AFTER_STEP every `frequency` steps, to `onProgress` or as a line on stderr. Each event
 * describes the state after `step` steps, a multiple of `frequency` (as a log row of that step does).
 *
 * @example
 * new FIRE({ model, hooks: [new ProgressHook({ frequency: 50, onProgress: (e) => bar.update(e.step) })] });
 */
export class ProgressHook {
  readonly stage: DynamicsStage = DynamicsStage.AFTER_STEP;
  readonly frequency: number;
  /** Fires when the state at AFTER_STEP is that after a multiple of `frequency` steps. */
  readonly trigger: Trigger | undefined;
  readonly name = 'ProgressHook';
  /** With `pressure: true` the reported steps compute the stress. */
  readonly needs: readonly string[];
  readonly #pressure: boolean;
  readonly #onProgress: (event: ProgressEvent) => void;
  #last: { step: number; at: number } | undefined;

  /** `pressure: true` adds the mean pressure to each event (and the stress to the reported steps). */
  constructor(options: { frequency?: number; onProgress?: (event: ProgressEvent) => void; pressure?: boolean } = {}) {
    checkKeys('ProgressHook', options, ['frequency', 'onProgress', 'pressure']);
    this.frequency = checkFrequency('ProgressHook', options.frequency ?? 100);
    this.trigger = multiplesOf(this.stage, this.frequency);
    this.#pressure = options.pressure === true;
    this.needs = this.#pressure ? ['stress'] : [];
    this.#onProgress =
      options.onProgress ??
      ((e) => process.stderr.write(`step ${e.step}: ${e.converged}/${e.numSystems} converged, T ${e.temperature.toFixed(1)}, E ${e.totalEnergy.toPrecision(8)}, fmax ${e.fmax.toExponential(2)}, ${e.stepsPerSecond.toFixed(0)} steps/s\n`));
  }

  call(ctx: DynamicsContext<Batch, unknown, DynamicsStage>): void {
    const now = performance.now();
    const exitStatus = (ctx.workflow as { exitStatus?: number } | undefined)?.exitStatus ?? 1;
    const status = ctx.batch.read('status');
    let converged = 0;
    for (let s = 0; s < status.length; s++) if (status[s] >= exitStatus) converged++;
    const last = this.#last;
    // At AFTER_STEP of step k the systems have taken k + 1 steps.
    const step = ctx.stepCount + 1;
    const stepsPerSecond = last === undefined || now === last.at ? 0 : ((step - last.step) * 1000) / (now - last.at);
    this.#last = { step, at: now };
    // Native reductions over the batch: nothing per atom crosses into JS.
    const scalars = (ctx as { scalars?: SystemScalars }).scalars ?? new SystemScalars(ctx.batch, ctx.model as EngineModel | undefined);
    const kinetic = scalars.kineticEnergy;
    const total = Float64Array.from(scalars.energy, (e, s) => e + kinetic[s]);
    const fmax = scalars.fmax.reduce((a, b) => Math.max(a, b), 0);
    const event: ProgressEvent = { step, numSystems: ctx.batch.numSystems, converged, stepsPerSecond, temperature: mean(scalars.temperature), totalEnergy: mean(total), fmax };
    if (this.#pressure) event.pressure = mean(scalars.pressure);
    this.#onProgress(event);
  }
}

// From a config there is no callback to pass, so ProgressHook prints its line on stderr.
registerHookType('ProgressHook', (args) => new ProgressHook(args as { frequency?: number }));
