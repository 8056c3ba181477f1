// ForwardObserverHook: a read-only observer of the model's predictions, for parity plots and error
// analyses. It receives the trainer's Predictions, whose arrays are copies of native memory: whatever it
// does to them, the loss and the gradients are computed from the native predictions alone.
import { HookmdTypeError } from '../../errors.js';
import type { Predictions, TrainingHookContext } from '../context.js';
import type { ErrorPolicy } from '../../hooks/index.js';
import { BUILTIN_OPTION_KEYS, builtinOptions, type BuiltinHookOptions } from './builtin-options.js';
import { checkKeys, integerOption, stringOption } from '../options.js';
import { TrainingStage } from '../stage.js';
import { showValue } from '../../describe-value.js';

/**
 * Options of `new ForwardObserverHook`.
 *
 * @example
 * const options: ForwardObserverOptions = { observe: (p) => energies.push(...p.energy), validation: true };
 */
export interface ForwardObserverOptions extends BuiltinHookOptions {
  /** Called with each forward pass's predictions. */
  observe: (predictions: Predictions, ctx: TrainingHookContext) => void;
  /** Also observe the validation pass (at AFTER_VALIDATION; default false). */
  validation?: boolean;
  frequency?: number;
  name?: string;
}

/**
 * Calls `observe` after every training forward pass (AFTER_FORWARD) and, with `validation`, after each
 * validation pass.
 *
 * @example
 * const parity: Array<[number, number]> = [];
 * new ForwardObserverHook({ validation: true, observe: (p, ctx) => { if (ctx.stage === TrainingStage.AFTER_VALIDATION) parity.push(...) } });
 */
export class ForwardObserverHook {
  readonly stage = null;
  readonly frequency: number;
  /** Built-in hooks run after user hooks at every stage. */
  readonly tier = 'builtin' as const;
  readonly order: number;
  readonly errorPolicy: ErrorPolicy;
  readonly name: string;
  readonly validation: boolean;
  readonly #observe: (predictions: Predictions, ctx: TrainingHookContext) => void;

  constructor(options: ForwardObserverOptions) {
    const owner = 'ForwardObserverHook';
    const given = checkKeys(owner, options, ['observe', 'validation', 'frequency', 'name', ...BUILTIN_OPTION_KEYS]);
    if (typeof given.observe !== 'function') {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: observe must be a function (predictions, ctx) => void`, { field: 'observe', value: given.observe });
    }
    const validation = given.validation ?? false;
    if (typeof validation !== 'boolean') {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: validation must be a boolean, got ${showValue(validation)}`, { field: 'validation', value: validation });
    }
    this.#observe = given.observe as (predictions: Predictions, ctx: TrainingHookContext) => void;
    this.validation = validation;
    this.frequency = integerOption(owner, 'frequency', given.frequency ?? 1, 1);
    this.name = given.name === undefined ? owner : stringOption(owner, 'name', given.name);
    ({ order: this.order, errorPolicy: this.errorPolicy } = builtinOptions(owner, given));
  }

  runsOnStage(stage: TrainingStage): boolean {
    return stage === TrainingStage.AFTER_FORWARD || (this.validation && stage === TrainingStage.AFTER_VALIDATION);
  }

  call(ctx: TrainingHookContext): void {
    if (ctx.predictions !== null) this.#observe(ctx.predictions, ctx);
  }
}
