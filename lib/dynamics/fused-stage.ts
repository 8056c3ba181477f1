// FusedStage (docs/pipeline.md): several engines on one batch, one shared force computation per step. Each
// system carries the status of its sub-stage; sub-stage k updates only systems with status k, and its
// convergence checks move systems to k + 1. Systems with status ≥ the number of sub-stages are done.
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import type { Batch } from '../data/index.js';
import type { AnyHook, AnyMethodHook, HookHandle, MethodHook, RegisterOptions } from '../hooks/index.js';
import { Dynamics, type DynamicsHookContext, type DynamicsHookFunction } from './dynamics.js';
import type { EngineModel } from './engine-model.js';
import { coldStartAdvice, type RescalingThermostat } from './cold-start.js';
import { ConvergenceHook } from './hooks/convergence-hook.js';
import { engineParameter, type EngineParameter, type IntegratorSpec } from './parameters.js';
import type { DynamicsStage } from './stage.js';
import { showText } from '../describe-value.js';

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
  /** The most steps `run(batch)` takes without `steps` (default: none, when every sub-stage can finish). */
  maxSteps?: number;
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
  /** The most steps a run without `steps` takes (undefined: until every system finishes). */
  readonly maxSteps: number | undefined;
  readonly #budgets: EngineParameter[];
  /** Hooks given to or registered on the fused engine (with their register options), kept by `withBudgets` and `andThen`. */
  readonly #fusedHooks: Array<{ readonly hook: AnyHook; readonly options: RegisterOptions<DynamicsStage> | undefined }> = [];

  constructor(options: FusedStageOptions) {
    // A copy: the caller's array may change later, the pipeline may not.
    const stages: unknown = Array.isArray(options?.stages) ? Object.freeze([...options.stages]) : options?.stages;
    if (!Array.isArray(stages) || stages.length === 0 || !stages.every((stage) => stage instanceof Dynamics)) {
      throw new HookmdTypeError('INVALID_STAGES', 'FusedStage: stages must be a non-empty array of engines', { field: 'stages' });
    }
    if (stages.some((stage) => stage.integratorSpec().type === 'External')) {
      throw new HookmdTypeError('INVALID_STAGES', 'FusedStage: an engine written in TypeScript (preUpdate/postUpdate) runs on its own, not as a sub-stage', { field: 'stages' });
    }
    if (stages.some((stage) => stage instanceof FusedStage)) {
      throw new HookmdTypeError('INVALID_STAGES', 'FusedStage: a sub-stage cannot itself be fused; list its stages instead', { field: 'stages' });
    }
    checkKeys('FusedStage', options, ['stages', 'model', 'hooks', 'budgets', 'maxSteps']);
    const counted = stages.findIndex((stage) => stage.steps !== undefined);
    if (counted >= 0) {
      throw new HookmdTypeError('INVALID_STAGES', `FusedStage: sub-stage ${counted} (${stages[counted].constructor.name}) was given steps, which only a run of that engine on its own takes; give the sub-stage a step budget instead: fuse(...).withBudgets([...]), or FusedStage({ budgets })`, { field: `stages[${counted}].steps`, value: stages[counted].steps });
    }
    refuseColdHandoff(stages);
    const builtins: AnyHook[] = [];
    stages.forEach((stage, k) => {
      const own = stage.builtinHooks();
      for (const hook of own.convergence) {
        // A detect-only check stays detect-only; the others move systems on to the next sub-stage.
        const targetStatus = hook.detectOnly ? null : k + 1;
        builtins.push(new ConvergenceHook({ criteria: hook.criteria, frequency: hook.frequency, sourceStatus: k, targetStatus, name: `${hook.name}[stage ${k}]` }));
      }
      builtins.push(...(own.native as unknown as AnyHook[]));
    });
    super({ model: options.model ?? stages[0].model, hooks: builtins, exitStatus: stages.length });
    this.stages = stages;
    stages.forEach((stage, k) => {
      const js = stage.builtinHooks().js.filter((handle) => handle.enabled).map((handle) => handle.hook);
      this.registerSubStageHooks(k, js);
      stage.markFused(k);
    });
    for (const hook of options.hooks ?? []) this.register(hook);
    const budgets = options.budgets ?? [];
    if (!Array.isArray(budgets) || budgets.length > stages.length) {
      throw new HookmdRangeError('INVALID_PARAMETER', `FusedStage: ${budgets.length} budgets for ${stages.length} sub-stages`, { field: 'budgets', value: budgets.length });
    }
    this.#budgets = stages.map((_, k) => engineParameter('FusedStage', `${k}.budget`, budgets[k] ?? 0, 'integer≥0'));
    this.budgets = this.#budgets.map((p) => p.value as number);
    if (options.maxSteps !== undefined && !(Number.isSafeInteger(options.maxSteps) && options.maxSteps >= 0)) {
      throw new HookmdRangeError('INVALID_STEPS', `FusedStage: maxSteps must be a safe integer ≥ 0, got ${showText(options.maxSteps)}`, { field: 'maxSteps', value: options.maxSteps });
    }
    this.maxSteps = options.maxSteps;
  }

  /**
   * @internal A run without `steps` goes on until every system reaches the exit status (upstream
   * `FusedStage.run(batch)`), capped by `maxSteps`. Without a cap, a sub-stage with neither a convergence
   * check that moves systems on nor a step budget would hold its systems forever: UNBOUNDED_RUN.
   */
  protected override stepsToExit(owner: string, maxSteps: number | undefined): number {
    const cap = maxSteps ?? this.maxSteps;
    if (cap !== undefined) return cap;
    const stuck = this.stages.findIndex((stage, k) => {
      const migrates = stage.builtinHooks().convergence.some((hook) => !hook.detectOnly);
      const budget = this.#budgets[k].value;
      const spends = typeof budget === 'number' ? budget > 0 : budget.length > 0 && Array.from(budget).every((b) => b > 0);
      return !migrates && !spends;
    });
    if (stuck < 0) return Infinity;
    throw new HookmdRangeError(
      'UNBOUNDED_RUN',
      `${owner}: sub-stage ${stuck} (${this.stages[stuck].constructor.name}) has neither a convergence check nor a step budget, so its systems never finish; give steps, maxSteps, or a budget (withBudgets)`,
      { field: 'steps', subStage: stuck },
    );
  }

  /** Registers a fused-level hook (it sees every system); `withBudgets` and `andThen` keep it. */
  override register<H extends object>(hook: AnyHook | MethodHook<H>, options?: RegisterOptions<DynamicsStage>): HookHandle<AnyHook> | undefined;
  override register(hook: DynamicsHookFunction, options?: RegisterOptions<DynamicsStage>): HookHandle<AnyHook> | undefined;
  override register(hook: unknown, options?: RegisterOptions<DynamicsStage>): HookHandle<AnyHook> | undefined {
    const handle = super.register(hook as AnyHook, options);
    this.#fusedHooks.push({ hook: hook as AnyHook, options });
    return handle;
  }

  /** @internal */
  override integratorSpec(): IntegratorSpec {
    const specs = this.stages.map((stage) => stage.integratorSpec());
    const parameters = specs.flatMap((spec, k) => spec.parameters.map((p) => ({ ...p, name: `${k}.${p.name}` })));
    return {
      type: `Fused:${specs.map((spec) => spec.type).join('|')}`,
      parameters: [...parameters, ...this.#budgets],
      needsStress: specs.some((spec) => spec.needsStress === true),
    };
  }

  /** @internal Statuses name sub-stages: a ConvergenceHook without them only detects. */
  protected override get multiStage(): boolean {
    return true;
  }

  /** @internal Systems of status k are sub-stage k's. */
  protected override thermostatFor(status: number): RescalingThermostat | undefined {
    return this.stages[status]?.rescalingThermostat();
  }

  /**
   * @internal Each system's MD time: the steps it took in each MD sub-stage times that sub-stage's time
   * step, so a FIRE → NHC pipeline logs the time since its systems left FIRE; NaN while a system has only
   * been in optimizer sub-stages.
   */
  override mdTime(batch: Batch): Float64Array {
    const counts = this.stageSteps();
    const k = this.stages.length;
    const status = batch.read('status');
    const steps = this.stages.map((stage) => stage.timeStep);
    const time = new Float64Array(batch.numSystems);
    // No counts yet (the batch is not bound to a stepper): no steps taken.
    const counted = counts.length === k * batch.numSystems;
    for (let s = 0; s < batch.numSystems; s++) {
      let md = steps[status[s]] !== undefined;
      for (let j = 0; j < k; j++) {
        const dt = steps[j];
        const taken = counted ? counts[s * k + j] : 0;
        if (dt === undefined || taken === 0) continue;
        time[s] += taken * (typeof dt === 'number' ? dt : dt[s]);
        md = true;
      }
      if (!md) time[s] = Number.NaN;
    }
    return time;
  }

  /** @internal The sub-stage engines, whose step counters advance with this one's. */
  protected override subEngines(): readonly Dynamics[] {
    return this.stages;
  }

  /** The fused-level hooks (given or registered), in order. */
  get fusedHooks(): readonly AnyHook[] {
    return this.#fusedHooks.map((registration) => registration.hook);
  }

  /** A copy with step budgets per sub-stage; the fused-level hooks come along. */
  withBudgets(budgets: ReadonlyArray<number | undefined>): FusedStage {
    const copy = new FusedStage({ stages: this.stages, model: this.model, budgets, ...(this.maxSteps === undefined ? {} : { maxSteps: this.maxSteps }) });
    this.#copyHooksTo(copy);
    return copy;
  }

  /** `a.andThen(b)`: the sub-stages of both in order, with their budgets and fused-level hooks kept. */
  static chain(stages: readonly Dynamics[]): FusedStage {
    const parts = stages.map((stage) => (stage instanceof FusedStage ? { stages: stage.stages, budgets: stage.budgets } : { stages: [stage], budgets: [0] }));
    const first = stages[0];
    const chained = new FusedStage({
      stages: parts.flatMap((part) => part.stages),
      budgets: parts.flatMap((part) => part.budgets),
      ...(first instanceof FusedStage ? { model: first.model } : {}),
    });
    for (const stage of stages) if (stage instanceof FusedStage) stage.#copyHooksTo(chained);
    return chained;
  }

  #copyHooksTo(target: FusedStage): void {
    for (const { hook, options } of this.#fusedHooks) target.register(hook, options);
  }
}

