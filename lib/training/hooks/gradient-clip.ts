// GradientClipHook: an update hook. At BEFORE_OPTIMIZER_STEP it rescales ctx.gradients (by total norm, as
// torch.nn.utils.clip_grad_norm_) or clamps each entry (clip_grad_value_); the optimizer then uses them.
import { HookmdError, HookmdTypeError } from '../../errors.js';
import { registerHookType, type ErrorPolicy } from '../../hooks/index.js';
import type { TrainingHookContext } from '../context.js';
import { BUILTIN_OPTION_KEYS, builtinOptions, type BuiltinHookOptions } from './builtin-options.js';
import { checkKeys, numberOption, stringOption } from '../options.js';
import { TrainingStage } from '../stage.js';
import { gradientEntries, gradientNorm, mapGradients } from './gradient-stats.js';
import { showValue } from '../../describe-value.js';

/**
 * Options of `new GradientClipHook`: `maxNorm` or `clipValue`.
 *
 * @example
 * const byNorm: GradientClipOptions = { maxNorm: 1.0 };
 * const byValue: GradientClipOptions = { clipValue: 0.5 };
 */
export interface GradientClipOptions extends BuiltinHookOptions {
  /** Rescale so that the total norm is at most this (> 0). */
  maxNorm?: number;
  /** The norm used with maxNorm: 2 (default) or 'inf'. */
  normType?: 2 | 'inf';
  /** Clamp every entry into [−clipValue, clipValue] (> 0). */
  clipValue?: number;
  name?: string;
}

/**
 * Clips the gradients (with respect to ln θ, the optimizer's variables) before each optimizer step. At
 * each step where it changed them, the trainer then dispatches ON_GRADIENT_CLIP with the norms before
 * and after (ctx.gradientClip).
 *
 * @example
 * new Trainer({ model, train, epochs: 100, hooks: [new GradientClipHook({ maxNorm: 1 })] });
 */
export class GradientClipHook {
  readonly stage: TrainingStage = TrainingStage.BEFORE_OPTIMIZER_STEP;
  readonly frequency = 1;
  /** Built-in hooks run after user hooks at every stage. */
  readonly tier = 'builtin' as const;
  readonly order: number;
  readonly errorPolicy: ErrorPolicy;
  readonly name: string;
  readonly maxNorm: number | null;
  readonly normType: 2 | 'inf';
  readonly clipValue: number | null;
  readonly config: Readonly<Record<string, unknown>>;
  /** The total norm before clipping, at the last step. */
  lastNorm: number = Number.NaN;
  /** Steps at which the gradients were changed. */
  clippedSteps = 0;

  constructor(options: GradientClipOptions) {
    const owner = 'GradientClipHook';
    const given = checkKeys(owner, options, ['maxNorm', 'normType', 'clipValue', 'name', ...BUILTIN_OPTION_KEYS]);
    if ((given.maxNorm === undefined) === (given.clipValue === undefined)) {
      throw new HookmdError('INVALID_OPTIONS', `${owner}: give exactly one of maxNorm and clipValue`, { field: 'maxNorm', value: given.maxNorm });
    }
    const positive = (field: string): number | null => {
      if (given[field] === undefined) return null;
      const value = numberOption(owner, field, given[field], 0);
      if (value === 0) throw new HookmdError('INVALID_OPTIONS', `${owner}: ${field} must be > 0, got 0`, { field, value });
      return value;
    };
    this.maxNorm = positive('maxNorm');
    this.clipValue = positive('clipValue');
    const normType = given.normType ?? 2;
    if (normType !== 2 && normType !== 'inf') {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: normType must be 2 or 'inf', got ${showValue(normType)}`, { field: 'normType', value: normType });
    }
    this.normType = normType;
    this.name = given.name === undefined ? owner : stringOption(owner, 'name', given.name);
    ({ order: this.order, errorPolicy: this.errorPolicy } = builtinOptions(owner, given));
    this.config = Object.freeze({ type: owner, maxNorm: this.maxNorm, normType: this.normType, clipValue: this.clipValue, name: this.name });
  }

  call(ctx: TrainingHookContext): void {
    const gradients = ctx.gradients;
    const names = Object.keys(gradients);
    this.lastNorm = gradientNorm(gradientEntries(gradients, names), this.normType);
    let changed = false;
    if (this.maxNorm !== null) {
      // torch's 1e-6 keeps the scale finite for zero gradients.
      const scale = this.maxNorm / (this.lastNorm + 1e-6);
      if (scale < 1) {
        mapGradients(gradients, names, (g) => g * scale);
        changed = true;
      }
    } else {
      const limit = this.clipValue as number;
      mapGradients(gradients, names, (g) => {
        const clamped = Math.min(limit, Math.max(-limit, g));
        if (clamped !== g) changed = true;
        return clamped;
      });
    }
    if (!changed) return;
    this.clippedSteps += 1;
    ctx.reportGradientClip(this.lastNorm, gradientNorm(gradientEntries(gradients, names), this.normType), this.normType);
  }
}

registerHookType('GradientClipHook', (args) => new GradientClipHook(args as GradientClipOptions));
