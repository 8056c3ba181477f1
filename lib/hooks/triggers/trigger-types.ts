// hookmd triggers: what a trigger is (trigger.ts builds on it; checked.ts checks user triggers against it),
// in a leaf of its own so that the two do not import each other.

/**
 * Eventual periodicity: for every step s ≥ `from`, `fires(s) === fires(s + period)`. Composite triggers
 * use it to prove that a search for the next firing step can stop (see `and`).
 *
 * @example
 * every(10, { phase: 3 }).periodicity; // { from: 3, period: 10 }
 */
export interface TriggerPeriodicity {
  readonly from: number;
  readonly period: number;
}

/**
 * When a hook fires. `next(step)` is the first step ≥ `step` at which `fires` is true, or Infinity.
 *
 * Rules for custom triggers:
 * - `next` must never overshoot: returning a smaller step (a lower bound) is safe, because the
 *   registry re-checks `fires` there; returning a later step makes hooks miss firings.
 * - a trigger that depends on something other than the step (time, files) sets `polling: true` and
 *   returns `step` from `next`, so that it is asked at every step.
 * - `nextOff` and `periodicity` are optional; with them, `not`, `and` and `or` stay exact.
 *
 * @example
 * const odd: Trigger = {
 *   fires: (s) => s % 2 === 1,
 *   next: (s) => (s % 2 === 1 ? s : s + 1),
 *   describe: () => 'odd',
 * };
 */
export interface Trigger {
  /** True when the hook should run at this step. */
  fires(step: number): boolean;
  /** The first step ≥ `step` at which `fires` is true, or Infinity (a lower bound is allowed). */
  next(step: number): number;
  /** True for triggers that must be asked at every step (wall-clock time, external signals). */
  readonly polling?: boolean;
  /** A short description for `registry.list()`: `'every(10)'`, `'and(after(100), every(5))'`. */
  describe(): string;
  /** The first step ≥ `step` at which `fires` is false, or Infinity (a lower bound is allowed). */
  nextOff?(step: number): number;
  /** Eventual periodicity of `fires`, when known. */
  readonly periodicity?: TriggerPeriodicity;
}
