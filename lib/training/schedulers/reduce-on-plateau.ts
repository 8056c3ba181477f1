// ReduceOnPlateau: lowers the learning rate when a metric stops improving, as
// torch.optim.lr_scheduler.ReduceLROnPlateau (same threshold modes, cooldown and minimum step).
import { HookmdError, HookmdTypeError } from '../../errors.js';
import { checkKeys, integerOption, modeOption, numberOption, readMetric, stringOption } from '../options.js';
import type { Optimizer } from '../optimizers/optimizer.js';
import type { LrScheduler } from './scheduler.js';
import { showValue } from '../../describe-value.js';

/**
 * Options of `new ReduceOnPlateau`.
 *
 * @example
 * const options: ReduceOnPlateauOptions = { monitor: 'val_loss', factor: 0.5, patience: 5 };
 */
export interface ReduceOnPlateauOptions {
  /** The metric to watch (default 'val_loss'). */
  monitor?: string;
  /** 'min' (default): lower is better; 'max': higher is better. */
  mode?: 'min' | 'max';
  /** lr ← max(lr·factor, minLr) on a plateau; factor in (0, 1) (default 0.1). */
  factor?: number;
  /** Epochs without improvement tolerated before a reduction (default 10). */
  patience?: number;
  /** The least change that counts as an improvement (default 1e-4). */
  threshold?: number;
  /** 'rel' (default): relative to the best value; 'abs': absolute. */
  thresholdMode?: 'rel' | 'abs';
  /** Epochs to wait after a reduction before counting again (default 0). */
  cooldown?: number;
  /** Lower bound of the learning rate (default 0). */
  minLr?: number;
  /** A reduction smaller than this is skipped (default 1e-8). */
  eps?: number;
}

/**
 * Multiplies the learning rate by `factor` once `monitor` has not improved for more than `patience`
 * epochs. Config type `'ReduceOnPlateau'`.
 *
 * @example
 * new Trainer({ model, train, validation, lrScheduler: new ReduceOnPlateau({ patience: 3, factor: 0.5 }), epochs: 200 });
 */
export class ReduceOnPlateau implements LrScheduler {
  readonly type = 'ReduceOnPlateau';
  readonly monitor: string;
  readonly mode: 'min' | 'max';
  readonly factor: number;
  readonly patience: number;
  readonly threshold: number;
  readonly thresholdMode: 'rel' | 'abs';
  readonly cooldown: number;
  readonly minLr: number;
  readonly eps: number;
  readonly config: Readonly<Record<string, unknown>>;
  #best: number | null = null;
  #bad = 0;
  #cooldownLeft = 0;

  constructor(options: ReduceOnPlateauOptions = {}) {
    const owner = 'ReduceOnPlateau';
    const given = checkKeys(owner, options, ['monitor', 'mode', 'factor', 'patience', 'threshold', 'thresholdMode', 'cooldown', 'minLr', 'eps']);
    this.monitor = stringOption(owner, 'monitor', given.monitor ?? 'val_loss');
    this.mode = modeOption(owner, given.mode);
    this.factor = numberOption(owner, 'factor', given.factor ?? 0.1, 0, 1, true);
    this.patience = integerOption(owner, 'patience', given.patience ?? 10, 0);
    this.threshold = numberOption(owner, 'threshold', given.threshold ?? 1e-4, 0);
    const thresholdMode = given.thresholdMode ?? 'rel';
    if (thresholdMode !== 'rel' && thresholdMode !== 'abs') {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: thresholdMode must be 'rel' or 'abs', got ${showValue(thresholdMode)}`, {
        field: 'thresholdMode',
        value: thresholdMode,
      });
    }
    this.thresholdMode = thresholdMode;
    this.cooldown = integerOption(owner, 'cooldown', given.cooldown ?? 0, 0);
    this.minLr = numberOption(owner, 'minLr', given.minLr ?? 0, 0);
    this.eps = numberOption(owner, 'eps', given.eps ?? 1e-8, 0);
    this.config = Object.freeze({
      type: 'ReduceOnPlateau', monitor: this.monitor, mode: this.mode, factor: this.factor, patience: this.patience,
      threshold: this.threshold, thresholdMode: this.thresholdMode, cooldown: this.cooldown, minLr: this.minLr, eps: this.eps,
    });
  }

  step(optimizer: Optimizer, metrics: Readonly<Record<string, number>>): void {
    const current = readMetric('ReduceOnPlateau', metrics, this.monitor);
    if (this.#improves(current)) {
      this.#best = current;
      this.#bad = 0;
    } else {
      this.#bad += 1;
    }
    if (this.#cooldownLeft > 0) {
      this.#cooldownLeft -= 1;
      this.#bad = 0;
    }
    if (this.#bad > this.patience) {
      const lowered = Math.max(optimizer.lr * this.factor, this.minLr);
      if (optimizer.lr - lowered > this.eps) optimizer.lr = lowered;
      this.#cooldownLeft = this.cooldown;
      this.#bad = 0;
    }
  }

  stateDict(): Record<string, unknown> {
    return { best: this.#best, bad: this.#bad, cooldownLeft: this.#cooldownLeft };
  }

  loadStateDict(state: unknown): void {
    const s = (state ?? {}) as Record<string, unknown>;
    if (s.best !== null && typeof s.best !== 'number') {
      throw new HookmdError('INVALID_CHECKPOINT', `ReduceOnPlateau.loadStateDict: state.best must be a number or null, got ${showValue(s.best)}`, {
        field: 'best',
        value: s.best,
      });
    }
    this.#best = s.best;
    this.#bad = integerOption('ReduceOnPlateau.loadStateDict', 'bad', s.bad, 0);
    this.#cooldownLeft = integerOption('ReduceOnPlateau.loadStateDict', 'cooldownLeft', s.cooldownLeft, 0);
  }

  #improves(current: number): boolean {
    if (this.#best === null) return !Number.isNaN(current);
    const best = this.#best;
    if (this.mode === 'min') return this.thresholdMode === 'rel' ? current < best * (1 - this.threshold) : current < best - this.threshold;
    return this.thresholdMode === 'rel' ? current > best * (1 + this.threshold) : current > best + this.threshold;
  }
}
