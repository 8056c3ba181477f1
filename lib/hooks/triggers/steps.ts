// hookmd triggers: triggers defined by explicit steps: at(...steps), after(k), before(k).

import { ALWAYS, NEVER, type Signature } from './signature.js';
import { checkStep, type Trigger, type TriggerPeriodicity } from './trigger.js';
import { builtInTrigger } from './checked.js';

class At implements Trigger {
  readonly periodicity: TriggerPeriodicity;
  readonly signature: Signature = NEVER;
  constructor(private readonly steps: readonly number[]) {
    this.periodicity = { from: steps.length === 0 ? 0 : steps[steps.length - 1] + 1, period: 1 };
  }

  fires(step: number): boolean {
    return this.steps[this.lowerBound(step)] === step;
  }

  next(step: number): number {
    const i = this.lowerBound(step);
    return i < this.steps.length ? this.steps[i] : Infinity;
  }

  nextOff(step: number): number {
    let s = step;
    for (let i = this.lowerBound(step); i < this.steps.length && this.steps[i] === s; i++) s++;
    return s;
  }

  describe(): string {
    const shown = this.steps.slice(0, 8).join(', ');
    return this.steps.length > 8 ? `at(${shown}, … ${this.steps.length - 8} more)` : `at(${shown})`;
  }

  // Index of the first listed step ≥ step.
  private lowerBound(step: number): number {
    let lo = 0;
    let hi = this.steps.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.steps[mid] < step) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
builtInTrigger(At);

/**
 * Fires exactly at the given steps (HOOMD's `On`, for several steps). Order and repeats don't matter.
 *
 * @example
 * const t = at(100, 10, 1000);
 * t.next(11); // 100
 * t.next(1001); // Infinity
 */
export function at(...steps: number[]): Trigger {
  const checked = steps.map((s, i) => checkStep('at', `steps[${i}]`, s));
  return new At([...new Set(checked)].sort((a, b) => a - b));
}

/** after(k); exported for `and`, which folds it into a periodic child's phase. */
export class After implements Trigger {
  readonly periodicity: TriggerPeriodicity;
  readonly signature: Signature = ALWAYS;
  constructor(readonly k: number) {
    this.periodicity = { from: k + 1, period: 1 };
  }
  fires(step: number): boolean {
    return step > this.k;
  }
  next(step: number): number {
    return step > this.k ? step : this.k + 1;
  }
  nextOff(step: number): number {
    return step > this.k ? Infinity : step;
  }
  describe(): string {
    return `after(${this.k})`;
  }
}

/**
 * Fires at every step strictly after `k` (HOOMD's `After`).
 *
 * @example
 * and(after(1000), every(10)); // every 10 steps once step 1000 is past: 1010, 1020, …
 */
export function after(k: number): Trigger {
  return new After(checkStep('after', 'k', k));
}
builtInTrigger(After);

/** before(k); exported so that `not(after(k))` can become `before(k + 1)`. */
export class Before implements Trigger {
  readonly periodicity: TriggerPeriodicity;
  readonly signature: Signature = NEVER;
  constructor(readonly k: number) {
    this.periodicity = { from: k, period: 1 };
  }
  fires(step: number): boolean {
    return step < this.k;
  }
  next(step: number): number {
    return step < this.k ? step : Infinity;
  }
  nextOff(step: number): number {
    return Math.max(step, this.k);
  }
  describe(): string {
    return `before(${this.k})`;
  }
}
builtInTrigger(Before);

/**
 * Fires at every step strictly before `k` (HOOMD's `Before`).
 *
 * @example
 * before(100).next(100); // Infinity
 */
export function before(k: number): Trigger {
  return new Before(checkStep('before', 'k', k));
}