/**
 * An optimizer leaves its systems at rest (docs/dynamics.md, "Optimizer state"), so a rescaling thermostat
 * right after one would keep every system it receives near 0 K: COLD_START at construction.
 */
function refuseColdHandoff(stages: readonly Dynamics[]): void {
  stages.forEach((stage, k) => {
    const thermostat = stage.rescalingThermostat();
    if (k === 0 || thermostat === undefined || stages[k - 1].timeStep !== undefined) return;
    const t = typeof thermostat.temperature === 'number' ? thermostat.temperature : thermostat.temperature[0];
    throw new HookmdError(
      'COLD_START',
      `FusedStage: sub-stage ${k} (${thermostat.name}) follows the optimizer ${stages[k - 1].constructor.name}, whose systems arrive at rest, and a Nosé–Hoover thermostat only rescales the velocities it is given, so they would stay near 0 K; ${coldStartAdvice(t).replace('the engine', `sub-stage ${k}`)}`,
      { field: `stages[${k}].velocities`, subStage: k },
    );
  });
}

/** Fuses engines into one FusedStage (see `FusedStage`). */
export function fuse(...stages: Dynamics[]): FusedStage {
  return new FusedStage({ stages });
}

Dynamics.fuse = (stages) => FusedStage.chain(stages);
