// hookmd triggers: wallClock(seconds), the one polling trigger: it depends on time, not on the step.

import { rangeError } from '../errors.js';
import { checkKeys } from '../../option-keys.js';
import type { Trigger } from './trigger.js';
import { builtInTrigger } from './checked.js';
import { showText } from '../../describe-value.js';

/**
 * Options of {@link wallClock}.
 *
 * @example
 * let t = 0;
 * const clock = wallClock(1, { now: () => t } satisfies WallClockOptions); // advance t in a test
 */
export interface WallClockOptions {
  /** A clock in milliseconds (default `performance.now`); inject one to test deterministically. */
  readonly now?: () => number;
}

class WallClock implements Trigger {
  readonly polling = true;
  private deadline = Number.NaN;
  private lastStep = Number.NaN;
  private lastFires = false;

  constructor(
    private readonly seconds: number,
    private readonly now: () => number,
  ) {}

  // Cached per step (as HOOMD's Trigger caches), so that every stage of one step, and a `due()` probe
  // before the dispatch, see the same answer; firing moves the deadline only once per step.
  fires(step: number): boolean {
    if (step === this.lastStep) return this.lastFires;
    const t = this.now();
    let hit = false;
    if (Number.isNaN(this.deadline)) {
      this.deadline = t + this.seconds * 1000;
    } else if (t >= this.deadline) {
      hit = true;
      this.deadline = t + this.seconds * 1000;
    }
    this.lastStep = step;
    this.lastFires = hit;
    return hit;
  }

  next(step: number): number {
    return step;
  }

  nextOff(step: number): number {
    return step;
  }

  describe(): string {
    return `wallClock(${this.seconds}s)`;
  }
}
builtInTrigger(WallClock);

/**
 * Fires at the first polled step after each `seconds` of wall-clock time. The clock starts at the
 * first poll (which does not fire), and each firing restarts it. It is a polling trigger: `next(step)`
 * returns `step`, so `registry.nextDue()` returns the current step and the engine crosses into JS at
 * every step while such a hook is enabled (combine it with `and(every(n), …)` to poll every n steps).
 *
 * @example
 * registry.register({ stage: Stage.SAVE, frequency: 1, trigger: wallClock(60), call: checkpoint });
 */
export function wallClock(seconds: number, options: WallClockOptions = {}): Trigger {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) {
    throw rangeError('INVALID_TRIGGER', 'wallClock', 'seconds', `must be a finite number > 0, got ${showText(seconds)}`, seconds);
  }
  checkKeys('wallClock', options, ['now']);
  return new WallClock(seconds, options.now ?? (() => performance.now()));
}
