// hookmd triggers: and(...), or(...), not(t). Each keeps `next` exact: periodic children are merged in
// closed form, clashes are detected from periodicity and residue signatures, and what remains is a
// jump search that stops with a proof (search.ts), not a guess.

import { Every, intersectEvery } from './every.js';
import { agree } from './search.js';
import { allOf, anyOf, constancy, negated, NEVER, signatureOf, UNKNOWN, type Signature } from './signature.js';
import { After, Before, at } from './steps.js';
import { checkTriggers, combinePeriodicity, nextOffOf, type Trigger, type TriggerPeriodicity } from './trigger.js';
import { builtInTrigger } from './checked.js';

const probeNext = (t: Trigger, s: number): number => t.next(s);

// Caches answers, as HOOMD's Trigger does: `fires` for the last step, and `next`/`nextOff` for a whole
// range: once next(s) = A is known, next(x) = A for every x in [s, A]. Searches probe their children
// with growing steps, so the range cache keeps nested searches from redoing each other's work.
// The children are pure (or cache their own polled answers), so a cached answer never goes stale.
abstract class Composite implements Trigger {
  readonly polling: boolean;
  readonly periodicity: TriggerPeriodicity | undefined;
  readonly signature: Signature;
  private firesStep = Number.NaN;
  private firesAnswer = false;
  private nextLo = Number.NaN;
  private nextHi = Number.NaN;
  private offLo = Number.NaN;
  private offHi = Number.NaN;

  /**
   * `children` as written (for `describe()`); `plan`, the same set simplified, is what is computed.
   * A composite that is constant from its periodicity start (`dead`, or by its signature) gets
   * period 1, so searches through it end at once.
   */
  constructor(
    protected readonly children: readonly Trigger[],
    protected readonly plan: readonly Trigger[],
    signature: Signature,
    periodicity: TriggerPeriodicity | undefined,
  ) {
    this.polling = plan.some((t) => t.polling === true);
    const constant = periodicity === undefined ? undefined : constancy(signature);
    this.signature = periodicity === undefined ? UNKNOWN : (constant ?? signature);
    this.periodicity = periodicity !== undefined && constant !== undefined ? { from: periodicity.from, period: 1 } : periodicity;
  }

  fires(step: number): boolean {
    if (step !== this.firesStep) {
      this.firesAnswer = this.computeFires(step);
      this.firesStep = step;
    }
    return this.firesAnswer;
  }

  next(step: number): number {
    if (!(step >= this.nextLo && step <= this.nextHi)) {
      this.nextHi = this.computeNext(step);
      this.nextLo = step;
    }
    return this.nextHi;
  }

  nextOff(step: number): number {
    if (!(step >= this.offLo && step <= this.offHi)) {
      this.offHi = this.computeNextOff(step);
      this.offLo = step;
    }
    return this.offHi;
  }

  abstract describe(): string;
  protected abstract computeFires(step: number): boolean;
  protected abstract computeNext(step: number): number;
  protected abstract computeNextOff(step: number): number;

  protected list(): string {
    return this.children.map((t) => t.describe()).join(', ');
  }

  /** The one trigger this composite reduces to (`or(x)` is x), or itself. */
  reduced(): Trigger {
    return this.plan.length === 1 ? unwrap(this.plan[0]) : this;
  }
}
builtInTrigger(Composite);

// The simplest equivalent of `t`, for the plans of enclosing composites: or(x) is x, not(not(x)) is x,
// not(after(k)) is before(k + 1), not(before(k)) is after(k − 1).
function unwrap(t: Trigger): Trigger {
  if (t instanceof Composite) return t.reduced();
  if (!(t instanceof Not)) return t;
  const inner = unwrap(t.child);
  if (inner instanceof Not) return unwrap(inner.child);
  if (inner instanceof After) return new Before(inner.k + 1);
  if (inner instanceof Before) return inner.k === 0 ? new Every(1, 0) : new After(inner.k - 1);
  return t;
}

