// State observers (docs/dynamics.md, "Logs and trajectories"): hooks that record the state of the systems,
// as LAMMPS's thermo and dumps and ASE's MDLogger and trajectories do. Besides their stage, they record the
// state a run starts from (its row or frame 0) and the state it ends in (the last step, always), and in
// runStream the state each system enters and leaves the batch with.
import { acrossNative } from '../data/index.js';
import { HookError } from '../hooks/index.js';
import { asyncInSyncRun } from '../hooks/errors.js';
import type { AnyHook, MutableContext } from '../hooks/index.js';
import type { DynamicsHookContext } from './hook-context.js';
import { pendingCompute } from './engine-model.js';
import type { HookTiers } from './hook-tiers.js';
import { DynamicsStage } from './stage.js';

/**
 * A hook that also records whole states outside its stage: `observeState(ctx, systems)` gets the state
 * after `ctx.stepCount` steps (with the results of those positions), for the systems flagged in `systems`
 * (null: all of them).
 *
 * @example
 * const observer = { stage: DynamicsStage.AFTER_STEP, frequency: 10, call: (ctx) => log(ctx.stepCount + 1, ctx), observeState: (ctx) => log(ctx.stepCount, ctx) };
 */
export interface StateObserver {
  observeState(ctx: DynamicsHookContext, systems: Uint8Array | null): void | Promise<void>;
}

function isStateObserver(hook: AnyHook): hook is AnyHook & StateObserver {
  return typeof (hook as Partial<StateObserver>).observeState === 'function';
}

/**
 * The label of a state seen at `stage` of step `step`: from AFTER_POST_UPDATE on, the step has moved the
 * systems, so their state is the one after `step + 1` steps.
 */
export function stepsTaken(stage: DynamicsStage, step: number): number {
  return stage >= DynamicsStage.AFTER_POST_UPDATE ? step + 1 : step;
}

/**
 * Lets every enabled state observer of `tiers` record the state after `step` steps of the systems flagged
 * in `systems` (null: all), each tier's with its `ctx.subStage`. A promise when some observer is async
 * (refused in a sync run); a failure becomes a HookError naming the hook.
 */
export function observeStates(
  tiers: HookTiers,
  ctx: MutableContext<DynamicsHookContext>,
  step: number,
  systems: Uint8Array | null,
  sync: boolean,
  owner: string,
): Promise<void> | undefined {
  const calls = tiers.tiers.flatMap((tier) => tier.hooks.handles()
    .filter((handle) => handle.enabled && isStateObserver(handle.hook))
    .map((handle) => ({ tier, name: handle.name, hook: handle.hook as AnyHook & StateObserver })));
  if (calls.length === 0) return undefined;
  ctx.stage = DynamicsStage.BEFORE_STEP;
  ctx.stepCount = step;
  ctx.convergedMask = null;
  ctx.convergedFrom = null;
  ctx.scalars.invalidate();
  const failed = (name: string, cause: unknown): HookError => new HookError(owner, { hookName: name, stage: null, stageName: 'observeState', step, cause, context: ctx });
  const run = (index: number): Promise<void> | undefined => {
    for (let i = index; i < calls.length; i++) {
      const { tier, name, hook } = calls[i];
      ctx.subStage = tier.subStage;
      let pending: void | Promise<void>;
      try {
        pending = hook.observeState(ctx, systems);
      } catch (cause) {
        throw failed(name, cause);
      } finally {
        ctx.subStage = null;
      }
      if (pending !== undefined && typeof (pending as Promise<void>).then === 'function') {
        if (sync) {
          Promise.resolve(pending).catch(() => undefined);
          throw asyncInSyncRun(owner, `observeState of hook '${name}'`, name);
        }
        return Promise.resolve(pending).then(() => run(i + 1), (cause: unknown) => Promise.reject(failed(name, cause)));
      }
    }
    ctx.batch.commitHostViews();
    return undefined;
  };
  // A stress that the steps did not compute is evaluated once for the observers that need it (only the
  // energy and stress: the forces stay the step's).
  const batch = ctx.batch;
  if (calls.some(({ hook }) => hook.needs?.includes('stress') === true) && !batch.resultValid('stress').every((valid) => valid === 1)) {
    const pending = acrossNative(batch, () => pendingCompute(ctx.model.compute(batch, { forces: false, stress: true })));
    if (pending !== undefined) {
      if (sync) throw asyncInSyncRun(owner, 'the stress compute for observeState', undefined);
      return pending.then(() => run(0));
    }
  }
  return run(0);
}
