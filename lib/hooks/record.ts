// hookmd hook kernel: the registry's record of one registered hook, and the per-stage slot that holds
// records in firing order. Everything the hot loop reads is resolved here, once: gating (frequency or
// trigger), stages, name, policy, state key. All records share one class, so the dispatch loop's property
// loads stay monomorphic. A record knows its slots and a slot its records, so the two live together; the
// code that builds records (make-record.ts) and the table of slots (slots.ts) sit above them.

import type { AnyHook, ErrorPolicy, HookTier } from './hook.js';
import type { StageValue } from './stages.js';
import type { Trigger } from './triggers/trigger.js';

/** The function the dispatcher calls: the hook's `call` or stage method, or the profiler's timed wrapper of it. */
export type CallFn = (this: AnyHook, ctx: unknown, stage: unknown) => unknown;

/** One registration. */
export class HookRecord {
  /** What dispatch calls at each slot, as it was at registration. */
  readonly methods: ReadonlyMap<StageSlot, CallFn>;
  /** Timed wrappers of `methods` while profiling (see profile.ts), else null. */
  timed: ReadonlyMap<StageSlot, CallFn> | null = null;
  enabled = true;
  /** False once removed; a removed record never comes back. */
  registered = true;
  calls = 0;
  ns = 0;
  /** The HookHandle `register()` returned (handle.ts); set when the record is committed. */
  handle: unknown = null;
  /** The name shown in `list()` and errors: `baseName`, or `baseName#2`, … when the registry has one already. */
  name: string;

  constructor(
    readonly hook: AnyHook,
    /** The hook's own name (its `name`, class name, …), before the registry makes it unique. */
    readonly baseName: string,
    readonly seq: number,
    readonly order: number,
    readonly tier: HookTier,
    /** The frequency when the hook has no trigger (the fast path), else 0. */
    readonly frequency: number,
    /** The trigger, or `every(frequency)`: used for `nextDue`, `list()` and trigger gating. */
    readonly trigger: Trigger,
    readonly slots: readonly StageSlot[],
    methods: ReadonlyMap<StageSlot, CallFn>,
    readonly policy: ErrorPolicy,
    /** The checkpoint key, for hooks with `stateDict`; else null. */
    readonly stateKey: string | null,
    /** True for a method-style hook. */
    readonly methodStyle: boolean,
  ) {
    this.name = baseName;
    this.methods = methods;
  }

  /** What dispatch calls at `slot`. */
  fnFor(slot: StageSlot): CallFn {
    return ((this.timed ?? this.methods).get(slot) ?? this.methods.get(slot)) as CallFn;
  }

  /** The first step ≥ step at which this record fires. */
  nextFrom(step: number): number {
    if (this.frequency === 0) return this.trigger.next(step);
    const r = step % this.frequency;
    return r === 0 ? step : step - r + this.frequency;
  }

  /** Whether it fires at this step (stage aside). */
  firesAt(step: number): boolean {
    return this.frequency === 0 ? this.trigger.fires(step) : step % this.frequency === 0;
  }
}

/**
 * The "no end" of a skip window. Window bounds stay small integers, which V8 keeps unboxed in the slot
 * object; a bound of Infinity would turn both fields into boxed doubles and add a load to every
 * dispatch. Past this step (a run of over a billion steps) the bounds become doubles: still correct.
 */
export const FAR: number = 2 ** 30 - 1;

/** One stage's hooks, in firing order, and its skip window. */
export class StageSlot {
  /** Enabled records that fire at this stage, sorted by (order, registration). Replaced, never mutated. */
  recs: HookRecord[] = [];
  /** What to call for each record of `recs`, index for index: its `call`, or its method for this stage. */
  fns: CallFn[] = [];
  /**
   * No record fires at any step in [from, due). Written after each full scan (from = step + 1,
   * due = the smallest `next(step + 1)`, at most FAR), and reset whenever `recs` is replaced.
   */
  from: number = -1;
  due: number = FAR;

  constructor(
    readonly value: StageValue,
    readonly name: string,
  ) {}

  /** Installs a new record list and drops the skip window, so the next dispatch scans. */
  reset(recs: HookRecord[]): void {
    this.recs = recs;
    this.fns = recs.map((rec) => rec.fnFor(this));
    this.from = recs.length === 0 ? -1 : 0;
    this.due = recs.length === 0 ? FAR : 0;
  }
}