// Simplifies the children of an `and` without changing its meaning: nested ands are flattened, every()
// children merge by the Chinese remainder theorem (a clash makes the `and` empty), after(k) folds into
// their phase, and composites go last, so that a cheap child answering Infinity ends a search early.
function andPlan(children: readonly Trigger[]): Trigger[] {
  const flat = children.map(unwrap).flatMap((t) => (t instanceof And ? t.parts() : [t]));
  const merged: Every[] = [];
  let afterK = -1;
  const rest: Trigger[] = [];
  for (const t of flat) {
    if (t instanceof After) afterK = Math.max(afterK, t.k);
    else if (!(t instanceof Every)) rest.push(t);
    else {
      const i = merged.findIndex((m) => intersectEvery(m, t) !== undefined);
      if (i < 0) merged.push(t);
      else {
        const both = intersectEvery(merged[i], t);
        if (both === null) return [at()];
        merged[i] = both as Every;
      }
    }
  }
  const periodic: Trigger[] = merged.map((e) => (afterK < 0 ? e : new Every(e.period, e.next(afterK + 1))));
  if (merged.length === 0 && afterK >= 0) periodic.push(new After(afterK));
  const costly = (t: Trigger): boolean => t instanceof Composite || t instanceof Not;
  return [...periodic, ...rest.filter((t) => !costly(t)), ...rest.filter(costly)];
}

// The largest number of candidates the clash check below looks at per child, and the widest `or`
// it distributes over.
const CLASH_SCAN = 4096;
const CLASH_BRANCHES = 8;

// The step from which an `and` led by a periodic child E (period L) can no longer fire, because some
// other child c rules out all of E's steps. Along E's steps x_j = x0 + j·L, past c's periodicity start,
// c's answer repeats every q = period(c) / gcd(L, period(c)) candidates, so q candidates decide it.
// An `or` child whose period is too long for that is split instead: and(E, or(a, b)) is dead where
// both and(E, a) and and(E, b) are (each found by the same rules, CRT merging included).
function deadFrom(plan: readonly Trigger[]): number | undefined {
  const lead = plan[0];
  if (!(lead instanceof Every)) return undefined;
  let dead: number | undefined;
  for (const c of plan.slice(1)) {
    const p = c.periodicity;
    if (p === undefined || c.polling === true) continue;
    const q = p.period / gcdInt(lead.period, p.period);
    let from: number | undefined;
    if (q <= CLASH_SCAN) {
      const x0 = lead.next(Math.max(p.from, lead.phase));
      let fires = false;
      for (let j = 0; j < q && !fires; j++) fires = c.fires(x0 + j * lead.period);
      if (!fires) from = x0;
    } else if (c instanceof Or && c.branches().length <= CLASH_BRANCHES) {
      from = c.branches().reduce<number | undefined>((acc, b) => {
        const start = acc === undefined ? undefined : neverFrom(new And([lead, b]));
        return start === undefined ? undefined : Math.max(acc as number, start);
      }, -Infinity);
    }
    if (from !== undefined) dead = Math.min(dead ?? Infinity, from);
  }
  return dead;
}

// The step from which `t` never fires, when its periodicity and signature prove it.
function neverFrom(t: Trigger): number | undefined {
  return t.periodicity?.period === 1 && signatureOf(t) === NEVER ? t.periodicity.from : undefined;
}

