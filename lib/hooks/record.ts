// hookmd hook kernel: the registry's record of one registered hook. Everything the hot loop reads is
// resolved here, once: gating (frequency or trigger), stages, name, policy, state key. All records
// share one class, so the dispatch loop's property loads stay monomorphic.

import { typeError } from './errors.js';
import type { HookHandle } from './handle.js';
import type { AnyHook, ErrorPolicy } from './hook.js';
import type { StageSlot, StageTable } from './slots.js';
import { deriveStateKey } from './state.js';
import { every } from './triggers/every.js';
import type { Trigger } from './triggers/trigger.js';
import { checkHook, hookName } from './validate.js';

/** The function the dispatcher calls: the hook's `call`, or the profiler's timed wrapper of it. */
export type CallFn = (this: AnyHook, ctx: unknown, stage: unknown) => unknown;

/** One registration. */
export class HookRecord {
  /** The hook's `call`, as it was at registration. */
  readonly call: CallFn;
  /** What dispatch calls: `call`, or a timed wrapper of it while profiling (see profile.ts). */
  fn: CallFn;
  enabled = true;
  /** False once removed; a removed record never comes back. */
  registered = true;
  calls = 0;
  ns = 0;
  /** The handle `register()` returned; set when the record is committed. */
  handle: HookHandle<AnyHook> | null = null;

  constructor(
    readonly hook: AnyHook,
    readonly name: string,
    readonly seq: number,
    readonly order: number,
    /** The frequency when the hook has no trigger (the fast path), else 0. */
    readonly frequency: number,
    /** The trigger, or `every(frequency)`: used for `nextDue`, `list()` and trigger gating. */
    readonly trigger: Trigger,
    readonly slots: readonly StageSlot[],
    readonly policy: ErrorPolicy,
    /** The checkpoint key, for hooks with `stateDict`; else null. */
    readonly stateKey: string | null,
  ) {
    this.call = hook.call as CallFn;
    this.fn = this.call;
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
  const slots = resolveSlots(hook, table, op);
  const name = hookName(hook, seq);
  const frequency = hook.trigger === undefined ? hook.frequency : 0;
  const trigger = hook.trigger ?? every(hook.frequency);
  const stateKey =
    typeof hook.stateDict === 'function' ? deriveStateKey(name, hook.stateKey, hook.config ?? fallbackConfig) : null;
  return new HookRecord(hook, name, seq, hook.order ?? 0, frequency, trigger, slots, hook.errorPolicy ?? 'raise', stateKey);
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
