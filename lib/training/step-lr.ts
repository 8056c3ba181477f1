// StepLR: a closed-form schedule of the epoch count, as torch.optim.lr_scheduler.StepLR.
import { checkKeys, integerOption, numberOption } from './options.js';
import type { Optimizer } from './optimizer.js';
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
 * lr = lr₀ · γ^⌊epoch / stepSize⌋.
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
    this.#epochs += 1;
    optimizer.lr = optimizer.initialLr * this.gamma ** Math.floor(this.#epochs / this.stepSize);
  }

  stateDict(): Record<string, unknown> {
    return { epochs: this.#epochs };
  }

  loadStateDict(state: unknown): void {
    this.#epochs = epochsFromState('StepLR', state);
  }
}
