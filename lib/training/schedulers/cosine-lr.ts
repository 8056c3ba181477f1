// CosineLR: cosine annealing in torch.optim.lr_scheduler.CosineAnnealingLR's chainable form, except that it
// holds after tMax epochs rather than rising again.
import { checkKeys, integerOption, numberOption } from '../options.js';
import type { Optimizer } from '../optimizers/optimizer.js';
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
 * lr = η_min + (lr₀ − η_min)(1 + cos(π·min(epoch, tMax)/tMax))/2 when nothing else changes the lr. Each
 * step scales the lr the optimizer has by (1 + cos(πt/T))/(1 + cos(π(t−1)/T)) about η_min (torch's
 * chainable form), so an lr a hook set is carried on from. Config type `'Cosine'`.
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
    // Chainable, as torch's CosineAnnealingLR: the lr the optimizer has now is scaled by the ratio of
    // consecutive cosine factors, so a change a hook made is kept; without one this is the closed form
    // η_min + (η₀ − η_min)(1 + cos(πt/T))/2. After tMax epochs the lr stays where it is.
    this.#epochs += 1;
    const t = this.#epochs;
    if (t > this.tMax) return;
    const ratio = (1 + Math.cos((Math.PI * t) / this.tMax)) / (1 + Math.cos((Math.PI * (t - 1)) / this.tMax));
    optimizer.lr = this.etaMin + ratio * (optimizer.lr - this.etaMin);
  }

  stateDict(): Record<string, unknown> {
    return { epochs: this.#epochs };
  }

  loadStateDict(state: unknown): void {
    this.#epochs = epochsFromState('CosineLR', state);
  }
}
