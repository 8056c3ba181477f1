// The JS hooks of an engine, in tiers: the engine's own hooks, then, in a FusedStage, one tier per sub-stage.
// A dispatch walks the tiers in nvalchemi's order (docs/pipeline.md, upstream PR #182): the fused hooks
// bracket the sub-stages' hooks. At BEFORE_* stages the engine's tier fires first, then the sub-stages in
// order; at AFTER_* stages and ON_CONVERGE the sub-stages in order, then the engine's tier. A sub-stage's
// hooks see `ctx.subStage`, and at ON_CONVERGE only the systems that were in their sub-stage when the step
// began and converged out of it.
import { HookRegistry } from '../hooks/index.js';
import type { AnyHook, HookHandle, MutableContext, RegisterOptions } from '../hooks/index.js';
import type { DynamicsHook, DynamicsHookContext } from './hook-context.js';
import { DYNAMICS_METHOD_ALIASES, DynamicsStage } from './stage.js';

type Registry = HookRegistry<typeof DynamicsStage, DynamicsHookContext>;

/** One tier: its hooks (ON_CONVERGE, an event stage, never makes a step due), and its sub-stage. */
export interface HookTier {
  readonly hooks: Registry;
  /** The sub-stage index, or null for the engine's own hooks. */
  readonly subStage: number | null;
}

function isAfter(stage: DynamicsStage): boolean {
  return stage === DynamicsStage.AFTER_PRE_UPDATE || stage === DynamicsStage.AFTER_COMPUTE || stage === DynamicsStage.AFTER_POST_UPDATE
    || stage === DynamicsStage.AFTER_STEP || stage === DynamicsStage.ON_CONVERGE;
}

export class HookTiers {
  readonly tiers: HookTier[] = [];
  readonly #workflow: unknown;

  constructor(workflow: unknown) {
    this.#workflow = workflow;
    this.tiers.push(this.#tier(null));
  }

  /** The engine's own tier. */
  get own(): HookTier {
    return this.tiers[0];
  }

  /** Adds the tier of sub-stage `subStage`. */
  addSubStage(subStage: number): HookTier {
    const tier = this.#tier(subStage);
    this.tiers.push(tier);
    return tier;
  }

  #tier(subStage: number | null): HookTier {
    // ON_CONVERGE fires when systems converge, not on a schedule: its hooks alone never stop the native loop.
    const options = { workflow: this.#workflow, methodAliases: DYNAMICS_METHOD_ALIASES, eventStages: [DynamicsStage.ON_CONVERGE] };
    return { hooks: new HookRegistry(DynamicsStage, options), subStage };
  }

  /** Registers a JS hook in `tier` (at `options.stage` instead of its own when given). */
  static register(tier: HookTier, hook: AnyHook, options?: RegisterOptions<DynamicsStage>): HookHandle<AnyHook> {
    return tier.hooks.register(hook as DynamicsHook, options);
  }

  /** Every registry, for the run's lifecycle (open/close). */
  registries(): Registry[] {
    return this.tiers.map((tier) => tier.hooks);
  }

  /** The hook running in any tier, for requestStop's `by`. */
  get runningHook(): string | null {
    for (const registry of this.registries()) if (registry.runningHook !== null) return registry.runningHook;
    return null;
  }

  /** The first step ≥ step at which a hook of some tier is due (ON_CONVERGE-only hooks never are: an event stage). */
  nextDue(step: number): number {
    let due = Infinity;
    for (const tier of this.tiers) due = Math.min(due, tier.hooks.nextDue(step));
    return due;
  }

  /** Whether some tier has a hook due at `stage` of `step`. */
  due(stage: DynamicsStage, step: number): boolean {
    return this.tiers.some((tier) => tier.hooks.due(stage, step));
  }

  /** Whether any hook fires at ON_CONVERGE, so the native loop must pause when systems converge. */
  get listensOnConverge(): boolean {
    return this.tiers.some((tier) => tier.hooks.hasHooksFor(DynamicsStage.ON_CONVERGE));
  }

  /** Whether an enabled hook that `needs` `field` fires at some stage of `step`. */
  needsAt(field: string, step: number): boolean {
    for (const registry of this.registries()) {
      for (const handle of registry.handles()) {
        const hook = handle.hook;
        if (!handle.enabled || hook.needs?.includes(field) !== true) continue;
        // A method-style hook may leave frequency out: it then fires at every step.
        if (hook.trigger !== undefined ? hook.trigger.fires(step) : step % (hook.frequency ?? 1) === 0) return true;
      }
    }
    return false;
  }

  /**
   * Dispatches `stage` through the tiers in order. `convergedFrom` (at ON_CONVERGE) is the status each
   * newly converged system had, so a sub-stage's hooks get the mask of its own systems only.
   */
  dispatch(stage: DynamicsStage, ctx: MutableContext<DynamicsHookContext>, sync: boolean): Promise<void> | undefined {
    const order = isAfter(stage) ? [...this.tiers.slice(1), this.tiers[0]] : this.tiers;
    const full = ctx.convergedMask;
    const run = (index: number): Promise<void> | undefined => {
      for (let i = index; i < order.length; i++) {
        const tier = order[i];
        const mask = stage === DynamicsStage.ON_CONVERGE ? this.#maskFor(tier, full, ctx.convergedFrom) : full;
        if (stage === DynamicsStage.ON_CONVERGE && (mask === null || !mask.includes(1))) continue;
        // One context per dispatch (docs/hooks.md, rule 5), shared by the tier's hooks: one that keeps its
        // ctx keeps what it saw, while the run's own context moves on.
        const local: MutableContext<DynamicsHookContext> = { ...ctx, subStage: tier.subStage, convergedMask: mask };
        const pending = this.#dispatchTier(tier, stage, local, sync);
        if (pending !== undefined) return pending.then(() => run(i + 1));
      }
      return undefined;
    };
    return run(0);
  }

  /**
   * Sub-stage k's systems at ON_CONVERGE, as nvalchemi's test_on_converge_only_fires_for_active_samples
   * gives them: those that were in k when the step began (`from`, the status each first converged from) and
   * converged out of it. A system that then passes through a later sub-stage in the same step is that
   * sub-stage's only through the fused hooks, which see every system that converged.
   */
  #maskFor(tier: HookTier, full: Uint8Array | null, from: Int32Array | null): Uint8Array | null {
    const k = tier.subStage;
    if (full === null || k === null || from === null) return full;
    return Uint8Array.from(full, (newly, s) => (newly === 1 && from[s] === k ? 1 : 0));
  }

  #dispatchTier(tier: HookTier, stage: DynamicsStage, ctx: MutableContext<DynamicsHookContext>, sync: boolean): Promise<void> | undefined {
    if (sync) {
      tier.hooks.dispatchSync(stage, ctx);
      return undefined;
    }
    return tier.hooks.dispatch(stage, ctx) ?? undefined;
  }
}
