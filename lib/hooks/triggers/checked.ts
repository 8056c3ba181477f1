// A user's trigger is asked where its answers steer the run: its next() decides when native code next
// stops for JS. An answer that is not a step (NaN, a string, a fraction, a step already past) would make
// the hook silently never fire, so each answer is checked as it is given. hookmd's own triggers keep
// the contract by construction and run unwrapped, so composites can still see their structure.
import { HookmdRangeError } from '../../errors.js';
import { show } from '../errors.js';
import type { Trigger, TriggerPeriodicity } from './trigger.js';

// Prototypes of the trigger classes hookmd defines.
const BUILT_IN = new WeakSet<object>();

/** @internal Marks a trigger class (and its subclasses) as hookmd's own. */
export function builtInTrigger(cls: abstract new (...args: never[]) => Trigger): void {
  BUILT_IN.add(cls.prototype as object);
}

function isBuiltIn(t: Trigger): boolean {
  for (let p: object | null = Object.getPrototypeOf(t) as object | null; p !== null; p = Object.getPrototypeOf(p) as object | null) {
    if (BUILT_IN.has(p)) return true;
  }
  return false;
}

function answer(t: Trigger, method: 'next' | 'nextOff', step: number, value: unknown): number {
  if (value === Infinity || (typeof value === 'number' && Number.isSafeInteger(value) && value >= step)) return value;
  throw new HookmdRangeError(
    'INVALID_PARAMETER',
    `trigger ${t.describe()}: ${method}(${step}) returned ${show(value)}; it must return a step: an integer ≥ ${step}, or Infinity for never`,
    { field: `trigger.${method}`, value, step },
  );
}

class CheckedTrigger implements Trigger {
  readonly polling: boolean | undefined;
  readonly periodicity: TriggerPeriodicity | undefined;
  readonly nextOff: ((step: number) => number) | undefined;

  constructor(readonly inner: Trigger) {
    this.polling = inner.polling;
    this.periodicity = inner.periodicity;
    const nextOff = inner.nextOff;
    this.nextOff = nextOff === undefined ? undefined : (step) => answer(inner, 'nextOff', step, nextOff.call(inner, step));
  }

  fires(step: number): boolean {
    return this.inner.fires(step);
  }

  next(step: number): number {
    return answer(this.inner, 'next', step, this.inner.next(step));
  }

  describe(): string {
    return this.inner.describe();
  }
}
builtInTrigger(CheckedTrigger);

/**
 * @internal `t` itself for hookmd's triggers; for a user's, a view whose next() and nextOff() answers
 * are checked: anything but an integer ≥ the step asked, or Infinity, is INVALID_PARAMETER.
 */
export function checkedTrigger(t: Trigger): Trigger {
  return isBuiltIn(t) ? t : new CheckedTrigger(t);
}