function gcdInt(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

class And extends Composite {
  constructor(children: readonly Trigger[]) {
    const plan = andPlan(children);
    const dead = deadFrom(plan);
    if (dead !== undefined) super(children, plan, NEVER, { from: dead, period: 1 });
    else super(children, plan, allOf(plan.map(signatureOf)), combinePeriodicity(plan));
  }
  /** The simplified children, for an enclosing `and` to flatten. */
  parts(): readonly Trigger[] {
    return this.plan;
  }
  // Short-circuits over pure children; polling children are asked only when all pure ones fire, so
  // a wall clock is consumed only at steps where the whole `and` can fire.
  protected computeFires(step: number): boolean {
    let polled = false;
    for (const t of this.plan) {
      if (t.polling === true) polled = true;
      else if (!t.fires(step)) return false;
    }
    if (!polled) return true;
    let all = true;
    for (const t of this.plan) if (t.polling === true && !t.fires(step)) all = false;
    return all;
  }
  protected computeNext(step: number): number {
    return agree(this.plan, step, probeNext, this.periodicity);
  }
  protected computeNextOff(step: number): number {
    let min = Infinity;
    for (const t of this.plan) min = Math.min(min, nextOffOf(t, step));
    return min;
  }
  describe(): string {
    return `and(${this.list()})`;
  }
}

class Or extends Composite {
  constructor(children: readonly Trigger[]) {
    const plan = children.map(unwrap).flatMap((t) => (t instanceof Or ? t.plan : [t]));
    super(children, plan, anyOf(plan.map(signatureOf)), combinePeriodicity(plan));
  }
  /** The simplified alternatives, for an enclosing `and` to split over. */
  branches(): readonly Trigger[] {
    return this.plan;
  }
  // Every polling child is asked at every step, so that a clock that is due is consumed now rather
  // than firing again at the next step.
  protected computeFires(step: number): boolean {
    let any = false;
    for (const t of this.plan) if (t.polling === true && t.fires(step)) any = true;
    if (any) return true;
    for (const t of this.plan) if (t.polling !== true && t.fires(step)) return true;
    return false;
  }
  protected computeNext(step: number): number {
    let min = Infinity;
    for (const t of this.plan) {
      min = Math.min(min, t.next(step));
      if (min === step) break;
    }
    return min;
  }
  protected computeNextOff(step: number): number {
    return agree(this.plan, step, nextOffOf, this.periodicity);
  }
  describe(): string {
    return `or(${this.list()})`;
  }
}

class Not implements Trigger {
  readonly polling: boolean;
  readonly periodicity: TriggerPeriodicity | undefined;
  readonly signature: Signature;
  constructor(readonly child: Trigger) {
    this.polling = child.polling === true;
    this.periodicity = child.periodicity;
    this.signature = negated(signatureOf(child));
  }
  fires(step: number): boolean {
    return !this.child.fires(step);
  }
  next(step: number): number {
    return nextOffOf(this.child, step);
  }
  nextOff(step: number): number {
    return this.child.next(step);
  }
  describe(): string {
    return `not(${this.child.describe()})`;
  }
}
builtInTrigger(Not);

/**
 * Fires when every child fires. `next` is exact for the built-in triggers (see docs/hooks.md for the
 * one limit): periodic children are merged by the Chinese remainder theorem, and other searches jump
 * between the children's next firing steps and prove "never" from their periodicity.
 *
 * @example
 * const t = and(every(4), every(6));
 * t.next(1); // 12
 * and(every(2), every(2, { phase: 1 })).next(0); // Infinity
 */
export function and(...triggers: Trigger[]): Trigger {
  return new And(checkTriggers('and', triggers, 1));
}

/**
 * Fires when any child fires; `next` is the smallest of the children's.
 *
 * @example
 * or(at(5), every(100)).next(6); // 100
 */
export function or(...triggers: Trigger[]): Trigger {
  return new Or(checkTriggers('or', triggers, 1));
}

/**
 * Fires exactly when `t` does not. `next` is `t`'s next non-firing step, which every built-in
 * trigger computes in closed form (`not(every(1)).next(0)` is Infinity, found without a scan).
 *
 * @example
 * not(before(100)).next(0); // 100
 */
export function not(t: Trigger): Trigger {
  return new Not(checkTriggers('not', [t], 1)[0]);
}
