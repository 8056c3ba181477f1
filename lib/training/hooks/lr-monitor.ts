// LearningRateMonitorHook: records the learning rate each epoch (or step) trains with, into
// ctx.metrics.lr, its `values` list and an optional callback.
import { HookmdTypeError } from '../../errors.js';
import { registerHookType, type ErrorPolicy } from '../../hooks/index.js';
import type { TrainingHookContext } from '../context.js';
import { BUILTIN_OPTION_KEYS, builtinOptions, type BuiltinHookOptions } from './builtin-options.js';
import { checkKeys, stringOption } from '../options.js';
import { TrainingStage } from '../stage.js';
import { showValue } from '../../describe-value.js';

/**
 * One recorded learning rate.
 *
 * @example
 * monitor.values[0]; // { epoch: 0, step: 0, lr: 0.02 }
 */
export interface LearningRateEntry {
  readonly epoch: number;
  readonly step: number;
  readonly lr: number;
}

/**
 * Options of `new LearningRateMonitorHook`.
 *
 * @example
 * const options: LearningRateMonitorOptions = { interval: 'step', writer: (e) => console.log(e.lr) };
 */
export interface LearningRateMonitorOptions extends BuiltinHookOptions {
  /** 'epoch' (default): at BEFORE_EPOCH; 'step': at BEFORE_STEP. */
  interval?: 'epoch' | 'step';
  writer?: (entry: LearningRateEntry) => void;
  name?: string;
}

/**
 * Logs the optimizer's learning rate as schedulers change it.
 *
 * @example
 * const lr = new LearningRateMonitorHook();
 * await new Trainer({ model, train, lrScheduler: new StepLR({ stepSize: 10 }), epochs: 30, hooks: [lr] }).fit();
 * lr.values.map((e) => e.lr); // 0.01 ×10, 0.001 ×10, 0.0001 ×10
 */
export class LearningRateMonitorHook {
  readonly stage: TrainingStage;
  readonly frequency = 1;
  /** Built-in hooks run after user hooks at every stage. */
  readonly tier = 'builtin' as const;
  readonly order: number;
  readonly errorPolicy: ErrorPolicy;
  readonly name: string;
  readonly interval: 'epoch' | 'step';
  readonly config: Readonly<Record<string, unknown>>;
  /** Every recorded rate, in order. */
  readonly values: LearningRateEntry[] = [];
  readonly #writer: ((entry: LearningRateEntry) => void) | undefined;

  constructor(options: LearningRateMonitorOptions = {}) {
    const owner = 'LearningRateMonitorHook';
    const given = checkKeys(owner, options, ['interval', 'writer', 'name', ...BUILTIN_OPTION_KEYS]);
    const interval = given.interval ?? 'epoch';
    if (interval !== 'epoch' && interval !== 'step') {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: interval must be 'epoch' or 'step', got ${showValue(interval)}`, { field: 'interval', value: interval });
    }
    if (given.writer !== undefined && typeof given.writer !== 'function') {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: writer must be a function (entry) => void`, { field: 'writer', value: given.writer });
    }
    this.interval = interval;
    this.stage = interval === 'epoch' ? TrainingStage.BEFORE_EPOCH : TrainingStage.BEFORE_STEP;
    this.#writer = given.writer as ((entry: LearningRateEntry) => void) | undefined;
    this.name = given.name === undefined ? owner : stringOption(owner, 'name', given.name);
    ({ order: this.order, errorPolicy: this.errorPolicy } = builtinOptions(owner, given));
    this.config = Object.freeze({ type: owner, interval, name: this.name });
  }

  call(ctx: TrainingHookContext): void {
    const entry: LearningRateEntry = { epoch: ctx.epoch, step: ctx.stepCount, lr: ctx.optimizer.lr };
    ctx.metrics.lr = entry.lr;
    this.values.push(entry);
    this.#writer?.(entry);
  }
}

registerHookType('LearningRateMonitorHook', (args) => new LearningRateMonitorHook(args as LearningRateMonitorOptions));
