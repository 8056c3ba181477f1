// Rule 4 of DESIGN §4: the triggers, each with an exact next(step). The property test checks next()
// against a brute-force scan of an independent reference predicate, for random trigger trees.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { after, and, at, before, every, not, or, wallClock, type Trigger } from '../../lib/hooks/index.js';

const INF = Number.POSITIVE_INFINITY;

describe('Rule 4: leaf triggers', () => {
  it('every(n, { phase }) fires at phase, phase + n, … and never before phase', () => {
    const t = every(10, { phase: 5 });
    expect([0, 4, 5, 6, 15, 25].map((s) => t.fires(s))).toEqual([false, false, true, false, true, true]);
    expect([0, 5, 6, 15, 16].map((s) => t.next(s))).toEqual([5, 5, 15, 15, 25]);
    expect([t.nextOff?.(5), t.nextOff?.(6), t.nextOff?.(0)]).toEqual([6, 6, 0]);
    expect(t.describe()).toBe('every(10, phase 5)');
    expect(every(3).describe()).toBe('every(3)');
  });

  it('every(1) never stops firing, so its next non-firing step is Infinity', () => {
    expect(every(1).nextOff?.(7)).toBe(INF);
  });

  it('at(...steps) ignores order and repeats', () => {
    const t = at(100, 10, 1000, 10);
    expect([t.next(0), t.next(10), t.next(11), t.next(1001)]).toEqual([10, 10, 100, INF]);
    expect([t.fires(10), t.fires(11)]).toEqual([true, false]);
    expect(at(3, 4, 5, 9).nextOff?.(3)).toBe(6);
    expect(t.describe()).toBe('at(10, 100, 1000)');
    expect(at().next(0)).toBe(INF);
  });

  it('after(k) fires strictly after k; before(k) strictly before k', () => {
    const a = after(5);
    const b = before(5);
    expect([a.fires(5), a.fires(6), a.next(0), a.next(9)]).toEqual([false, true, 6, 9]);
    expect([b.fires(4), b.fires(5), b.next(3), b.next(5), b.nextOff?.(0)]).toEqual([true, false, 3, INF, 5]);
  });

  it('rejects bad arguments with typed errors', () => {
    const codes = [() => every(0), () => every(2, { phase: -1 }), () => at(1.5), () => after(-1), () => wallClock(0)].map((f) => {
      try {
        f();
        return 'accepted';
      } catch (e) {
        return [(e as { code: string }).code, e instanceof RangeError];
      }
    });
    expect(codes).toEqual(Array(5).fill(['INVALID_TRIGGER', true]));
    expect(() => and()).toThrow(expect.objectContaining({ code: 'INVALID_TRIGGER' }));
    expect(() => not({} as Trigger)).toThrow('not: triggers[0] must have fires(), next() and describe()');
  });
});

