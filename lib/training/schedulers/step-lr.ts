// StepLR: torch.optim.lr_scheduler.StepLR, chainable: every stepSize epochs the lr the optimizer has is
// multiplied by gamma.
import { checkKeys, integerOption, numberOption } from '../options.js';
import type { Optimizer } from '../optimizers/optimizer.js';
import { epochsFromState, type LrScheduler } from './scheduler.js';

/**
 * Options of `new StepLR`.
 *
 * @example
 * const options: StepLROptions = { stepSize: 30, gamma: 0.1 };
 */
export interface StepLROptions {
  /** Epochs between decays (integer ≥ 1). */
  stepSize: number;
  /** Decay factor in (0, 1] (default 0.1). */
  gamma?: number;
}

/**
 * lr = lr₀ · γ^⌊epoch / stepSize⌋ when nothing else changes the lr: every stepSize epochs the optimizer's
 * current lr is multiplied by γ (torch's chainable form), so an lr a hook set is carried on from.
 *
 * @example
 * new Trainer({ model, train, optimizer: new Adam({ lr: 0.05 }), lrScheduler: new StepLR({ stepSize: 20, gamma: 0.5 }), epochs: 60 });
 */
export class StepLR implements LrScheduler {
  readonly type = 'StepLR';
  readonly stepSize: number;
  readonly gamma: number;
  readonly config: Readonly<Record<string, unknown>>;
  #epochs = 0;

  constructor(options: StepLROptions) {
    const given = checkKeys('StepLR', options, ['stepSize', 'gamma']);
    this.stepSize = integerOption('StepLR', 'stepSize', given.stepSize, 1);
    this.gamma = numberOption('StepLR', 'gamma', given.gamma ?? 0.1, Number.MIN_VALUE, 1);
    this.config = Object.freeze({ type: 'StepLR', stepSize: this.stepSize, gamma: this.gamma });
  }

  step(optimizer: Optimizer): void {
    // Chainable, as torch's: from the lr the optimizer has now, so a change a hook made is kept.
    this.#epochs += 1;
    if (this.#epochs % this.stepSize === 0) optimizer.lr *= this.gamma;
  }

  stateDict(): Record<string, unknown> {
    return { epochs: this.#epochs };
  }

  loadStateDict(state: unknown): void {
    this.#epochs = epochsFromState('StepLR', state);
  }
}
