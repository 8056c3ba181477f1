// FusedStage (docs/pipeline.md): several engines on one batch, one shared force computation per step. Each
// system carries the status of its sub-stage; sub-stage k updates only systems with status k, and its
// convergence checks move systems to k + 1. Systems with status ≥ the number of sub-stages are done.
import { HookmdRangeError, HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import type { AnyHook, AnyMethodHook, HookHandle, MethodHook } from '../hooks/index.js';
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
  /** Fused hooks: they see every system at every step (method-style hooks too). */
  hooks?: ReadonlyArray<AnyHook | AnyMethodHook>;
  /** Step budget per sub-stage (0 or undefined: none); a system that spends it moves on to the next. */
  budgets?: ReadonlyArray<number | undefined>;
}

/** The context a sub-stage's own hooks see: the fused context plus the index of that sub-stage. */
export type SubStageContext = DynamicsHookContext & { readonly subStage: number };

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
  /** The step budget of each sub-stage (0: none). */
  readonly budgets: readonly number[];
  readonly #budgets: EngineParameter[];
  /** Hooks given to or registered on the fused engine, kept by `withBudgets` and `then`. */
  readonly #fusedHooks: AnyHook[] = [];

  constructor(options: FusedStageOptions) {
    // A copy: the caller's array may change later, the pipeline may not.
    const stages: unknown = Array.isArray(options?.stages) ? Object.freeze([...options.stages]) : options?.stages;
    if (!Array.isArray(stages) || stages.length === 0 || !stages.every((stage) => stage instanceof Dynamics)) {
      throw new HookmdTypeError('INVALID_STAGES', 'FusedStage: stages must be a non-empty array of engines', { field: 'stages' });
    }
    if (stages.some((stage) => stage instanceof FusedStage)) {
      throw new HookmdTypeError('INVALID_STAGES', 'FusedStage: a sub-stage cannot itself be fused; list its stages instead', { field: 'stages' });
    }
    checkKeys('FusedStage', options, ['stages', 'model', 'hooks', 'budgets']);
    const builtins: AnyHook[] = [];
    stages.forEach((stage, k) => {
      const own = stage.builtinHooks();
      for (const hook of own.convergence) {
        // A detect-only check stays detect-only; the others move systems on to the next sub-stage.
        const targetStatus = hook.detectOnly ? null : k + 1;
        builtins.push(new ConvergenceHook({ criteria: hook.criteria, frequency: hook.frequency, sourceStatus: k, targetStatus, name: `${hook.name}[stage ${k}]` }) as unknown as AnyHook);
      }
      builtins.push(...(own.native as unknown as AnyHook[]));
    });
    super({ model: options.model ?? stages[0].model, hooks: builtins, exitStatus: stages.length });
    this.stages = stages;
    stages.forEach((stage, k) => {
      const js = stage.builtinHooks().js.filter((handle) => handle.enabled).map((handle) => handle.hook);
      this.registerSubStageHooks(k, js);
    });
    for (const hook of options.hooks ?? []) this.register(hook);
    const budgets = options.budgets ?? [];
    if (!Array.isArray(budgets) || budgets.length > stages.length) {
      throw new HookmdRangeError('INVALID_PARAMETER', `FusedStage: ${budgets.length} budgets for ${stages.length} sub-stages`, { field: 'budgets', value: budgets.length });
    }
    this.#budgets = stages.map((_, k) => engineParameter('FusedStage', `${k}.budget`, budgets[k] ?? 0, 'integer≥0'));
    this.budgets = this.#budgets.map((p) => p.value as number);
  }

  /** Registers a fused-level hook (it sees every system); `withBudgets` and `then` keep it. */
  override register<H extends object>(hook: AnyHook | MethodHook<H>): HookHandle<AnyHook> | undefined {
    const handle = super.register(hook);
    this.#fusedHooks.push(hook as AnyHook);
    return handle;
  }

  /** @internal */
  integratorSpec(): IntegratorSpec {
    const specs = this.stages.map((stage) => stage.integratorSpec());
    const parameters = specs.flatMap((spec, k) => spec.parameters.map((p) => ({ ...p, name: `${k}.${p.name}` })));
    return {
      type: `Fused:${specs.map((spec) => spec.type).join('|')}`,
      parameters: [...parameters, ...this.#budgets],
      needsStress: specs.some((spec) => spec.needsStress === true),
    };
  }

  /** @internal The sub-stage engines, whose step counters advance with this one's. */
  protected override subEngines(): readonly Dynamics[] {
    return this.stages;
  }

  /** The fused-level hooks (given or registered), in order. */
  get fusedHooks(): readonly AnyHook[] {
    return [...this.#fusedHooks];
  }

  /** A copy with step budgets per sub-stage; the fused-level hooks come along. */
  withBudgets(budgets: ReadonlyArray<number | undefined>): FusedStage {
    return new FusedStage({ stages: this.stages, model: this.model, budgets, hooks: this.#fusedHooks });
  }
}

/** Fuses engines into one FusedStage (see `FusedStage`). */
export function fuse(...stages: Dynamics[]): FusedStage {
  return new FusedStage({ stages });
}

// `a.then(b)`: the sub-stages of both in order, with their budgets and fused-level hooks kept.
Dynamics.fuse = (stages) => {
  const parts = stages.map((stage) => (stage instanceof FusedStage
    ? { stages: stage.stages, budgets: stage.budgets, hooks: stage.fusedHooks }
    : { stages: [stage], budgets: [0], hooks: [] as readonly AnyHook[] }));
  const first = stages[0];
  return new FusedStage({
    stages: parts.flatMap((part) => part.stages),
    budgets: parts.flatMap((part) => part.budgets),
    hooks: parts.flatMap((part) => part.hooks),
    ...(first instanceof FusedStage ? { model: first.model } : {}),
  });
};