describe('Rule 4: composite triggers', () => {
  it('and: the first common step, found by jumping', () => {
    expect(and(every(4), every(6)).next(1)).toBe(12);
    expect(and(after(100), every(7)).next(0)).toBe(105);
    expect(and(every(4), every(6)).describe()).toBe('and(every(4), every(6))');
  });

  it('and: proves "never" from periodicity instead of scanning forever', () => {
    expect(and(every(2), every(2, { phase: 1 })).next(0)).toBe(INF);
    expect(and(before(10), every(20)).next(1)).toBe(INF);
    expect(and(every(1000), not(every(1000))).next(0)).toBe(INF);
  });

  it('and: proves "never" through not/or, by residues and by splitting an or', () => {
    // Multiples of 6 are multiples of 3.
    expect(and(every(6), not(every(3))).next(0)).toBe(INF);
    // every(22, phase 1) fires at odd steps only; every(10) and every(4) at even steps only.
    expect(and(every(22, { phase: 1 }), or(every(10), every(4))).next(0)).toBe(INF);
    // x ≡ 10 (mod 660) is even and ≡ 0 (mod 5); the branches need x ≡ 2 (mod 5), x odd, x ≡ 4 (mod 5).
    const split = and(every(660, { phase: 10 }), or(every(355, { phase: 32 }), every(18, { phase: 197 }), every(335, { phase: 29 })));
    expect(split.next(0)).toBe(INF);
    // The same shape with a compatible branch: x ≡ 10 (mod 660) and x ≡ 0 (mod 7): 10 + 660·j ≡ 0 (mod 7)
    // gives 3 + 2j ≡ 0, j = 2, x = 1330.
    expect(and(every(660, { phase: 10 }), or(every(18, { phase: 1 }), every(7))).next(0)).toBe(1330);
  });

  it('or: the smallest child next', () => {
    expect(or(at(5), every(100)).next(6)).toBe(100);
    expect(or(at(5), every(100)).next(5)).toBe(5);
  });

  it('not: closed-form next through the child next non-firing step', () => {
    expect(not(every(1)).next(0)).toBe(INF);
    expect(not(before(100)).next(0)).toBe(100);
    expect(not(after(10)).next(11)).toBe(INF);
    expect(not(every(3)).next(3)).toBe(4);
    expect(not(not(every(3))).next(4)).toBe(6);
  });

  it('the simplifications inside and/or keep the meaning at the boundary steps', () => {
    // not(after(5)) is before(6): it fires at 5. not(before(5)) is after(4): it fires at 5, not at 4.
    expect(and(not(after(5)), every(1)).next(5)).toBe(5);
    expect(and(not(after(5)), every(1)).next(6)).toBe(INF);
    expect(and(not(before(5)), every(1)).next(0)).toBe(5);
    expect(or(not(before(0)), at(3)).next(0)).toBe(0);
    expect(and(not(not(every(3))), every(2)).next(1)).toBe(6);
    // after(k) folds into a periodic child's phase: the first multiple of 7 after 100.
    expect(and(every(7), after(100)).next(0)).toBe(105);
    expect(and(every(7), after(105)).next(0)).toBe(112);
  });

  it('custom triggers without structure still compose (bounded walk)', () => {
    const odd: Trigger = { fires: (s) => s % 2 === 1, next: (s) => (s % 2 === 1 ? s : s + 1), describe: () => 'odd' };
    expect(not(odd).next(1)).toBe(2);
    expect(and(odd, every(3)).next(0)).toBe(3);
    expect(or(odd, every(4)).nextOff?.(3)).toBe(6);
  });
});

describe('Rule 4: wallClock', () => {
  it('fires at the first polled step after each interval, once per step', () => {
    const times = [0, 500, 1000, 1500, 2100];
    let reads = 0;
    const t = wallClock(1, { now: () => times[reads++] });
    const answers = [t.fires(0), t.fires(1), t.fires(2), t.fires(2), t.fires(3), t.fires(4)];
    expect(answers).toEqual([false, false, true, true, false, true]);
    expect(reads).toBe(5);
    expect([t.polling, t.next(7), t.describe()]).toEqual([true, 7, 'wallClock(1s)']);
  });

  it('an or() polls its clock even when another child fires, so the clock does not fire twice in a row', () => {
    const times = [0, 900, 1000, 1100];
    let reads = 0;
    const t = or(at(2), wallClock(1, { now: () => times[reads++] }));
    expect([0, 1, 2, 3].map((s) => t.fires(s))).toEqual([false, false, true, false]);
    expect(t.polling).toBe(true);
  });
});

// ---- property test ---------------------------------------------------------------------------

type Spec =
  | { kind: 'every'; n: number; phase: number }
  | { kind: 'at'; steps: number[] }
  | { kind: 'after' | 'before'; k: number }
  | { kind: 'and' | 'or'; children: Spec[] }
  | { kind: 'not'; child: Spec };

const leaf: fc.Arbitrary<Spec> = fc.oneof(
  fc.record({ kind: fc.constant('every' as const), n: fc.integer({ min: 1, max: 40 }), phase: fc.integer({ min: 0, max: 300 }) }),
  fc.record({ kind: fc.constant('every' as const), n: fc.integer({ min: 100, max: 700 }), phase: fc.integer({ min: 0, max: 50 }) }),
  fc.record({ kind: fc.constant('at' as const), steps: fc.array(fc.integer({ min: 0, max: 2100 }), { maxLength: 6 }) }),
  fc.record({ kind: fc.constantFrom('after' as const, 'before' as const), k: fc.integer({ min: 0, max: 2100 }) }),
);

