// hookmd hook kernel: the registry's record of one registered hook. Everything the hot loop reads is
// resolved here, once: gating (frequency or trigger), stages, name, policy, state key. All records
// share one class, so the dispatch loop's property loads stay monomorphic.

import { typeError } from './errors.js';
import type { HookHandle } from './handle.js';
import type { AnyHook, ErrorPolicy, HookTier } from './hook.js';
import { isMethodHook, stageMethods } from './method-hooks.js';
import type { StageSlot, StageTable } from './slots.js';
import { deriveStateKey } from './state.js';
import { checkedTrigger } from './triggers/checked.js';
import { every } from './triggers/every.js';
import type { Trigger } from './triggers/trigger.js';
import { checkHook, hookName } from './validate.js';

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
  /** The handle `register()` returned; set when the record is committed. */
  handle: HookHandle<AnyHook> | null = null;
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
 * Validates `hook` against a registry's stages and builds its record.
 * `fallbackConfig` stands in for `hook.config` in the state key (fromConfig passes the entry's args).
 */
export function makeRecord(
  hook: unknown,
  seq: number,
  table: StageTable,
  op: string,
  fallbackConfig?: unknown,
): HookRecord {
  checkHook(hook, op);
  const methodStyle = isMethodHook(hook);
  const methods = methodStyle ? stageMethods(hook, table, op) : new Map(resolveSlots(hook, table, op).map((slot) => [slot, hook.call as CallFn]));
  const name = hookName(hook, seq);
  // A method-style hook may leave out frequency: it then fires at every step of its stages.
  const period = hook.frequency ?? 1;
  const frequency = hook.trigger === undefined ? period : 0;
  const trigger = hook.trigger === undefined ? every(period) : checkedTrigger(hook.trigger);
  const stateKey =
    typeof hook.stateDict === 'function' ? deriveStateKey(name, hook.stateKey, hook.config ?? fallbackConfig) : null;
  return new HookRecord(
    hook, name, seq, hook.order ?? 0, hook.tier ?? 'user', frequency, trigger, [...methods.keys()], methods,
    hook.errorPolicy ?? 'raise', stateKey, methodStyle,
  );
}

// runsOnStage is asked once per stage of the set; a plain hook must name one of the set's stages. A
// runsOnStage that matches none registers a hook that never fires (and is never due), so one hook object
// can serve registries of several stage sets (docs/hooks.md, rule 1).
function resolveSlots(hook: AnyHook, table: StageTable, op: string): StageSlot[] {
  const pick = hook.runsOnStage;
  if (pick !== undefined) return table.slots.filter((slot) => pick.call(hook, slot.value) === true);
  const slot = table.slot(hook.stage);
  if (slot === undefined) {
    throw typeError(
      'FOREIGN_STAGE',
      op,
      'stage',
      `must be one of this registry's stages (${table.names()}), got ${String(hook.stage)}`,
      hook.stage,
    );
  }
  return [slot];
}
