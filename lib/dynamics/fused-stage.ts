// FusedStage (docs/dynamics.md): several engines on one batch, one shared force computation per step. Each system
// carries the status of its sub-stage; sub-stage k updates only systems with status k, and its
// convergence checks move systems to k + 1. Systems with status ≥ the number of sub-stages are done.
import { HookmdRangeError, HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import type { AnyHook } from '../hooks/index.js';
import { Dynamics, type DynamicsHookContext } from './dynamics.js';
import type { EngineModel } from './engine-model.js';
import { ConvergenceHook } from './hooks/convergence-hook.js';
import { engineParameter, type EngineParameter, type IntegratorSpec } from './parameters.js';

/** Options of `new FusedStage`. */
export interface FusedStageOptions {
  /** The sub-stages, in order (each an engine: FIRE, Langevin, ...). */
  stages: readonly Dynamics[];
  /** The shared force field (default: the first sub-stage's). */
  model?: EngineModel;
  /** Fused hooks: they see every system at every step. */
  hooks?: readonly AnyHook[];
  /** Step budget per sub-stage (0 or undefined: none); a system that spends it moves on to the next. */
  budgets?: ReadonlyArray<number | undefined>;
}

/** The context a sub-stage's own hooks see: the fused context plus the index of that sub-stage. */
export type SubStageContext = DynamicsHookContext & { readonly subStage: number };

function subStageHook(hook: AnyHook, stage: number): AnyHook {
  // A thin proxy: same schedule, and `ctx.subStage` says which sub-stage's systems (status === subStage) it serves.
  const proxy: AnyHook = Object.create(hook) as AnyHook;
  proxy.name = `${hook.name ?? hook.constructor?.name ?? 'hook'}[stage ${stage}]`;
  proxy.call = (ctx: DynamicsHookContext & { subStage: number | null }, s: unknown) => {
    ctx.subStage = stage;
    try {
      return hook.call(ctx, s);
    } finally {
      ctx.subStage = null;
    }
  };
  return proxy;
}

/**
 * Runs sub-stages as one engine: `fuse(new FIRE(...), new Langevin(...))` relaxes every system, then
 * thermalizes it, with one force computation per step for the whole batch.
 *
 * @example
 * const pipeline = fuse(
 *   new FIRE({ model, convergence: ConvergenceHook.fromFmax(0.01) }),
 *   new Langevin({ model, dt: 2, temperature: 300, friction: 0.01 }),
 * ).withBudgets([2000, 5000]);
 */
export class FusedStage extends Dynamics {
  /** The sub-stages, in order. */
  readonly stages: readonly Dynamics[];
  readonly #budgets: EngineParameter[];

  constructor(options: FusedStageOptions) {
    const stages = options?.stages;
    if (!Array.isArray(stages) || stages.length === 0 || !stages.every((stage) => stage instanceof Dynamics)) {
      throw new HookmdTypeError('INVALID_STAGES', 'FusedStage: stages must be a non-empty array of engines', { field: 'stages' });
    }
    if (stages.some((stage) => stage instanceof FusedStage)) {
      throw new HookmdTypeError('INVALID_STAGES', 'FusedStage: a sub-stage cannot itself be fused; list its stages instead', { field: 'stages' });
    }
    checkKeys('FusedStage', options, ['stages', 'model', 'hooks', 'budgets']);
    const hooks: AnyHook[] = [];
    stages.forEach((stage, k) => {
      const builtins = stage.builtinHooks();
      for (const hook of builtins.convergence) {
        hooks.push(new ConvergenceHook({ criteria: hook.criteria, frequency: hook.frequency, sourceStatus: k, targetStatus: k + 1, name: `${hook.name}[stage ${k}]` }));
      }
      hooks.push(...(builtins.native as unknown as AnyHook[]));
      for (const handle of builtins.js) if (handle.enabled) hooks.push(subStageHook(handle.hook, k));
    });
    super({ model: options.model ?? stages[0].model, hooks: [...hooks, ...(options.hooks ?? [])], exitStatus: stages.length });
    this.stages = stages;
    const budgets = options.budgets ?? [];
    if (budgets.length > stages.length) {
      throw new HookmdRangeError('INVALID_PARAMETER', `FusedStage: ${budgets.length} budgets for ${stages.length} sub-stages`, { field: 'budgets', value: budgets.length });
    }
    this.#budgets = stages.map((_, k) => engineParameter('FusedStage', `${k}.budget`, budgets[k] ?? 0, 'integer≥0'));
  }

  /** @internal */
  integratorSpec(): IntegratorSpec {
    const specs = this.stages.map((stage) => stage.integratorSpec());
    const parameters = specs.flatMap((spec, k) => spec.parameters.map((p) => ({ ...p, name: `${k}.${p.name}` })));
    return { type: `Fused:${specs.map((spec) => spec.type).join('|')}`, parameters: [...parameters, ...this.#budgets] };
  }

  /** A copy with step budgets per sub-stage. */
  withBudgets(budgets: ReadonlyArray<number | undefined>): FusedStage {
    return new FusedStage({ stages: this.stages, model: this.model, budgets });
  }
}

/** Fuses engines into one FusedStage (see `FusedStage`). */
export function fuse(...stages: Dynamics[]): FusedStage {
  return new FusedStage({ stages });
}

Dynamics.fuse = (stages) => {
  const flat = stages.flatMap((stage) => (stage instanceof FusedStage ? stage.stages : [stage]));
  return new FusedStage({ stages: flat });
};