function tree(depth: number): fc.Arbitrary<Spec> {
  if (depth === 0) return leaf;
  const sub = tree(depth - 1);
  return fc.oneof(
    { weight: 2, arbitrary: leaf },
    { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('and' as const, 'or' as const), children: fc.array(sub, { minLength: 1, maxLength: 3 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('not' as const), child: sub }) },
  );
}
const trees = tree(4);

function build(spec: Spec): Trigger {
  switch (spec.kind) {
    case 'every':
      return every(spec.n, { phase: spec.phase });
    case 'at':
      return at(...spec.steps);
    case 'after':
      return after(spec.k);
    case 'before':
      return before(spec.k);
    case 'and':
      return and(...spec.children.map(build));
    case 'or':
      return or(...spec.children.map(build));
    case 'not':
      return not(build(spec.child));
  }
}

// The meaning of a spec, written independently of lib/hooks.
function reference(spec: Spec, s: number): boolean {
  switch (spec.kind) {
    case 'every':
      return s >= spec.phase && (s - spec.phase) % spec.n === 0;
    case 'at':
      return spec.steps.includes(s);
    case 'after':
      return s > spec.k;
    case 'before':
      return s < spec.k;
    case 'and':
      return spec.children.every((c) => reference(c, s));
    case 'or':
      return spec.children.some((c) => reference(c, s));
    case 'not':
      return !reference(spec.child, s);
  }
}

const HORIZON = 2000;

// bruteNext[s] = first step in [s, HORIZON] where the reference fires, or -1 for none.
function bruteNext(spec: Spec): Int32Array {
  const out = new Int32Array(HORIZON + 2).fill(-1);
  for (let s = HORIZON; s >= 0; s--) out[s] = reference(spec, s) ? s : out[s + 1];
  return out;
}

function checkStep(spec: Spec, t: Trigger, brute: Int32Array, s: number): void {
  expect(t.fires(s)).toBe(reference(spec, s));
  const next = t.next(s);
  if (brute[s] >= 0) expect(next).toBe(brute[s]);
  else expect(next).toBeGreaterThan(HORIZON);
  if (Number.isFinite(next)) {
    expect(t.fires(next)).toBe(true);
    expect(reference(spec, next)).toBe(true);
  }
}

describe('Rule 4: next(s) is the first firing step ≥ s (property)', () => {
  it('for sampled steps of 300 random trees of depth ≤ 4', () => {
    fc.assert(
      fc.property(trees, fc.array(fc.integer({ min: 0, max: HORIZON }), { minLength: 40, maxLength: 40 }), (spec, steps) => {
        const t = build(spec);
        const brute = bruteNext(spec);
        for (const s of steps) checkStep(spec, t, brute, s);
      }),
      { numRuns: 300 },
    );
  });

  it('for every step 0..2000 of 25 random trees', () => {
    fc.assert(
      fc.property(trees, (spec) => {
        const t = build(spec);
        const brute = bruteNext(spec);
        for (let s = 0; s <= HORIZON; s++) checkStep(spec, t, brute, s);
      }),
      { numRuns: 25 },
    );
  });

  it('for the hand-picked hard cases', () => {
    const hard: Spec[] = [
      { kind: 'and', children: [{ kind: 'every', n: 599, phase: 0 }, { kind: 'every', n: 601, phase: 1 }] },
      { kind: 'not', child: { kind: 'or', children: [{ kind: 'every', n: 2, phase: 0 }, { kind: 'every', n: 2, phase: 1 }] } },
      { kind: 'and', children: [{ kind: 'not', child: { kind: 'every', n: 1, phase: 0 } }, { kind: 'after', k: 3 }] },
      { kind: 'or', children: [{ kind: 'at', steps: [] }, { kind: 'before', k: 0 }] },
    ];
    for (const spec of hard) {
      const t = build(spec);
      const brute = bruteNext(spec);
      for (let s = 0; s <= HORIZON; s++) checkStep(spec, t, brute, s);
    }
    // x ≡ 0 (mod 599), x ≡ 1 (mod 601): 599 ≡ −2 (mod 601), so x = 599·300 = 179 700, far past the horizon.
    expect(build(hard[0]).next(0)).toBe(179_700);
  });
});
