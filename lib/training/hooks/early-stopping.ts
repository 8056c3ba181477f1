// EarlyStoppingHook: stops a fit when a monitored metric stops improving, crosses a threshold, or stops
// being finite (PyTorch Lightning's EarlyStopping, same options and order of checks).
import { HookmdError, HookmdTypeError } from '../../errors.js';
import { registerHookType, type ErrorPolicy } from '../../hooks/index.js';
import type { TrainingHookContext } from '../context.js';
import { BUILTIN_OPTION_KEYS, builtinOptions, type BuiltinHookOptions } from './builtin-options.js';
import { findMetric } from '../metric-names.js';
import { checkKeys, integerOption, modeOption, numberOption, readMetric, stringOption } from '../options.js';
import { trainingStage, TrainingStage } from '../stage.js';
import { showValue } from '../../describe-value.js';

/**
 * Options of `new EarlyStoppingHook`.
 *
 * @example
 * const options: EarlyStoppingOptions = { monitor: 'val_loss', mode: 'min', patience: 10, minDelta: 1e-6 };
 */
export interface EarlyStoppingOptions extends BuiltinHookOptions {
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
  /**
   * A missing metric is METRIC_NOT_FOUND (default true); false skips the check with a warning to the
   * trainer's logger instead (Lightning's `strict`).
   */
  strict?: boolean;
  /** Report each improvement and the stop to the trainer's logger (`info`, else `warn`; default false). */
  verbose?: boolean;
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
  /** Built-in hooks run after user hooks at every stage. */
  readonly tier = 'builtin' as const;
  readonly order: number;
  readonly errorPolicy: ErrorPolicy;
  readonly name: string;
  readonly monitor: string;
  readonly mode: 'min' | 'max';
  readonly patience: number;
  readonly minDelta: number;
  readonly checkFinite: boolean;
  readonly strict: boolean;
  readonly verbose: boolean;
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
    const given = checkKeys(owner, options, ['monitor', 'mode', 'patience', 'minDelta', 'checkFinite', 'stoppingThreshold', 'divergenceThreshold', 'stage', 'strict', 'verbose', 'name',
      ...BUILTIN_OPTION_KEYS]);
    this.monitor = stringOption(owner, 'monitor', given.monitor ?? 'val_loss');
    this.mode = modeOption(owner, given.mode);
    this.patience = integerOption(owner, 'patience', given.patience ?? 3, 1);
    this.minDelta = numberOption(owner, 'minDelta', given.minDelta ?? 0, 0);
    const flag = (field: string, fallback: boolean): boolean => {
      const value = given[field] ?? fallback;
      if (typeof value !== 'boolean') throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: ${field} must be a boolean, got ${showValue(value)}`, { field, value });
      return value;
    };
    this.checkFinite = flag('checkFinite', true);
    this.strict = flag('strict', true);
    this.verbose = flag('verbose', false);
    const threshold = (field: string): number | null => (given[field] == null ? null : numberOption(owner, field, given[field], -Infinity));
    this.stoppingThreshold = threshold('stoppingThreshold');
    this.divergenceThreshold = threshold('divergenceThreshold');
    this.stage = trainingStage(given.stage ?? TrainingStage.AFTER_EPOCH, owner);
    this.name = given.name === undefined ? owner : stringOption(owner, 'name', given.name);
    ({ order: this.order, errorPolicy: this.errorPolicy } = builtinOptions(owner, given));
    this.config = Object.freeze({
      type: owner, monitor: this.monitor, mode: this.mode, patience: this.patience, minDelta: this.minDelta, checkFinite: this.checkFinite,
      stoppingThreshold: this.stoppingThreshold, divergenceThreshold: this.divergenceThreshold, stage: this.stage, strict: this.strict,
      verbose: this.verbose, name: this.name,
    });
  }

  call(ctx: TrainingHookContext): void {
    const value = findMetric(ctx.metrics, this.monitor);
    if (value === undefined && !this.strict) {
      ctx.logger.warn(`${this.name}: metric '${this.monitor}' is not available at epoch ${ctx.epoch}; skipping the check (strict: false)`);
      return;
    }
    const before = this.bestScore;
    const reason = this.#check(value ?? readMetric(this.name, ctx.metrics, this.monitor));
    const report = (message: string): void => (ctx.logger.info === undefined ? ctx.logger.warn(message) : ctx.logger.info(message));
    if (this.verbose && reason === null && this.bestScore !== before) {
      report(`${this.name}: ${this.monitor} improved to ${this.bestScore} at epoch ${ctx.epoch}${before === null ? '' : ` (was ${before})`}`);
    }
    if (reason === null) return;
    this.stoppedEpoch = ctx.epoch;
    if (this.verbose) report(`${this.name}: stopping at epoch ${ctx.epoch}: ${reason}`);
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
