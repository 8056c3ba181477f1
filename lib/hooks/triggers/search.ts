// hookmd triggers: the search behind and(...).next and or(...).nextOff.

import { beginSearch, endSearch, spend, type Trigger, type TriggerPeriodicity } from './trigger.js';

/**
 * The first step c ≥ step at which every child's probe answers c itself (`next` for "all fire",
 * `nextOff` for "none fires"), or Infinity.
 *
 * Each round moves c to the largest probe answer. Probes never overshoot, so c stays ≤ the true
 * answer A. With periodicity {from, period}, A (if it exists) lies below max(step, from) + period:
 * a firing at A ≥ that bound would repeat one period earlier, still ≥ step, contradicting minimality.
 * So once c reaches the bound there is no answer. If the shared search budget runs out first (no
 * periodicity, or an astronomically long period), c is returned: a lower bound, still a safe schedule.
 */
export function agree(
  children: readonly Trigger[],
  step: number,
  probe: (t: Trigger, s: number) => number,
  periodicity: TriggerPeriodicity | undefined,
): number {
  const bound = periodicity === undefined ? Infinity : Math.max(step, periodicity.from) + periodicity.period;
  let c = step;
  beginSearch();
  try {
    while (spend()) {
      let moved = false;
      for (const t of children) {
        const n = probe(t, c);
        if (n > c) {
          if (n === Infinity) return Infinity;
          c = n;
          moved = true;
        }
      }
      if (!moved) return c;
      if (c >= bound) return Infinity;
    }
    return c;
  } finally {
    endSearch();
  }
}
