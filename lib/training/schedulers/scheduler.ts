// The learning-rate scheduler protocol (factories.ts builds one from a config entry). The trainer steps the
// scheduler once per epoch, after AFTER_EPOCH: the rate it sets is the next epoch's.
import { HookmdError } from '../../errors.js';
import type { Optimizer } from '../optimizers/optimizer.js';
import { showValue } from '../../describe-value.js';

/**
 * What the trainer needs of a learning-rate scheduler.
 *
 * @example
 * const scheduler: LrScheduler = new StepLR({ stepSize: 30, gamma: 0.1 });
 * scheduler.step(optimizer, { val_loss: 0.1 }); // at the end of each epoch
 */
export interface LrScheduler {
  /** 'StepLR', 'Cosine' or 'ReduceOnPlateau' (the config `type`). */
  readonly type: string;
  /** Canonical options, `{ type, ... }`. */
  readonly config: Readonly<Record<string, unknown>>;
  /** Sets `optimizer.lr` for the next epoch; `metrics` are the epoch's (ReduceOnPlateau reads one). */
  step(optimizer: Optimizer, metrics: Readonly<Record<string, number>>): void;
  stateDict(): Record<string, unknown>;
  loadStateDict(state: unknown): void;
}

/** @internal The epoch counter every closed-form scheduler keeps. */
export function epochsFromState(owner: string, state: unknown): number {
  const epochs = (state as { epochs?: unknown } | null)?.epochs;
  if (typeof epochs !== 'number' || !Number.isInteger(epochs) || epochs < 0) {
    throw new HookmdError('INVALID_CHECKPOINT', `${owner}.loadStateDict: state.epochs must be an integer ≥ 0, got ${showValue(epochs)}`, {
      field: 'epochs',
      value: epochs,
    });
  }
  return epochs;
}
