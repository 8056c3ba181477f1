// hookmd hook kernel: the dispatch loop. Synchronous until a hook returns a promise; from then on the
// rest of the stage's hooks run, in order, after awaiting it (Rule 11). No closure, array or context is
// allocated per hook (Rule 5): the loop reads pre-sorted records and precomputed gating.

import { asyncInSyncRun } from './errors.js';
import type { RegistryCore } from './core.js';
import { FAR, type CallFn, type HookRecord, type StageSlot } from './record.js';
import { isThenable } from './thenable.js';


/**
 * Runs the records of `slot` from index `start` at `step`, gating each (Rule 1), and returns a promise
 * only if some hook returned one. `due` accumulates the smallest next firing step, which becomes the
 * slot's skip window once the whole list has run with the list unchanged.
 */
export function scan(
  core: RegistryCore,
  slot: StageSlot,
  recs: readonly HookRecord[],
  fns: readonly CallFn[],
  start: number,
  due: number,
  stage: unknown,
  ctx: unknown,
  step: number,
  sync: boolean,
): void | Promise<void> {
  for (let i = start; i < recs.length; i++) {
    const rec = recs[i];
    const f = rec.frequency;
    let fires: boolean;
    let next: number;
    if (f !== 0) {
      const r = step % f;
      fires = r === 0;
      next = step - r + f;
    } else {
      fires = rec.trigger.fires(step);
      next = rec.trigger.next(step + 1);
    }
    if (next < due) due = next;
    // `enabled` is re-read because an earlier hook of this dispatch may have disabled this one.
    if (!fires || !rec.enabled) continue;
    core.running = rec.name;
    let ret: unknown;
    try {
      ret = fns[i].call(rec.hook, ctx, stage);
    } catch (cause) {
      core.running = null;
      core.fail(rec, cause, stage, step, ctx);
      continue;
    }
    if (ret !== undefined && isThenable(ret)) {
      if (sync) {
        core.running = null;
        // The promise runs on regardless; report its failure rather than leave it unhandled.
        ret.then(undefined, (e: unknown) => core.logger.warn(`dispatchSync: hook '${rec.name}' rejected after the sync run failed`, e));
        throw asyncInSyncRun('dispatchSync', `hook '${rec.name}' at stage ${core.table.name(stage)}, step ${step}`, rec.name);
      }
      return resume(core, slot, recs, fns, i, due, stage, ctx, step, ret);
    }
  }
  core.running = null;
  if (slot.recs === recs) {
    slot.from = step + 1;
    slot.due = due < FAR ? due : FAR;
  }
  return undefined;
}

// Awaits hook `i`'s promise, then scans the rest of the list.
async function resume(
  core: RegistryCore,
  slot: StageSlot,
  recs: readonly HookRecord[],
  fns: readonly CallFn[],
  i: number,
  due: number,
  stage: unknown,
  ctx: unknown,
  step: number,
  pending: PromiseLike<unknown>,
): Promise<void> {
  try {
    await pending;
  } catch (cause) {
    core.running = null;
    core.fail(recs[i], cause, stage, step, ctx);
  }
  return scan(core, slot, recs, fns, i + 1, due, stage, ctx, step, false);
}

/** Whether any enabled record of `slot` fires at `step` (no hook is called). */
export function anyDue(slot: StageSlot, step: number): boolean {
  if (step >= slot.from && step < slot.due) return false;
  for (const rec of slot.recs) if (rec.firesAt(step)) return true;
  return false;
}
