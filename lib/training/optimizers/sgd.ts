// Stochastic gradient descent with momentum, step for step as torch.optim.SGD without weight decay:
//   b ← μb + (1 − τ)g (b ← g at the first step),  d = g + μb (Nesterov) or b,  u ← u − lr·d.
import { HookmdError } from '../../errors.js';
import { checkKeys, lrOption, numberArray, numberOption, savedLr } from '../options.js';
import type { Optimizer } from './optimizer.js';
import { showValue } from '../../describe-value.js';

/**
 * Options of `new SGD`.
 *
 * @example
 * const options: SGDOptions = { lr: 0.01, momentum: 0.9, nesterov: true };
 */
export interface SGDOptions {
  /** Learning rate (default 0.01). */
  lr?: number;
  /** Momentum μ in [0, 1) (default 0.9). */
  momentum?: number;
  /** Dampening τ in [0, 1] (default 0). */
  dampening?: number;
  /** Nesterov momentum (default false; needs momentum > 0 and dampening 0). */
  nesterov?: boolean;
}

/**
 * Gradient descent with (heavy-ball or Nesterov) momentum.
 *
 * @example
 * const trainer = new Trainer({ model, train, optimizer: new SGD({ lr: 0.05, momentum: 0.9 }), epochs: 200 });
 */
export class SGD implements Optimizer {
  readonly type = 'SGD';
  lr: number;
  readonly initialLr: number;
  readonly momentum: number;
  readonly dampening: number;
  readonly nesterov: boolean;
  readonly config: Readonly<Record<string, unknown>>;
  #buffer: Float64Array | null = null;

  constructor(options: SGDOptions = {}) {
    const given = checkKeys('SGD', options, ['lr', 'momentum', 'dampening', 'nesterov']);
    this.lr = this.initialLr = lrOption('SGD', given.lr ?? 0.01);
    this.momentum = numberOption('SGD', 'momentum', given.momentum ?? 0.9, 0, 1, true);
    this.dampening = numberOption('SGD', 'dampening', given.dampening ?? 0, 0, 1);
    const nesterov = given.nesterov ?? false;
    if (typeof nesterov !== 'boolean') {
      throw new HookmdError('INVALID_OPTIONS', `SGD: nesterov must be a boolean, got ${showValue(nesterov)}`, { field: 'nesterov', value: nesterov });
    }
    if (nesterov && (this.momentum === 0 || this.dampening !== 0)) {
      throw new HookmdError('INVALID_OPTIONS', 'SGD: nesterov needs momentum > 0 and dampening 0', { field: 'nesterov', value: nesterov });
    }
    this.nesterov = nesterov;
    this.config = Object.freeze({ type: 'SGD', lr: this.initialLr, momentum: this.momentum, dampening: this.dampening, nesterov });
  }

  step(variables: Float64Array, gradients: Float64Array): void {
    const mu = this.momentum;
    if (mu === 0) {
      for (let p = 0; p < variables.length; p++) variables[p] -= this.lr * gradients[p];
      return;
    }
    const first = this.#buffer === null;
    const b = (this.#buffer ??= new Float64Array(variables.length));
    for (let p = 0; p < variables.length; p++) {
      const g = gradients[p];
      b[p] = first ? g : mu * b[p] + (1 - this.dampening) * g;
      variables[p] -= this.lr * (this.nesterov ? g + mu * b[p] : b[p]);
    }
  }

  stateDict(): Record<string, unknown> {
    return { lr: this.lr, buffer: this.#buffer === null ? null : [...this.#buffer] };
  }

  loadStateDict(state: unknown): void {
    const s = (state ?? {}) as Record<string, unknown>;
    this.lr = savedLr('SGD.loadStateDict', s.lr);
    this.#buffer = s.buffer === null ? null : numberArray('SGD.loadStateDict', 'buffer', s.buffer, undefined);
  }
}
