// Adam (Kingma & Ba), step for step as torch.optim.Adam without weight decay:
//   m ← β₁m + (1−β₁)g,  v ← β₂v + (1−β₂)g²,  u ← u − lr·(m/(1−β₁ᵗ)) / (√(v/(1−β₂ᵗ)) + ε).
import { checkKeys, lrOption, numberArray, numberOption, savedLr } from '../options.js';
import type { Optimizer } from './optimizer.js';
import { HookmdError } from '../../errors.js';
import { showValue } from '../../describe-value.js';

/**
 * Options of `new Adam`.
 *
 * @example
 * const options: AdamOptions = { lr: 0.02, betas: [0.9, 0.999], eps: 1e-8 };
 */
export interface AdamOptions {
  /** Learning rate (default 0.01); a step moves ln θ by about lr, i.e. θ by about lr·100 %. */
  lr?: number;
  /** β₁, β₂ in [0, 1) (default [0.9, 0.999]). */
  betas?: readonly [number, number];
  /** ε ≥ 0 (default 1e-8). */
  eps?: number;
}

/**
 * The Adam optimizer. Since the trainer's variables are ln θ, a step of size lr changes every parameter
 * by about the same relative amount, whatever its units.
 *
 * @example
 * const trainer = new Trainer({ model, train, optimizer: new Adam({ lr: 0.02 }), epochs: 100 });
 */
export class Adam implements Optimizer {
  readonly type = 'Adam';
  lr: number;
  readonly initialLr: number;
  readonly betas: readonly [number, number];
  readonly eps: number;
  readonly config: Readonly<Record<string, unknown>>;
  #step = 0;
  #m: Float64Array | null = null;
  #v: Float64Array | null = null;

  constructor(options: AdamOptions = {}) {
    const given = checkKeys('Adam', options, ['lr', 'betas', 'eps']);
    this.lr = this.initialLr = lrOption('Adam', given.lr ?? 0.01);
    const betas = (given.betas ?? [0.9, 0.999]) as unknown;
    if (!Array.isArray(betas) || betas.length !== 2) {
      throw new HookmdError('INVALID_OPTIONS', `Adam: betas must be two numbers [β₁, β₂], got ${showValue(betas)}`, { field: 'betas', value: betas });
    }
    this.betas = [numberOption('Adam', 'betas[0]', betas[0], 0, 1, true), numberOption('Adam', 'betas[1]', betas[1], 0, 1, true)];
    this.eps = numberOption('Adam', 'eps', given.eps ?? 1e-8, 0);
    this.config = Object.freeze({ type: 'Adam', lr: this.initialLr, betas: [...this.betas], eps: this.eps });
  }

  step(variables: Float64Array, gradients: Float64Array): void {
    const n = variables.length;
    const m = (this.#m ??= new Float64Array(n));
    const v = (this.#v ??= new Float64Array(n));
    const [beta1, beta2] = this.betas;
    this.#step += 1;
    const correction1 = 1 - beta1 ** this.#step;
    const correction2 = 1 - beta2 ** this.#step;
    for (let p = 0; p < n; p++) {
      const g = gradients[p];
      m[p] = beta1 * m[p] + (1 - beta1) * g;
      v[p] = beta2 * v[p] + (1 - beta2) * g * g;
      variables[p] -= (this.lr * (m[p] / correction1)) / (Math.sqrt(v[p] / correction2) + this.eps);
    }
  }

  stateDict(): Record<string, unknown> {
    return { lr: this.lr, step: this.#step, m: this.#m === null ? null : [...this.#m], v: this.#v === null ? null : [...this.#v] };
  }

  loadStateDict(state: unknown): void {
    const s = (state ?? {}) as Record<string, unknown>;
    this.lr = savedLr('Adam.loadStateDict', s.lr);
    this.#step = numberOption('Adam.loadStateDict', 'step', s.step, 0);
    this.#m = s.m === null ? null : numberArray('Adam.loadStateDict', 'm', s.m, undefined);
    this.#v = s.v === null ? null : numberArray('Adam.loadStateDict', 'v', s.v, this.#m?.length);
  }
}
