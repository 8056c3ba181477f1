// hookmd hook kernel: shared types of the registry's reports and options.

import type { HookTier } from './hook.js';
import type { StageValue } from './stages.js';

/**
 * One row of `registry.list()`.
 *
 * @example
 * registry.list(); // [{ name: 'Logger', type: 'LoggingHook', stage: 'SAVE', stages: ['SAVE'], trigger: 'every(10)', enabled: true, polling: false, tier: 'user', order: 0 }]
 */
export interface HookInfo {
  /** Unique within the registry: a second hook named 'Logger' is 'Logger#2'. */
  readonly name: string;
  /** Its config's `type`, else its class name, else 'MethodHook' or 'Hook'. */
  readonly type: string;
  /** The stage's name, or the names of all its stages joined by '|' for `runsOnStage` hooks. */
  readonly stage: string;
  readonly stages: readonly string[];
  /** The trigger's description: `'every(10)'` for `frequency: 10`. */
  readonly trigger: string;
  readonly enabled: boolean;
  /** True when the trigger must be polled at every step (wall clock), which defeats step skipping. */
  readonly polling: boolean;
  /** 'user' hooks run before 'builtin' ones at every stage. */
  readonly tier: HookTier;
  readonly order: number;
}

/**
 * One row of `registry.profileReport()`.
 *
 * @example
 * registry.profileReport(); // [{ name: 'Logger', stage: 'SAVE', calls: 100, totalNs: 52000, meanNs: 520 }]
 */
export interface ProfileEntry {
  readonly name: string;
  readonly stage: string;
  /** Calls since profiling was switched on. */
  readonly calls: number;
  /** Total time in the hook, in nanoseconds (until its promise settled, for async hooks). */
  readonly totalNs: number;
  readonly meanNs: number;
}

/**
 * Where `errorPolicy: 'warn' | 'disable'` and cleanup failures are reported (default: `console`), and
 * where verbose hooks write what they report (`info`, when the logger has it).
 *
 * @example
 * const logger: HookLogger = { warn: (message, error) => myLog.warn({ error }, message) };
 * const silent: HookLogger = { warn: () => {} };
 */
export interface HookLogger {
  warn(message: string, error?: unknown): void;
  info?(message: string): void;
}

/**
 * Options of `new HookRegistry(stages, options)`.
 *
 * @example
 * new HookRegistry(DynamicsStage, { workflow: engine, logger: console } satisfies HookRegistryOptions);
 */
export interface HookRegistryOptions {
  /** Passed to each hook's `onRegister` (default: the registry itself). */
  readonly workflow?: unknown;
  readonly logger?: HookLogger;
  /**
   * Method names that name stages besides the generic `on` + camelCase name of each stage, such as a
   * Trainer's `{ onEpochEnd: TrainingStage.AFTER_EPOCH }`.
   */
  readonly methodAliases?: Readonly<Record<string, StageValue>>;
  /**
   * Method names other libraries use that name no stage here, each with the method to use instead: a
   * method-style hook that has one is UNSUPPORTED_STAGE_METHOD rather than a hook that silently never fires
   * there (the Trainer's `{ onValidationBatchEnd: { use: 'onValidationEnd', why: '…' } }`).
   */
  readonly methodHints?: Readonly<Record<string, MethodHint>>;
  /**
   * Stages that an event fires rather than the step schedule (dynamics' ON_CONVERGE, when systems
   * converge): a hook that fires only there never makes `nextDue` due, so a native loop need not stop for it.
   */
  readonly eventStages?: readonly StageValue[];
}

/**
 * What to write instead of another library's method name that names no stage of a registry.
 *
 * @example
 * const hint: MethodHint = { use: 'onValidationEnd', why: 'the validation set is evaluated in one pass' };
 */
export interface MethodHint {
  /** The supported method closest in meaning. */
  readonly use: string;
  /** Why the other name has no stage of its own. */
  readonly why: string;
}

/**
 * Options of `registry.register(hook, options)`.
 *
 * @example
 * registry.register(new Printer(), { stage: Stage.SAVE } satisfies RegisterOptions<Stage>);
 */
export interface RegisterOptions<S = StageValue> {
  /** Fire at this stage instead of the hook's own `stage` (and its `runsOnStage`), as nvalchemi's `register_hook(hook, stage)`. */
  readonly stage?: S;
}

/**
 * Options of `registry.fromConfig(entries, options)`.
 *
 * @example
 * registry.fromConfig([{ type: './hooks.js#Uploader' }], { baseDir: dirname(configPath) } satisfies FromConfigOptions);
 */
export interface FromConfigOptions {
  /** Where module-path types (`'./file.js#Export'`) are resolved from (default: the working directory). */
  readonly baseDir?: string;
}

/**
 * A checkpoint of hook states: state key → whatever the hook's `stateDict()` returned.
 *
 * @example
 * const saved: StateDict = registry.stateDict(); // { 'Counter': { count: 3 }, 'Logger#1a2b3c4d': {…} }
 */
export type StateDict = Record<string, unknown>;

/**
 * Options of `registry.loadStateDict`.
 *
 * @example
 * registry.loadStateDict(saved, { strict: false } satisfies LoadStateOptions);
 */
export interface LoadStateOptions {
  /**
   * When true (default), a key that matches no hook and a stateful hook missing from the checkpoint
   * are errors (UNKNOWN_STATE_KEY, MISSING_STATE_KEY), as in PyTorch's `load_state_dict`.
   */
  readonly strict?: boolean;
}
