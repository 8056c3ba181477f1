// CosineLR: cosine annealing as a closed form of the epoch count, as torch.optim.lr_scheduler's
// CosineAnnealingLR, except that it holds at etaMin after tMax epochs rather than rising again.
import { checkKeys, integerOption, numberOption } from './options.js';
import type { Optimizer } from './optimizer.js';
import { epochsFromState, type LrScheduler } from './scheduler.js';

/**
 * Options of `new CosineLR`.
 *
 * @example
 * const options: CosineLROptions = { tMax: 100, etaMin: 1e-4 };
 */
export interface CosineLROptions {
  /** Epochs of the half cosine (integer ≥ 1). */
  tMax: number;
  /** The final learning rate (default 0). */
  etaMin?: number;
}

/**
 * lr = η_min + (lr₀ − η_min)(1 + cos(π·min(epoch, tMax)/tMax))/2. Config type `'Cosine'`.
 *
 * @example
 * new Trainer({ model, train, lrScheduler: new CosineLR({ tMax: 80 }), epochs: 80 });
 */
export class CosineLR implements LrScheduler {
  readonly type = 'Cosine';
  readonly tMax: number;
  readonly etaMin: number;
  readonly config: Readonly<Record<string, unknown>>;
  #epochs = 0;

  constructor(options: CosineLROptions) {
    const given = checkKeys('CosineLR', options, ['tMax', 'etaMin']);
    this.tMax = integerOption('CosineLR', 'tMax', given.tMax, 1);
    this.etaMin = numberOption('CosineLR', 'etaMin', given.etaMin ?? 0, 0);
    this.config = Object.freeze({ type: 'Cosine', tMax: this.tMax, etaMin: this.etaMin });
  }

  step(optimizer: Optimizer): void {
    this.#epochs += 1;
    const t = Math.min(this.#epochs, this.tMax);
    optimizer.lr = this.etaMin + ((optimizer.initialLr - this.etaMin) * (1 + Math.cos((Math.PI * t) / this.tMax))) / 2;
  }

  stateDict(): Record<string, unknown> {
    return { epochs: this.#epochs };
  }

  loadStateDict(state: unknown): void {
    this.#epochs = epochsFromState('CosineLR', state);
  }
}
