// hookmd hook kernel: the hook protocol (docs/hooks.md). Any object of this shape is a hook; no base class.

import type { HookContext, StepContext } from './context.js';
import type { Trigger } from './triggers/trigger.js';

/**
 * What a failing hook does to the run: abort it (default), log and go on, go on without a word, or log
 * and unregister the hook.
 *
 * @example
 * registry.register({ stage: Stage.SAVE, frequency: 1, errorPolicy: 'warn', call: flakyUpload });
 */
export type ErrorPolicy = 'raise' | 'warn' | 'ignore' | 'disable';

/**
 * Which group of a registry a hook belongs to. At every stage the user tier runs first, then the
 * built-in tier (the workflow's own hooks: loggers, checkpointing, early stopping); `order` sorts
 * within a tier.
 *
 * @example
 * class MyBuiltIn { readonly tier: HookTier = 'builtin'; stage = Stage.SAVE; frequency = 1; call(): void {} }
 */
export type HookTier = 'user' | 'builtin';

/**
 * A hook for stages of type `S` and contexts of type `C`.
 *
 * Gating (Rule 1): the hook fires at stage s of step k iff
 * `(runsOnStage ? runsOnStage(s) : s === stage)` and `(trigger ? trigger.fires(k) : k % frequency === 0)`.
 * The registry reads `stage`, `frequency`, `trigger`, `runsOnStage`, `order`, `name` and
 * `errorPolicy` once, at registration; re-register a hook to change them.
 *
 * `call`, `runsOnStage` and `onException` are function-typed properties (a class may still implement
 * them as methods) so that TypeScript checks contexts strictly: a hook that needs a
 * `DynamicsContext` cannot be registered where only a `TrainContext` is dispatched.
 *
 * @example
 * class EnergyPrinter implements Hook<Stage, HookContext<Stage>> {
 *   stage = Stage.SAVE;
 *   frequency = 10;
 *   name = 'EnergyPrinter';
 *   call(ctx: HookContext<Stage>): void { console.log(ctx.stepCount); }
 *   close(): void { console.log('done'); }
 * }
 */
export interface Hook<S, C extends StepContext = HookContext<S>> {
  /** The stage it fires at; `null` when `runsOnStage` picks the stages. */
  stage: S | null;
  /** Fires when `stepCount % frequency === 0` (an integer ≥ 1); ignored when `trigger` is set. */
  frequency: number;
  /** The work. May return a promise, which the run awaits before the next hook and stage (Rule 11). */
  call: (ctx: C, stage: S) => void | Promise<void>;
  /** Replaces `frequency` when present. */
  trigger?: Trigger;
  /** Fire at every stage for which this returns true (evaluated once per stage, at registration). */
  runsOnStage?: (stage: S) => boolean;
  /** Called at registration with the registry's workflow (the engine, trainer or loop). */
  onRegister?(workflow: unknown): void;
  /** Called once before the first step of a run (Rule 6). */
  open?(): void | Promise<void>;
  /** Called once after the run, in a `finally` (Rule 6). Falls back to `Symbol.asyncDispose`/`dispose`. */
  close?(): void | Promise<void>;
  [Symbol.dispose]?(): void;
  [Symbol.asyncDispose]?(): PromiseLike<void>;
  /** Called for every hook when the run fails, before `close()` (Rule 7). */
  onException?: (error: unknown, ctx: C) => void | Promise<void>;
  /** Shown in `list()`, errors and profiles; part of the state key. */
  name?: string;
  /** Lower runs first; ties keep registration order (Rule 3). Default 0. */
  order?: number;
  /** The data it reads, so that GPU backends sync only that (e.g. `['positions', 'energy']`). */
  needs?: readonly string[];
  /** Checkpointable state (Rule 10). */
  stateDict?(): unknown;
  loadStateDict?(state: unknown): void;
  /** The configuration that distinguishes two hooks of the same name in a checkpoint. */
  config?: unknown;
  /** Overrides the derived state key `name` / `name#<hash of config>`. */
  stateKey?: string;
  errorPolicy?: ErrorPolicy;
  /** 'user' (default) or 'builtin': user hooks run before built-in hooks at every stage. */
  tier?: HookTier;
}

/**
 * A hook of any stage and context type, as held by factory tables and config-built lists; the
 * registry checks its stage at run time (FOREIGN_STAGE).
 *
 * @example
 * const hooks: AnyHook[] = registry.handles().map((h) => h.hook);
 */
export type AnyHook = Hook<any, any>;

/**
 * The scheduling and lifecycle members a method-style hook may have (everything of {@link Hook} but
 * `stage`, `call` and `runsOnStage`, which its stage methods replace; `frequency` defaults to 1).
 *
 * @example
 * const options: MethodHookOptions = { name: 'Uploader', frequency: 1, errorPolicy: 'warn' };
 */
export type MethodHookOptions = Partial<Omit<Hook<unknown, any>, 'stage' | 'call' | 'runsOnStage'>>;

/**
 * A method-style hook: an object whose methods are named after stages, `on` + the stage name in
 * camelCase (`onBeforeStep`, `onAfterCompute`, `onAfterEpoch`; `ON_CONVERGE` gives `onConverge`), or a
 * registry's aliases (a Trainer's `onTrainStart`, `onEpochEnd`, …). It fires at exactly the stages it
 * has methods for; each method receives `(ctx, stage)`. `onRegister` and `onException` keep their
 * lifecycle meaning. `H` is the object's own type; the type is `never`-branded when `H` has no `on…`
 * member, so that a hook without stage methods does not compile.
 *
 * @example
 * registry.register({
 *   name: 'Printer',
 *   onAfterStep: (ctx: StepContext) => console.log('step', ctx.stepCount),
 *   onEpochEnd: (ctx: StepContext) => console.log('epoch done at', ctx.stepCount),
 * });
 */
export type MethodHook<H = object> = H &
  MethodHookOptions & { readonly call?: undefined } & ([Extract<keyof H, `on${string}`>] extends [never]
    ? { readonly 'a method-style hook needs a stage method such as onAfterStep': never }
    : unknown);

/**
 * Any method-style hook, as lists of hooks hold them (`hooks: [...]`): any object without a `call`
 * function. Whether it has stage methods is checked at registration (INVALID_HOOK); `register` itself
 * checks that at compile time (see {@link MethodHook}).
 *
 * @example
 * const hooks: AnyMethodHook[] = [{ onAfterStep: () => {} }, new TrainingCallback()];
 */
export type AnyMethodHook =
  | (object & MethodHookOptions & { readonly call?: undefined })
  // The index signature lets object literals written in place name their stage methods.
  | (MethodHookOptions & { readonly call?: undefined; readonly [method: `on${string}`]: unknown });

/**
 * Builds a hook from the arguments of a config entry (the entry without `type` and `enabled`).
 *
 * @example
 * const factory: HookFactory = (args) => new LoggingHook(args as LoggingHookOptions);
 */
export type HookFactory = (args: Readonly<Record<string, unknown>>) => AnyHook;
