// hookmd triggers: every(n, { phase }), HOOMD's Periodic(period, phase).

import { rangeError } from '../errors.js';
import { checkKeys } from '../../option-keys.js';
import { periodicSignature, type Signature } from './signature.js';
import { checkStep, type Trigger, type TriggerPeriodicity } from './trigger.js';
import { builtInTrigger } from './checked.js';
import { showText } from '../../describe-value.js';

/**
 * Options of {@link every}.
 *
 * @example
 * every(100, { phase: 50 } satisfies EveryOptions); // 50, 150, 250, …
 */
export interface EveryOptions {
  /** The first step at which it fires (default 0). No firing happens before it. */
  readonly phase?: number;
}

/** every(n, { phase }); exported for `and`, which merges periodic children (see {@link intersectEvery}). */
export class Every implements Trigger {
  readonly periodicity: TriggerPeriodicity;
  readonly signature: Signature;
  constructor(
    readonly period: number,
    readonly phase: number,
  ) {
    this.periodicity = { from: phase, period };
    this.signature = periodicSignature(period, phase);
  }

  fires(step: number): boolean {
    return step >= this.phase && (step - this.phase) % this.period === 0;
  }

  next(step: number): number {
    if (step <= this.phase) return this.phase;
    const r = (step - this.phase) % this.period;
    return r === 0 ? step : step + this.period - r;
  }

  nextOff(step: number): number {
    if (!this.fires(step)) return step;
    return this.period === 1 ? Infinity : step + 1;
  }

  describe(): string {
    return this.phase === 0 ? `every(${this.period})` : `every(${this.period}, phase ${this.phase})`;
  }
}
builtInTrigger(Every);

/**
 * The steps where both fire, as one `Every`: x ≡ a.phase (mod a.period), x ≡ b.phase (mod b.period),
 * x ≥ both phases. By the generalized Chinese remainder theorem this is empty when the phases differ
 * modulo gcd(periods) (returns null), else one residue class modulo lcm(periods). Returns undefined
 * when the lcm is too large for exact integers (the caller then keeps both triggers).
 */
export function intersectEvery(a: Every, b: Every): Every | null | undefined {
  const [n1, r1, n2, r2] = [BigInt(a.period), BigInt(a.phase), BigInt(b.period), BigInt(b.phase)];
  const g = gcd(n1, n2);
  if ((r2 - r1) % g !== 0n) return null;
  const lcm = (n1 / g) * n2;
  const start = r1 > r2 ? r1 : r2;
  if (lcm + start > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  // x = r1 + n1·t with (n1/g)·t ≡ (r2 − r1)/g (mod n2/g).
  const m = n2 / g;
  const t = mod(((r2 - r1) / g) * inverse(mod(n1 / g, m), m), m);
  const x0 = r1 + n1 * t;
  const phase = start + mod(x0 - start, lcm);
  return new Every(Number(lcm), Number(phase));
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function mod(a: bigint, m: bigint): bigint {
  const r = a % m;
  return r < 0n ? r + m : r;
}

// Inverse of a modulo m (gcd(a, m) = 1), by the extended Euclidean algorithm.
function inverse(a: bigint, m: bigint): bigint {
  if (m === 1n) return 0n;
  let [oldR, r, oldS, s] = [a, m, 1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return mod(oldS, m);
}

/**
 * Fires at steps `phase, phase + n, phase + 2n, …`: step s fires iff `s ≥ phase` and
 * `(s − phase) % n === 0`. This is HOOMD's `Periodic(period, phase)` as documented ("phase: the first
 * time step to trigger"); unlike HOOMD's unsigned arithmetic, it never fires before `phase`.
 * `frequency: n` on a hook is the same as `trigger: every(n)`.
 *
 * @example
 * const t = every(10, { phase: 5 });
 * t.fires(15); // true
 * t.next(16);  // 25
 */
export function every(n: number, options: EveryOptions = {}): Trigger {
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) {
    throw rangeError('INVALID_TRIGGER', 'every', 'n', `must be an integer ≥ 1, got ${showText(n)}`, n);
  }
  checkKeys('every', options, ['phase'], '', { offset: 'phase' });
  return new Every(n, checkStep('every', 'phase', options.phase ?? 0));
}
