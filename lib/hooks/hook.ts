// hookmd hook kernel: the hook protocol (docs/hooks.md). Any object of this shape is a hook; no base class.

import type { HookContext, StepContext } from './context.js';
import type { Trigger } from './triggers/trigger.js';

/**
 * What a failing hook does to the run: abort it (default), log and go on, or log and unregister.
 *
 * @example
 * registry.register({ stage: Stage.SAVE, frequency: 1, errorPolicy: 'warn', call: flakyUpload });
 */
export type ErrorPolicy = 'raise' | 'warn' | 'disable';

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
}

/**
 * A hook of any stage and context type, as held by factory tables and config-built lists; the
 * registry checks its stage at run time (FOREIGN_STAGE).
 *
 * @example
 * const hooks: AnyHook[] = registry.handles().map((h) => h.hook);
 */
export type AnyHook = Hook<any, any>;
