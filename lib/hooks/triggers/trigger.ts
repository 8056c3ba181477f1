// hookmd triggers: composable predicates of the step (after HOOMD's Trigger.h), each with a
// closed-form `next(step)` so that an engine can run natively until the next step some hook needs.

import { rangeError, typeError } from '../errors.js';
import { checkedTrigger } from './checked.js';
import type { Trigger, TriggerPeriodicity } from './trigger-types.js';
import { showText } from '../../describe-value.js';

export type { Trigger, TriggerPeriodicity } from './trigger-types.js';

/**
 * The work one top-level `next`/`nextOff` query may spend in searches, nested ones included (each
 * search round, or each step of a walk, costs 1). One search needs at most one combined period of
 * rounds (the least common multiple of the periods below it), so trees whose periods multiply out to
 * less than about a million stay far inside the budget unless their searches nest deeply. Past it, a
 * search returns its current candidate, a lower bound, which is still a correct schedule (the
 * registry checks `fires` there and asks again); it only costs an extra check.
 */
export const SEARCH_BUDGET: number = 2 ** 22;

let searchDepth = 0;
let searchBudget = 0;

/** Enters a search; the outermost one starts the shared budget. Pair with {@link endSearch}. */
export function beginSearch(): void {
  if (searchDepth++ === 0) searchBudget = SEARCH_BUDGET;
}

/** Leaves a search entered with {@link beginSearch}. */
export function endSearch(): void {
  searchDepth--;
}

/** Spends one unit of the shared budget; false once it is exhausted. */
export function spend(): boolean {
  return --searchBudget >= 0;
}

/** The first step ≥ `step` at which `t` does not fire: exact through `t.nextOff`, else a bounded walk. */
export function nextOffOf(t: Trigger, step: number): number {
  if (t.nextOff !== undefined) return t.nextOff(step);
  if (t.polling === true) return step;
  let s = step;
  beginSearch();
  try {
    while (t.fires(s) && spend()) s++;
  } finally {
    endSearch();
  }
  return s;
}

/** Combined periodicity of children (largest start, least common period), or undefined if unknown. */
export function combinePeriodicity(children: readonly Trigger[]): TriggerPeriodicity | undefined {
  let from = 0;
  let period = 1;
  for (const t of children) {
    const p = t.periodicity;
    if (p === undefined) return undefined;
    from = Math.max(from, p.from);
    period = (period / gcd(period, p.period)) * p.period;
    if (period > Number.MAX_SAFE_INTEGER) return undefined;
  }
  return { from, period };
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** Validates a step argument of a trigger factory: an integer ≥ 0. */
export function checkStep(op: string, field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw rangeError('INVALID_TRIGGER', op, field, `must be an integer ≥ 0, got ${showText(value)}`, value);
  }
  return value;
}

/** Validates the children of a composite trigger; a user's trigger among them gets its answers checked. */
export function checkTriggers(op: string, children: readonly unknown[], min: number): Trigger[] {
  if (children.length < min) {
    throw typeError('INVALID_TRIGGER', op, 'triggers', `needs at least ${min} trigger(s), got ${children.length}`, children);
  }
  children.forEach((t, i) => {
    if (!isTrigger(t)) {
      throw typeError('INVALID_TRIGGER', op, `triggers[${i}]`, 'must have fires(), next() and describe()', t);
    }
  });
  return (children as Trigger[]).map(checkedTrigger);
}

/**
 * True for objects with the three required trigger methods.
 *
 * @example
 * isTrigger(every(5)); // true
 * isTrigger({ fires: () => true }); // false
 */
export function isTrigger(t: unknown): t is Trigger {
  if (t === null || typeof t !== 'object') return false;
  const o = t as Record<string, unknown>;
  return typeof o['fires'] === 'function' && typeof o['next'] === 'function' && typeof o['describe'] === 'function';
}
