// The Dynamics base class: runs native chunks of whole steps between the steps at which JS hooks are due,
// and at a due step walks the nine stages, crossing into JS only at the stages that have due hooks.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

import { Batch, nativeBatchOf } from '../data/index.js';
import { HookmdAbortError, HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { settleAsync, settleSync, type Pending } from '../hooks/lifecycle.js';
import { createContext, HookRegistry, HookRunner, HookSession, RunControl } from '../hooks/index.js';
import type { AnyHook, AnyMethodHook, HookHandle, HookInfo, MethodHook, MutableContext, RegisterOptions } from '../hooks/index.js';
import { loadBinding } from '../native/index.js';
import { abortable } from './abortable.js';
import { acquireBatch } from './batch-lock.js';
import { pendingCompute, type EngineModel } from './engine-model.js';
import { checkEngineState, decodeDoubles, encodeDoubles, ENGINE_STATE_FORMAT, type EngineState } from './engine-state.js';
import { isNativeCapable, stageMask, type NativeCapable } from './hooks/native-hook.js';
import { ConvergenceHook, type ConvergenceHookOptions } from './hooks/convergence-hook.js';
import { diagnoseBlowUp } from './blow-up.js';
import { refuseColdStart, type RescalingThermostat } from './cold-start.js';
import { frozenPerSystem, withHeldCentre } from './degrees-of-freedom.js';
import type { DynamicsHookContext, DynamicsHookFunction } from './hook-context.js';
import { FreezeAtomsHook } from './hooks/freeze-atoms.js';
import { checkConstraints, type Constraint } from './constraints/constraint.js';
import { FixAtoms } from './constraints/fix-atoms.js';
import { FixCom } from './constraints/fix-com.js';
import { FixSymmetry } from './constraints/fix-symmetry.js';
import { HookTiers } from './hook-tiers.js';
import { NativeStepperHandle } from './native-stepper.js';
import { expandParameter, isStatus, type IntegratorSpec, type PerSystem } from './parameters.js';
import type { RunOptions, RunResult } from './result.js';
import type { StreamConstraints } from './stream/constraints.js';
import type { StreamOptions, StreamResult } from './stream/options.js';
import { runStream } from './stream/run-stream.js';
import type { SystemSource } from './stream/source.js';
import type { StreamEngine } from './stream/stream-engine.js';
import { SystemScalars } from './scalars.js';
import { observeStates } from './state-observers.js';
import { DynamicsStage } from './stage.js';
import { StepWalker, type StepCounter, type UpdateContext } from './step-walker.js';
import { Pacer, type EngineRun } from './engine-run.js';
import { showText } from '../describe-value.js';

export type { DynamicsHook, DynamicsHookContext, DynamicsHookFunction } from './hook-context.js';

// What run() and runSync() hand their step loop (Dynamics.#runLoop).
interface RunParts {
  readonly batch: Batch;
  readonly steps: number;
  readonly options: RunOptions;
  readonly owner: string;
  readonly sync: boolean;
  readonly counter: StepCounter;
  readonly control: RunControl;
  readonly ctx: MutableContext<DynamicsHookContext>;
}

/** Options shared by every engine. */
export interface DynamicsOptions {
  /** The force field. */
  model: EngineModel;
  /** Hooks to register, in order (native built-ins run inside the native loop); method-style hooks too. */
  hooks?: ReadonlyArray<AnyHook | AnyMethodHook>;
  /**
   * The engine's convergence criteria (hooks, or their options as plain objects): a system that meets one
   * is finished (status 0 → exitStatus, unless the hook names other statuses), and a run ends early once
   * every system has finished. A ConvergenceHook in `hooks` without statuses does the same in a single-stage
   * engine (seed 000), and only detects in a FusedStage.
   */
  convergence?: ConvergenceHook | ConvergenceHookOptions | ReadonlyArray<ConvergenceHook | ConvergenceHookOptions>;
  /** Systems whose status is ≥ exitStatus are finished and no longer updated (default 1). */
  exitStatus?: number;
  /** The steps `run(batch)` takes when its options give none (nvalchemi's `n_steps`). */
  steps?: number;
  /** Constraints (ASE's): FixAtoms, FixCom, FixSymmetry; they run inside the native loop, before the hooks. */
  constraints?: readonly Constraint[];
}

// The options every engine takes; each subclass adds its own.
const DYNAMICS_KEYS: readonly string[] = ['model', 'hooks', 'convergence', 'exitStatus', 'steps', 'constraints'];
// ASE's keywords for the same engine parameters, where folding case and `_` does not find the hookmd name.
const ASE_KEYWORDS: Readonly<Record<string, string>> = { nsteps: 'steps', timestep: 'dt', astart: 'alphaStart', fa: 'fAlpha', taut: 'tdamp', ttime: 'tdamp', calculator: 'model', calc: 'model' };

// run(batch, { fmax }) reads as ASE's opt.run(fmax=…), but fmax belongs to the engine's convergence: taken
// for a run option it would be ignored and the run would go all its steps unconverged.
const FMAX_ADVICE = 'fmax is a convergence criterion of the engine: new FIRE({ model, convergence: ConvergenceHook.fromFmax(0.01) })';
const RUN_ALIASES = { fmax: FMAX_ADVICE, maxSteps: 'steps', nsteps: 'steps' };

// The longest stretch run() spends in native code before it lets the event loop turn.
const CHUNK_BUDGET_SECONDS = 0.02;
// runSync() never yields to the event loop, but it still returns to JS this often, so a worker.terminate()
// or process.exit() lands within one chunk instead of after the whole run.
const SYNC_CHUNK_BUDGET_SECONDS = 0.05;

interface Binding {
  batch: Batch;
  stepper: NativeStepperHandle;
  generation: number;
  /** The stepper's index of each native hook it took (remap's arrivals name hooks by it). */
  hooks: Map<NativeCapable, number>;
}

// The engine that ran each batch last: a run by another engine starts from status 0 (docs/dynamics.md,
// "Status from one engine to the next").
const lastEngine = new WeakMap<Batch, Dynamics>();

/** A ConvergenceHook, or a plain object of its options (as nvalchemi takes dicts). */
function asConvergence(entry: unknown): ConvergenceHook | undefined {
  if (entry instanceof ConvergenceHook) return entry;
  const criteria = (entry as { criteria?: unknown } | null)?.criteria;
  if (entry !== null && typeof entry === 'object' && criteria !== null && typeof criteria === 'object' && typeof (entry as { call?: unknown }).call !== 'function') {
    return new ConvergenceHook(entry as ConvergenceHookOptions);
  }
  return undefined;
}

/**
 * The common engine of every integrator and optimizer (docs/dynamics.md).
 *
 * @example
 * const md = new VelocityVerlet({ model: lj, dt: 1.0, hooks: [new ProgressHook()] });
 * const result = await md.run(batch, { steps: 1000 });
 */
export abstract class Dynamics {
  /** The force field. */
  readonly model: EngineModel;
  /** The JS hooks of this engine (native built-ins are listed by `listHooks()`). */
  readonly hooks: HookRegistry<typeof DynamicsStage, DynamicsHookContext>;
  // One tier of hooks per sub-stage besides the engine's own (a FusedStage's); ON_CONVERGE is an event
  // stage of each registry, so its hooks never make a step "due" (the loop pauses when systems converge).
  readonly #tiers: HookTiers;
  /** Systems with status ≥ exitStatus are finished. */
  readonly exitStatus: number;
  /** The steps `run(batch)` takes without `steps` (the constructor's `steps`), or undefined. */
  readonly steps: number | undefined;
  readonly #nativeHooks: NativeCapable[] = [];
  /** The engine's constraints, in the order given. */
  readonly constraints: readonly Constraint[];
  readonly #convergence: ConvergenceHook[] = [];
  readonly #jsConvergence: ConvergenceHook[] = [];
  // The ConvergenceHooks as given (the two lists above hold what this engine runs), for FusedStage.
  readonly #givenConvergence: ConvergenceHook[] = [];
  #bound: Binding | undefined;
  // The batch whose forces this engine's last run left current. A run that continues it (no other engine
  // since, atoms and cell untouched) starts from those forces: no compute, no compute hooks again.
  #current: Batch | undefined;
  // The hooks step() opened, held open until the engine is disposed.
  #session: HookSession | undefined;
  // The native state loadStateDict() took, for the stepper of the next batch this engine binds.
  #pendingState: { readonly native: Float64Array; readonly numSystems: number | null } | undefined;
  // The step counter of the run started last. Each run counts on from it in a counter of its own, so
  // that concurrent runs on different batches do not advance each other's steps.
  #latest: StepCounter = { value: 0 };
  // The sub-stage index this engine took in the first FusedStage built from it (its hooks were copied then).
  #fusedAs: number | undefined;

  /** `known` lists the options the subclass takes beyond those of every engine; any other key is UNKNOWN_OPTION. */
  protected constructor(options: DynamicsOptions, known: readonly string[] = []) {
    const owner = this.constructor.name;
    const keys = [...DYNAMICS_KEYS, ...known];
    checkKeys(owner, options, keys, '', Object.fromEntries(Object.entries(ASE_KEYWORDS).filter(([, key]) => keys.includes(key))));
    const model = options.model;
    if (model === null || typeof model !== 'object' || typeof model.compute !== 'function') {
      throw new HookmdTypeError('INVALID_MODEL', `${owner}: model must be a model object with compute(batch)`, { field: 'model' });
    }
    this.model = model;
    this.exitStatus = options.exitStatus ?? 1;
    this.steps = stepCount(owner, 'steps', options.steps, true);
    // Statuses are int32 words in native code: a larger exitStatus would wrap there.
    if (!isStatus(this.exitStatus)) {
      throw new HookmdRangeError('INVALID_PARAMETER', `${owner}: exitStatus must be an integer in the int32 range [-2147483648, 2147483647], got ${showText(this.exitStatus)}`, {
        field: 'exitStatus',
        value: this.exitStatus,
      });
    }
    if (this.integratorSpec === Dynamics.prototype.integratorSpec && typeof this.preUpdate !== 'function' && typeof this.postUpdate !== 'function') {
      throw new HookmdTypeError(
        'NO_INTEGRATOR',
        `${owner}: a subclass of Dynamics defines its update: preUpdate(batch, update) and/or postUpdate(batch, update), ` +
          'which move the systems flagged in update.active (docs/dynamics.md, "Writing an integrator in TypeScript"); or extend a built-in engine such as VelocityVerlet',
        { field: 'preUpdate' },
      );
    }
    this.#tiers = new HookTiers(this);
    this.hooks = this.#tiers.own.hooks;
    const given: readonly unknown[] = options.convergence === undefined ? [] : Array.isArray(options.convergence) ? options.convergence : [options.convergence];
    const convergence = given.map((entry, i) => {
      const hook = asConvergence(entry);
      if (hook === undefined) {
        throw new HookmdTypeError('INVALID_CONVERGENCE', `${owner}: convergence[${i}] must be a ConvergenceHook or its options ({ criteria, ... })`, { field: `convergence[${i}]`, value: entry });
      }
      // The engine's own criterion finishes the systems it passes (nvalchemi's `convergence_hook`).
      return hook.asEngineCriterion();
    });
    const hooks: unknown = options.hooks ?? [];
    if (!Array.isArray(hooks)) {
      throw new HookmdTypeError('INVALID_HOOKS', `${owner}: hooks must be an array of hooks, got ${typeof hooks}`, { field: 'hooks', value: hooks });
    }
    this.constraints = checkConstraints(owner, options.constraints);
    this.#nativeHooks.push(...this.constraints);
    // Not through register(), which a subclass may extend: its fields do not exist yet.
    for (const hook of [...convergence, ...(hooks as AnyHook[])]) this.#registerAny(hook);
  }

  /**
   * @internal The native integrator's name and its per-system parameters. The built-in engines override it;
   * a TypeScript integrator (a subclass with preUpdate/postUpdate) runs with the native 'External' one,
   * which leaves the update to those methods.
   */
  integratorSpec(): IntegratorSpec {
    return { type: 'External', parameters: [] };
  }

  /**
   * A TypeScript integrator's first half of a step, before the step's compute (nvalchemi's `pre_update`):
   * update the positions (and velocities) of the systems flagged in `update.active`, from the forces of the
   * previous compute. Subclasses of Dynamics define it, postUpdate, or both (docs/dynamics.md, "Writing an
   * integrator in TypeScript").
   */
  preUpdate?(batch: Batch, update: UpdateContext): void;

  /** A TypeScript integrator's second half of a step, after the step's compute (nvalchemi's `post_update`). */
  postUpdate?(batch: Batch, update: UpdateContext): void;

  /**
   * The MD time step, one for all systems or one per system (fs in metal units, τ in lj), so that logs can
   * give time = step × dt; undefined for optimizers, whose steps are not time.
   */
  get timeStep(): PerSystem | undefined {
    return undefined;
  }

  /**
   * @internal A thermostat that only rescales the velocities it is given (Nosé–Hoover, without
   * `velocities`): a system at rest in it would stay near 0 K, which a run refuses (COLD_START).
   */
  rescalingThermostat(): RescalingThermostat | undefined {
    return undefined;
  }

  /** @internal The rescaling thermostat that updates systems of status `status`, if any (a FusedStage: its sub-stage's). */
  protected thermostatFor(status: number): RescalingThermostat | undefined {
    return status < this.exitStatus ? this.rescalingThermostat() : undefined;
  }

  // COLD_START for a system at rest in a rescaling thermostat (cold-start.ts); reads nothing, so costs no
  // host sync, for an engine without one.
  #refuseColdStart(batch: Batch, owner: string, from = 0): void {
    if (![this, ...this.subEngines()].some((engine) => engine.rescalingThermostat() !== undefined)) return;
    refuseColdStart(batch, owner, (status) => this.thermostatFor(status), from);
  }

  /** @internal The built-in hooks that run natively or are kept apart, for FusedStage. */
  builtinHooks(): { convergence: readonly ConvergenceHook[]; native: readonly NativeCapable[]; js: ReadonlyArray<HookHandle<AnyHook>> } {
    const own = this.#tiers.own;
    return {
      convergence: [...this.#givenConvergence],
      native: [...this.#nativeHooks],
      js: own.hooks.handles().filter((handle) => !(handle.hook instanceof ConvergenceHook)),
    };
  }

  /** @internal Registers `hooks` as sub-stage `subStage`'s (FusedStage): they fire with `ctx.subStage` set. */
  protected registerSubStageHooks(subStage: number, hooks: readonly AnyHook[]): void {
    const tier = this.#tiers.addSubStage(subStage);
    for (const hook of hooks) HookTiers.register(tier, hook);
  }

  /** @internal The engines whose step counters advance with this one's (a FusedStage's sub-stages). */
  protected subEngines(): readonly Dynamics[] {
    return [];
  }

  /** Steps taken by this engine so far (carries on across runs). */
  get stepCount(): number {
    return this.#latest.value;
  }

  /**
   * @internal Per system of the batch this engine ran last, the step at which a native convergence check
   * moved it (−1: none did), on either stepping path: what the parity tests of the small-system path compare.
   */
  convergedAt(): Float64Array {
    return this.#bound?.stepper.convergedAt() ?? new Float64Array(0);
  }

  /**
   * @internal Per system of the batch this engine runs, its MD time so far when that is not step × timeStep
   * (a FusedStage, whose systems reach MD sub-stages at different steps): NaN for a system that is in no MD
   * sub-stage and has taken no MD step. Undefined: the time is step × timeStep.
   */
  mdTime(_batch: Batch): Float64Array | undefined {
    return undefined;
  }

  /** @internal Per system of the batch this engine ran last, the steps it took in each FusedStage sub-stage. */
  protected stageSteps(): Float64Array {
    return this.#bound?.stepper.stageSteps() ?? new Float64Array(0);
  }

  /**
   * Registers a hook. Native built-ins (ConvergenceHook, MaxForceClampHook, WrapPeriodicHook,
   * FreezeAtomsHook, NaNDetectorHook) run inside the native loop; every other hook is dispatched from JS.
   * Returns a handle for JS hooks; native built-ins are fixed for the engine's lifetime.
   */
  register<H extends object>(hook: AnyHook | MethodHook<H>, options?: RegisterOptions<DynamicsStage>): HookHandle<AnyHook> | undefined;
  /** Registers a plain function with `stage` and `frequency` properties (or a stage given in `options`). */
  register(hook: DynamicsHookFunction, options?: RegisterOptions<DynamicsStage>): HookHandle<AnyHook> | undefined;
  register(hook: unknown, options?: RegisterOptions<DynamicsStage>): HookHandle<AnyHook> | undefined {
    if (this.#fusedAs !== undefined) {
      const k = this.#fusedAs;
      throw new HookmdError(
        'ENGINE_FUSED',
        `${this.constructor.name}.register: this engine is sub-stage ${k} of a FusedStage, which took its hooks when it was built, so a hook registered now would never fire there; register it before fuse(), or on the FusedStage: fused.register(hook) sees every system (those of this sub-stage have batch.status[s] === ${k})`,
        { field: 'hook', subStage: k },
      );
    }
    return this.#registerAny(hook as AnyHook, options);
  }

  /** @internal Called by FusedStage on each engine it takes: registering on it afterwards is ENGINE_FUSED. */
  markFused(subStage: number): void {
    this.#fusedAs ??= subStage;
  }

  #registerAny(hook: AnyHook, options?: RegisterOptions<DynamicsStage>): HookHandle<AnyHook> | undefined {
    if (hook === null || (typeof hook !== 'object' && typeof hook !== 'function')) {
      throw new HookmdTypeError('INVALID_HOOK', `${this.constructor.name}.register: hook must be an object with a call function, got ${hook === null ? 'null' : typeof hook}`, {
        field: 'hook',
        value: hook,
      });
    }
    const stage = options?.stage;
    const convergence = asConvergence(hook);
    if (convergence !== undefined) {
      if (stage !== undefined && stage !== DynamicsStage.AFTER_STEP) {
        throw new HookmdTypeError('INVALID_HOOK', `${this.constructor.name}.register: a ConvergenceHook runs at the convergence point after AFTER_STEP; it takes no other stage`, { field: 'stage', value: stage });
      }
      return this.#registerConvergence(convergence);
    }
    // A native built-in given another stage runs from JS there (its call does the same work).
    if (stage === undefined && isNativeCapable(hook) && hook.frequency !== undefined && (hook as AnyHook).trigger === undefined) {
      this.#nativeHooks.push(hook);
      (hook as AnyHook).onRegister?.(this);
      this.#bound = undefined;
      return undefined;
    }
    return HookTiers.register(this.#tiers.own, hook, options);
  }

  #registerConvergence(given: ConvergenceHook): HookHandle<AnyHook> | undefined {
    this.#givenConvergence.push(given);
    // Seed 000: in a single-stage engine, a hook given no statuses stops updating the systems it passes (the
    // engine's own criterion); a FusedStage keeps it detect-only, for its statuses name sub-stages.
    const hook = this.multiStage ? given : given.asEngineCriterion();
    if (!hook.isNative) {
      this.#jsConvergence.push(hook);
      return this.hooks.register(hook);
    }
    this.#convergence.push(hook);
    this.#bound = undefined;
    return undefined;
  }

  /** @internal True for an engine of several sub-stages (FusedStage), whose statuses name the sub-stages. */
  protected get multiStage(): boolean {
    return false;
  }

  /**
   * Chains another engine after this one: `fire.andThen(nvt)` is `fuse(fire, nvt)`. (Not `then`: a `then`
   * method would make every engine a thenable, so that one could not come back from an async function,
   * Promise.resolve or Promise.all.)
   */
  andThen(next: Dynamics): Dynamics {
    if (!(next instanceof Dynamics)) {
      throw new HookmdTypeError('INVALID_STAGES', `${this.constructor.name}.andThen: expected an engine to chain after this one, got ${next === null ? 'null' : typeof next}`, {
        field: 'next',
      });
    }
    return Dynamics.fuse([this, next]);
  }

  /** @internal Set by fused-stage.ts, which imports this module (avoids an import cycle). */
  static fuse: (stages: Dynamics[]) => Dynamics;

  /** Every hook of the engine: JS hooks as the registry lists them, then the native built-ins. */
  listHooks(): Array<HookInfo & { native: boolean }> {
    const js = this.#tiers.tiers.flatMap((tier) => tier.hooks.list().map((info) => ({
      ...info,
      name: tier.subStage === null ? info.name : `${info.name}[stage ${tier.subStage}]`,
      native: false,
    })));
    const native = [...this.#convergence, ...this.#nativeHooks].map((hook) => {
      return {
        name: hook.name ?? hook.constructor.name,
        type: hook.constructor.name,
        stage: 'native',
        stages: ['native'],
        trigger: `every(${hook.frequency})`,
        enabled: true,
        polling: false,
        // Native built-ins run inside the native loop, apart from the JS tiers' order.
        tier: 'builtin' as const,
        order: 0,
        native: true,
      };
    });
    return [...js, ...native];
  }

  /**
   * Runs `steps` more steps, awaiting async hooks and yielding to the event loop every ~20 ms. Aborting
   * `signal` ends the run after the current step (`stopped.by === 'signal'`); when it aborts while an
   * async hook's promise is pending, the run rejects at once with HookmdAbortError naming that hook.
   * A batch that another run is driving is BATCH_BUSY.
   */
  async run(batch: Batch, options?: RunOptions): Promise<RunResult> {
    return this.#runWith(batch, options ?? {}, `${this.constructor.name}.run`, false);
  }

  /**
   * `run()` and `runSync()`: the batch taken, the hooks opened around one step loop (#runLoop), the batch
   * released. `sync` chooses how the loop's pending results are settled: awaited, or refused when a
   * promise (ASYNC_HOOK_IN_SYNC_RUN).
   */
  #runWith(batch: Batch, options: RunOptions, owner: string, sync: true): RunResult;
  #runWith(batch: Batch, options: RunOptions, owner: string, sync: false): Promise<RunResult>;
  #runWith(batch: Batch, options: RunOptions, owner: string, sync: boolean): RunResult | Promise<RunResult> {
    const steps = this.#checkRun(batch, options, sync);
    if (sync && this.model.asyncCompute === true) {
      throw new HookmdTypeError('ASYNC_MODEL_IN_SYNC_RUN', `${owner}: ${this.model.name ?? 'the model'} computes asynchronously; use await run()`, { field: 'model' });
    }
    const release = acquireBatch(batch, owner);
    let result: RunResult | Promise<RunResult>;
    try {
      const counter = this.#startCounter();
      const control = new RunControl();
      const ctx = this.#context(batch, control, counter);
      const runner = new HookRunner<DynamicsHookContext>(this.#tiers.registries(), { context: () => ctx });
      const loop = (): Generator<Pending, RunResult, unknown> => this.#runLoop({ batch, steps, options, owner, sync, counter, control, ctx });
      result = sync ? runner.runSync(() => settleSync(loop(), owner, console) as RunResult) : runner.run(() => settleAsync(loop()) as Promise<RunResult>);
    } catch (error) {
      release();
      throw error;
    }
    if (sync) {
      release();
      return result;
    }
    return (result as Promise<RunResult>).finally(release);
  }

  /**
   * `run()` and `runSync()` from start to end: the batch claimed, the start forces (unless the run continues
   * the last one), the state observers at both ends around the engine's step loop (#steps). Its driver
   * awaits each result that may be a promise (run) or refuses a promise (runSync).
   */
  *#runLoop(p: RunParts): Generator<Pending, RunResult, unknown> {
    const { batch, steps, options, owner, sync, counter, control, ctx } = p;
    const { active, continues } = this.#claim(batch, options.keepStatus === true);
    if (steps > 0) this.#refuseColdStart(batch, owner);
    const run = this.#begin(ctx, control, counter, owner, sync);
    if (!continues) yield { value: this.#prime(run), subject: 'the start forces and their hooks' };
    yield { value: observeStates(this.#tiers, ctx, counter.value, null, sync, owner), subject: 'the start state for the state observers' };
    const taken = yield* this.#steps(run, steps, active > 0, sync ? undefined : options.signal, new Pacer(CHUNK_BUDGET_SECONDS));
    yield { value: observeStates(this.#tiers, ctx, counter.value, null, sync, owner), subject: 'the end state for the state observers' };
    return this.#result(batch, taken, active, control, counter, run.walker.detected);
  }

  /**
   * The step loop of every way to drive an engine (run, runSync, step, runStream), written once: up to
   * `steps` steps while systems are `active`, ending early when a hook requests a stop, `signal` aborts
   * (`stopped.by === 'signal'`) or every system has converged. It yields each result that may be a promise
   * (each advance of the walker, a pause for the event loop) to its driver. An asynchronous run lets the
   * event loop turn whenever `pacer` says (every ~20 ms); a synchronous one returns to JS as often but never
   * yields.
   */
  *#steps(run: EngineRun, steps: number, active: boolean, signal: AbortSignal | undefined, pacer: Pacer): Generator<Pending, number, unknown> {
    const { stepper, control, counter } = run;
    let taken = 0;
    while (taken < steps && active && !control.stopRequested) {
      if (signal?.aborted) {
        control.requestStop(String(signal.reason ?? 'aborted'), 'signal');
        break;
      }
      taken += (yield { value: this.#advance(run, steps - taken, signal), subject: `step ${counter.value}` }) as number;
      if (stepper.allConverged()) break;
      if (!run.sync && pacer.due()) {
        yield { value: yieldToEventLoop(), subject: 'a pause for the event loop' };
        pacer.paused();
      }
    }
    return taken;
  }

  /** A run on the context's batch: the stepper bound (once per batch), with a walker of the run's counter. */
  #begin(ctx: MutableContext<DynamicsHookContext>, control: RunControl, counter: StepCounter, owner: string, sync: boolean): EngineRun {
    const batch: Batch = ctx.batch;
    return { batch, stepper: this.#bind(batch, counter), walker: this.#walker(counter), ctx, control, counter, owner, sync };
  }

  /**
   * One advance of the walker; an abort while a hook is pending abandons the step: the walker will not
   * go on when that hook settles, and the stepper (left mid-step) is not reused.
   */
  #advance(run: EngineRun, remaining: number, signal: AbortSignal | undefined): number | Promise<number> {
    const { walker, stepper, ctx, owner, sync } = run;
    let advanced: number | Promise<number>;
    try {
      advanced = walker.advance(stepper, ctx, remaining, sync ? SYNC_CHUNK_BUDGET_SECONDS : CHUNK_BUDGET_SECONDS, sync);
    } catch (error) {
      throw this.#failed(error, stepper, ctx.batch, owner);
    }
    return typeof advanced === 'number' ? advanced : this.#settleAdvance(advanced, walker, stepper, ctx, signal, owner);
  }

  // An advance that awaits a hook: an abort while it is pending abandons the step (above).
  async #settleAdvance(advanced: Promise<number>, walker: StepWalker, stepper: NativeStepperHandle, ctx: MutableContext<DynamicsHookContext>, signal: AbortSignal | undefined, owner: string): Promise<number> {
    try {
      return await abortable(advanced, signal, () => this.#tiers.runningHook, owner);
    } catch (error) {
      if (error instanceof HookmdAbortError) {
        walker.abandon();
        if (this.#bound?.stepper === stepper) this.#bound = undefined;
        throw error;
      }
      throw this.#failed(error, stepper, ctx.batch, owner);
    }
  }

  /**
   * A failure inside a step leaves the native stepper mid-step: it is not reused. A native error from
   * numbers that blew up (non-finite positions, atoms flung out of reach) becomes NUMERICAL_BLOWUP naming
   * the systems, the step, the time step and the cause.
   */
  #failed(error: unknown, stepper: NativeStepperHandle, batch: Batch, owner: string): unknown {
    if (this.#bound?.stepper === stepper) this.#bound = undefined;
    return diagnoseBlowUp(error, batch, stepper.stepCount, owner, this.timeStep);
  }

  /**
   * One step (nvalchemi's `dynamics.step(batch)`): returns the indices of the systems that converged in it
   * (reached exitStatus, or were reported by a detect-only check). The engine's hooks are opened at the
   * first step and stay open until the engine is disposed (`await using engine = …`); a run in between
   * neither opens nor closes them again. Synchronous: an async hook is ASYNC_HOOK_IN_SYNC_RUN.
   *
   * @example
   * await using fire = new FIRE({ model, convergence: ConvergenceHook.fromFmax(0.01) });
   * while (fire.stepCount < 500) {
   *   const done = fire.step(batch);
   *   if (done.length > 0) console.log('converged:', [...done]);
   * }
   */
  step(batch: Batch): Int32Array {
    const owner = `${this.constructor.name}.step`;
    if (!(batch instanceof Batch)) throw new HookmdTypeError('INVALID_BATCH', `${owner}: batch must be a Batch`, { field: 'batch' });
    const release = acquireBatch(batch, owner);
    try {
      const session = (this.#session ??= new HookSession(this.#tiers.registries()));
      session.open();
      const counter = this.#startCounter();
      const control = new RunControl();
      const ctx = this.#context(batch, control, counter);
      const { active, continues } = this.#claim(batch, false);
      this.#refuseColdStart(batch, owner);
      const before = batch.read('status').slice();
      let detected: ReadonlySet<number> = new Set();
      if (active > 0) {
        const run = this.#begin(ctx, control, counter, owner, true);
        detected = run.walker.detected;
        try {
          settleSync(this.#stepOnce(run, continues), owner, console);
        } catch (error) {
          // The loop named a blow-up already; a failed step leaves the stepper mid-step, not to be reused.
          if (this.#bound?.stepper === run.stepper) this.#bound = undefined;
          session.fail(error, ctx);
          throw error;
        }
      }
      this.#result(batch, 0, active, new RunControl(), counter, detected);
      const ids = batch.read('systemId');
      const after = batch.read('status');
      const converged: number[] = [];
      for (let s = 0; s < after.length; s++) {
        if ((before[s] < this.exitStatus && after[s] >= this.exitStatus) || detected.has(ids[s])) converged.push(s);
      }
      return Int32Array.from(converged);
    } finally {
      release();
    }
  }

  /** step()'s one step: the start forces unless the step continues the last run, then one turn of the step loop. */
  *#stepOnce(run: EngineRun, continues: boolean): Generator<Pending, number, unknown> {
    if (!continues) yield { value: this.#prime(run), subject: 'the start forces and their hooks' };
    return yield* this.#steps(run, 1, true, undefined, new Pacer(SYNC_CHUNK_BUDGET_SECONDS));
  }

  /**
   * The engine's state for an exact restart (nvalchemi's `state_dict()`, upstream PR #176): its step count,
   * the native state of the batch it ran last, and its hooks' states. With that batch saved too
   * (`saveDynamicsCheckpoint` does both), a new engine that loads the state continues bit for bit: 10 + 10
   * steps equal 20. Plain JSON.
   *
   * @example
   * const state = fire.stateDict();
   * const again = new FIRE({ model });
   * again.loadStateDict(state);          // then run it on the batch saved with the state
   */
  stateDict(): EngineState {
    const bound = this.#bound;
    const native = bound !== undefined ? bound.stepper.state() : this.#pendingState?.native;
    return {
      format: ENGINE_STATE_FORMAT,
      version: 1,
      engine: this.constructor.name,
      integrator: this.integratorSpec().type,
      stepCount: this.stepCount,
      numSystems: bound !== undefined ? bound.batch.numSystems : (this.#pendingState?.numSystems ?? null),
      native: native === undefined ? null : encodeDoubles(native),
      hooks: this.#tiers.registries().map((registry) => registry.stateDict()),
    };
  }

  /**
   * Takes a state `stateDict()` returned (between runs): the step count at once, the native state when the
   * engine next binds a batch (which must have as many systems: STATE_MISMATCH), the hooks' states by key
   * (hooks added since start fresh). A state of another engine class or integrator is STATE_MISMATCH.
   */
  loadStateDict(state: EngineState): void {
    const owner = `${this.constructor.name}.loadStateDict`;
    const checked = checkEngineState(state, this.constructor.name, this.integratorSpec().type, owner);
    const registries = this.#tiers.registries();
    // States saved while ON_CONVERGE-only hooks had a registry of their own hold two per tier; hook states
    // are keyed, so each pair merges into its tier's.
    const hooks = checked.hooks.length === 2 * registries.length
      ? registries.map((_, k) => ({ ...checked.hooks[2 * k], ...checked.hooks[2 * k + 1] }))
      : checked.hooks;
    if (hooks.length !== registries.length) {
      throw new HookmdError('STATE_MISMATCH', `${owner}: the state has ${checked.hooks.length} hook registries, this engine ${registries.length}`, { field: 'hooks' });
    }
    const native = checked.native === null ? undefined : decodeDoubles(checked.native, owner);
    registries.forEach((registry, k) => registry.loadStateDict(hooks[k], { strict: false }));
    this.#latest = { value: checked.stepCount };
    for (const engine of this.subEngines()) engine.#latest = { value: checked.stepCount };
    this.#pendingState = native === undefined ? undefined : { native, numSystems: checked.numSystems };
    this.#bound = undefined;
    this.#current = undefined;
  }

  /** Closes the hooks (those `step()` opened, and the others) and unregisters them: the end of the engine's life. */
  async [Symbol.asyncDispose](): Promise<void> {
    const session = this.#session;
    this.#session = undefined;
    this.#bound = undefined;
    await session?.closeAsync();
    for (const registry of this.#tiers.registries()) await registry[Symbol.asyncDispose]();
  }

  /** `[Symbol.asyncDispose]` for `using engine = …`: a hook whose close() returns a promise is ASYNC_HOOK_IN_SYNC_RUN. */
  [Symbol.dispose](): void {
    const session = this.#session;
    this.#session = undefined;
    this.#bound = undefined;
    session?.close();
    for (const registry of this.#tiers.registries()) registry[Symbol.dispose]();
  }

  /** `run()` without awaiting: an async hook is an ASYNC_HOOK_IN_SYNC_RUN error. */
  runSync(batch: Batch, options?: Omit<RunOptions, 'signal'>): RunResult {
    return this.#runWith(batch, options ?? {}, `${this.constructor.name}.runSync`, true);
  }

  /** A counter for a new run, carrying on from the engine's count (`run()` means n more steps). */
  #startCounter(): StepCounter {
    this.#latest = { value: this.#latest.value };
    return this.#latest;
  }

  #walker(counter: StepCounter): StepWalker {
    const detectOnly = [...this.#convergence, ...this.#jsConvergence].some((hook) => hook.detectOnly);
    const external = this.integratorSpec().type === 'External';
    const updates = external ? { preUpdate: this.preUpdate?.bind(this), postUpdate: this.postUpdate?.bind(this), exitStatus: this.exitStatus } : null;
    return new StepWalker(this.#tiers, this.model, this.#jsConvergence, counter, detectOnly, this.integratorSpec().needsStress === true, updates);
  }

  /**
   * Takes the batch for this engine: a batch another engine ran last starts from status 0 (unless
   * `keepStatus`); returns how many systems are active (status < exitStatus).
   */
  #claim(batch: Batch, keepStatus: boolean): { active: number; continues: boolean } {
    const previous = lastEngine.get(batch);
    const continues = previous === this && this.#continues(batch);
    this.#current = undefined;
    if (previous !== undefined && previous !== this && !keepStatus) batch.status.fill(0);
    lastEngine.set(batch, this);
    return { active: batch.read('status').reduce((n, s) => n + (s < this.exitStatus ? 1 : 0), 0), continues };
  }

  /** Whether this engine's last run left the batch's results current (see `#current`). */
  #continues(batch: Batch): boolean {
    const bound = this.#bound;
    if (this.#current !== batch || bound === undefined || bound.batch !== batch || bound.generation !== nativeBatchOf(batch).generation) return false;
    const fields = this.integratorSpec().needsStress === true ? (['energy', 'forces', 'stress'] as const) : (['energy', 'forces'] as const);
    return fields.every((field) => batch.resultValid(field).every((valid) => valid === 1));
  }

  /**
   * Streams systems through the engine (docs/dynamics.md): the batch is kept full up to `maxAtoms`; every
   * `refillEvery` steps, systems that converged or reached `maxSteps` leave for the sinks with
   * `info: { systemId, converged, steps }`, and new ones take their place. Every input system comes out
   * exactly once; systemId is its position in the source.
   *
   * @example
   * const sink = new HostMemorySink();
   * const fire = new FIRE({ model, convergence: ConvergenceHook.fromFmax(0.01) });
   * await fire.runStream(readManyStructures(), { sinks: [sink], maxAtoms: 4096, units: 'lj' });
   */
  runStream(source: SystemSource, options: StreamOptions): Promise<StreamResult> {
    return runStream(this.#streamEngine(), source, options, { fmax: FMAX_ADVICE, budget: CHUNK_BUDGET_SECONDS });
  }

  /** This engine as a stream drives it (stream/stream-engine.ts): its parts, and its one step loop. */
  #streamEngine(): StreamEngine {
    return {
      name: this.constructor.name,
      exitStatus: this.exitStatus,
      model: this.model,
      tiers: this.#tiers,
      startCounter: () => this.#startCounter(),
      refuseColdStart: (batch, owner, from) => this.#refuseColdStart(batch, owner, from),
      claim: (batch, control, counter) => {
        const ctx = this.#context(batch, control, counter);
        // The stream owns its batch: statuses come from the source, never from an earlier engine.
        lastEngine.set(batch, this);
        return ctx;
      },
      begin: (ctx, control, counter, owner) => this.#begin(ctx, control, counter, owner, false),
      holdFixed: (run, held) => {
        run.ctx.scalars = new SystemScalars(run.batch, this.model, this.#frozen(run.batch, held.fixed));
      },
      prime: (run) => this.#prime(run),
      steps: (run, steps, active, signal, pacer) => this.#steps(run, steps, active, signal, pacer),
      rebind: (run, keep, added, held, ptr) => this.#rebind(run.stepper, run.batch, keep, added, held, ptr),
    };
  }

  /**
   * After an in-place refill: remaps the stepper's per-system state, its constraints' data (`held`, with the
   * batch's offsets before the refill, `ptr`) and its parameters (the caller primes new forces).
   */
  #rebind(stepper: NativeStepperHandle, batch: Batch, keep: readonly number[], added: number, held: StreamConstraints, ptr: Int32Array): void {
    const symmetry = new Map<number, FixSymmetry>();
    for (const [hook, index] of this.#bound?.hooks ?? []) if (hook instanceof FixSymmetry) symmetry.set(index, hook);
    held.remap(stepper, batch, keep, added, ptr, symmetry);
    stepper.updateParameters(this.#expandedParameters(batch));
    if (this.#bound?.stepper === stepper) this.#bound.generation = nativeBatchOf(batch).generation;
  }

  #expandedParameters(batch: Batch): Record<string, Float64Array> {
    const expanded: Record<string, Float64Array> = {};
    for (const p of this.integratorSpec().parameters) expanded[p.name] = expandParameter(this.constructor.name, p.name, p.value, batch.numSystems);
    return expanded;
  }

  #checkRun(batch: Batch, options: RunOptions | Omit<RunOptions, 'signal'>, sync: boolean): number {
    const owner = `${this.constructor.name}.${sync ? 'runSync' : 'run'}`;
    if (!(batch instanceof Batch)) throw new HookmdTypeError('INVALID_BATCH', `${owner}: batch must be a Batch`, { field: 'batch' });
    if (sync) checkKeys(owner, options, ['steps', 'maxSteps', 'keepStatus'], '', { ...RUN_ALIASES, signal: 'runSync cannot be aborted: await run(batch, { steps, signal })' });
    else checkKeys(owner, options, ['steps', 'maxSteps', 'signal', 'keepStatus'], '', RUN_ALIASES);
    const steps = options.steps ?? this.steps;
    if (steps === undefined) return this.stepsToExit(owner, stepCount(owner, 'maxSteps', options.maxSteps));
    return stepCount(owner, 'steps', steps) as number;
  }

  /**
   * @internal How many steps a run without `steps` may take (`maxSteps` if given). A plain engine needs
   * `steps`; a FusedStage runs to its exit status.
   */
  protected stepsToExit(owner: string, _maxSteps: number | undefined): number {
    throw new HookmdRangeError('INVALID_STEPS', `${owner}: steps must be a safe integer ≥ 0, got undefined (only a FusedStage runs to its exit status without it)`, {
      field: 'steps',
      value: undefined,
    });
  }

  #context(batch: Batch, control: RunControl, counter: StepCounter): MutableContext<DynamicsHookContext> {
    return createContext(
      { stage: DynamicsStage.BEFORE_STEP, stepCount: counter.value, workflow: this, control, registry: this.#tiers },
      { batch, model: this.model, convergedMask: null as Uint8Array | null, convergedFrom: null as Int32Array | null, scalars: new SystemScalars(batch, this.model, this.#frozen(batch)), subStage: null as number | null },
    );
  }

  /**
   * The frozen atoms of each system under this engine's FreezeAtomsHooks and FixAtoms, and the atoms a
   * stream's systems fix (`fixed`, one flag per atom), or undefined without any; with FixCom, one more in
   * each system that has some, as the native stepper counts it (degreesOfFreedom: 3·N_mobile − 3).
   */
  #frozen(batch: Batch, fixed?: Uint8Array): Int32Array | undefined {
    const hooks = this.#nativeHooks.filter((hook): hook is (FreezeAtomsHook | FixAtoms) & NativeCapable => hook instanceof FreezeAtomsHook || hook instanceof FixAtoms);
    if (hooks.length === 0 && fixed?.includes(1) !== true) return undefined;
    const flags = fixed === undefined ? new Uint8Array(batch.numAtoms) : fixed.slice();
    for (const hook of hooks) hook.maskFor(batch).forEach((frozen, i) => { if (frozen === 1) flags[i] = 1; });
    return withHeldCentre(frozenPerSystem(batch, flags), this.#nativeHooks.some((hook) => hook instanceof FixCom));
  }

  /** Binds the native stepper to `batch` (once per batch, and again after a reallocation). */
  #bind(batch: Batch, counter: StepCounter): NativeStepperHandle {
    // Any reallocation between runs (append, refill) needs per-system state of the new size.
    if (this.#bound === undefined || this.#bound.batch !== batch || this.#bound.generation !== nativeBatchOf(batch).generation) {
      const stepper = new NativeStepperHandle(loadBinding(), batch, this.model.native ?? null, this.integratorSpec().type, this.#expandedParameters(batch), this.exitStatus);
      const hooks = new Map<NativeCapable, number>();
      for (const hook of this.#nativeHooks) {
        const spec = hook.toNativeHook(batch);
        if (spec !== undefined) hooks.set(hook, stepper.addHook({ ...spec, stageMask: stageMask(spec.stages) }));
      }
      for (const hook of this.#convergence) stepper.addConvergence(hook.nativeSpec(this.exitStatus));
      const pending = this.#pendingState;
      if (pending !== undefined) {
        if (pending.numSystems !== null && pending.numSystems !== batch.numSystems) {
          throw new HookmdError('STATE_MISMATCH', `${this.constructor.name}: the loaded state is of a batch of ${pending.numSystems} systems, this one has ${batch.numSystems}`, {
            field: 'numSystems',
            saved: pending.numSystems,
            here: batch.numSystems,
          });
        }
        stepper.loadState(pending.native);
        this.#pendingState = undefined;
      }
      this.#bound = { batch, stepper, generation: nativeBatchOf(batch).generation, hooks };
    }
    const stepper = this.#bound.stepper;
    stepper.stepCount = counter.value;
    return stepper;
  }

  /**
   * The forces of the start positions (or of a refilled batch), with the compute hooks due at this step
   * around that compute. The model's own compute also prepares it for the batch (skin from the batch's
   * units); its failure from numbers that are not finite names the systems and the step, as a failure
   * inside a step does.
   */
  #prime(run: EngineRun): Promise<void> | undefined {
    const { walker, stepper, ctx, owner, sync, batch } = run;
    const failed = (error: unknown): never => {
      throw diagnoseBlowUp(error, batch, ctx.stepCount, owner, this.timeStep);
    };
    return walker.prime(stepper, ctx, (stress) => {
      let pending: Promise<void> | undefined;
      try {
        pending = pendingCompute(this.model.compute(batch, { stress }));
      } catch (error) {
        failed(error);
      }
      return pending?.then(undefined, failed);
    }, sync);
  }

  #result(batch: Batch, steps: number, activeAtStart: number, control: RunControl, counter: StepCounter, detected: ReadonlySet<number>): RunResult {
    const ids = batch.read('systemId');
    const converged = Uint8Array.from(batch.read('status'), (s, k) => (s >= this.exitStatus || detected.has(ids[k]) ? 1 : 0));
    for (const engine of this.subEngines()) engine.#latest = { value: counter.value };
    this.#current = batch;
    const result: RunResult = { steps, stepCount: counter.value, converged, activeAtStart };
    if (control.stopped !== undefined) result.stopped = control.stopped;
    return result;
  }
}

/** A step count option: a safe integer ≥ 0, or undefined when it may be left out (maxSteps, or `optional`). */
function stepCount(owner: string, field: string, value: unknown, optional = false): number | undefined {
  if (value === undefined && (field === 'maxSteps' || optional)) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new HookmdRangeError('INVALID_STEPS', `${owner}: ${field} must be a safe integer ≥ 0, got ${showText(value)}`, { field, value });
  }
  return value;
}
