// EarlyStoppingHook: stops a fit when a monitored metric stops improving, crosses a threshold, or stops
// being finite (PyTorch Lightning's EarlyStopping, same options and order of checks).
import { HookmdError, HookmdTypeError } from '../../errors.js';
import { registerHookType } from '../../hooks/index.js';
import type { TrainingHookContext } from '../context.js';
import { checkKeys, integerOption, modeOption, numberOption, readMetric, stringOption } from '../options.js';
import { trainingStage, TrainingStage } from '../stage.js';

/**
 * Options of `new EarlyStoppingHook`.
 *
 * @example
 * const options: EarlyStoppingOptions = { monitor: 'val_loss', mode: 'min', patience: 10, minDelta: 1e-6 };
 */
export interface EarlyStoppingOptions {
  /** The ctx.metrics entry to watch (default 'val_loss'). */
  monitor?: string;
  /** 'min' (default): lower is better. */
  mode?: 'min' | 'max';
  /** Checks without improvement before stopping (default 3). */
  patience?: number;
  /** An improvement must beat the best by more than this (default 0). */
  minDelta?: number;
  /** Stop when the metric is NaN or infinite (default true). */
  checkFinite?: boolean;
  /** Stop once the metric is better than this. */
  stoppingThreshold?: number | null;
  /** Stop once the metric is worse than this. */
  divergenceThreshold?: number | null;
  /** Where to check (default AFTER_EPOCH; AFTER_VALIDATION also works for val_* metrics). */
  stage?: TrainingStage | keyof typeof TrainingStage;
  name?: string;
}

/**
 * Requests a stop (ctx.requestStop) when `monitor` has not improved by more than `minDelta` for
 * `patience` consecutive checks, when it crosses `stoppingThreshold` or `divergenceThreshold`, or when it
 * is not finite. The run then ends at the end of the current epoch.
 *
 * @example
 * const trainer = new Trainer({ model, train, validation, epochs: 500, hooks: [new EarlyStoppingHook({ patience: 20 })] });
 * const { stopped } = await trainer.fit(); // { reason: 'val_loss did not improve …', by: 'EarlyStoppingHook' }
 */
export class EarlyStoppingHook {
  readonly stage: TrainingStage;
  readonly frequency = 1;
  readonly name: string;
  readonly monitor: string;
  readonly mode: 'min' | 'max';
  readonly patience: number;
  readonly minDelta: number;
  readonly checkFinite: boolean;
  readonly stoppingThreshold: number | null;
  readonly divergenceThreshold: number | null;
  readonly config: Readonly<Record<string, unknown>>;
  /** The best value seen, or null before the first check. */
  bestScore: number | null = null;
  /** Checks since the last improvement. */
  wait = 0;
  /** The epoch at which it asked to stop, or null. */
  stoppedEpoch: number | null = null;

  constructor(options: EarlyStoppingOptions = {}) {
    const owner = 'EarlyStoppingHook';
    const given = checkKeys(owner, options, ['monitor', 'mode', 'patience', 'minDelta', 'checkFinite', 'stoppingThreshold', 'divergenceThreshold', 'stage', 'name']);
    this.monitor = stringOption(owner, 'monitor', given.monitor ?? 'val_loss');
    this.mode = modeOption(owner, given.mode);
    this.patience = integerOption(owner, 'patience', given.patience ?? 3, 1);
    this.minDelta = numberOption(owner, 'minDelta', given.minDelta ?? 0, 0);
    const checkFinite = given.checkFinite ?? true;
    if (typeof checkFinite !== 'boolean') {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: checkFinite must be a boolean, got ${JSON.stringify(checkFinite)}`, { field: 'checkFinite', value: checkFinite });
    }
    this.checkFinite = checkFinite;
    const threshold = (field: string): number | null => (given[field] == null ? null : numberOption(owner, field, given[field], -Infinity));
    this.stoppingThreshold = threshold('stoppingThreshold');
    this.divergenceThreshold = threshold('divergenceThreshold');
    this.stage = trainingStage(given.stage ?? TrainingStage.AFTER_EPOCH, owner);
    this.name = given.name === undefined ? owner : stringOption(owner, 'name', given.name);
    this.config = Object.freeze({
      type: owner, monitor: this.monitor, mode: this.mode, patience: this.patience, minDelta: this.minDelta, checkFinite: this.checkFinite,
      stoppingThreshold: this.stoppingThreshold, divergenceThreshold: this.divergenceThreshold, stage: this.stage, name: this.name,
    });
  }

  call(ctx: TrainingHookContext): void {
    const reason = this.#check(readMetric(this.name, ctx.metrics, this.monitor));
    if (reason === null) return;
    this.stoppedEpoch = ctx.epoch;
    ctx.requestStop(reason);
  }

  stateDict(): Record<string, unknown> {
    return { bestScore: this.bestScore, wait: this.wait, stoppedEpoch: this.stoppedEpoch };
  }

  loadStateDict(state: unknown): void {
    const s = (state ?? {}) as Record<string, unknown>;
    if ((s.bestScore !== null && typeof s.bestScore !== 'number') || !Number.isInteger(s.wait) || (s.stoppedEpoch !== null && !Number.isInteger(s.stoppedEpoch))) {
      throw new HookmdError('INVALID_CHECKPOINT', `${this.name}.loadStateDict: expected { bestScore, wait, stoppedEpoch }`, { value: state });
    }
    this.bestScore = s.bestScore as number | null;
    this.wait = s.wait as number;
    this.stoppedEpoch = s.stoppedEpoch as number | null;
  }

  // The reason to stop after seeing `current`, or null to go on.
  #check(current: number): string | null {
    const better = (a: number, b: number): boolean => (this.mode === 'min' ? a < b : a > b);
    const best = this.bestScore;
    if (this.checkFinite && !Number.isFinite(current)) {
      return `${this.monitor} = ${current} is not finite; the best was ${best}`;
    }
    if (this.stoppingThreshold !== null && better(current, this.stoppingThreshold)) {
      return `${this.monitor} = ${current} reached the stopping threshold ${this.stoppingThreshold}`;
    }
    if (this.divergenceThreshold !== null && better(this.divergenceThreshold, current)) {
      return `${this.monitor} = ${current} crossed the divergence threshold ${this.divergenceThreshold}`;
    }
    // An improvement beats the best by more than minDelta: current + minDelta < best for 'min'.
    const shifted = this.mode === 'min' ? current + this.minDelta : current - this.minDelta;
    if (best === null ? !Number.isNaN(current) : better(shifted, best)) {
      this.bestScore = current;
      this.wait = 0;
      return null;
    }
    this.wait += 1;
    return this.wait >= this.patience ? `${this.monitor} did not improve in the last ${this.wait} checks; the best was ${best}` : null;
  }
}

registerHookType('EarlyStoppingHook', (args) => new EarlyStoppingHook(args as EarlyStoppingOptions));
