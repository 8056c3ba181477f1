// What a run returns.
import type { StopRequest } from '../hooks/index.js';

/** The outcome of `run()` / `runSync()` (docs/dynamics.md). */
export interface RunResult {
  /** Steps taken by this call. */
  steps: number;
  /** The engine's step counter after the call (it carries on across calls). */
  stepCount: number;
  /**
   * Per system: 1 when its status reached the engine's exitStatus, or when a detect-only ConvergenceHook
   * reported it during this call.
   */
  converged: Uint8Array;
  /**
   * Systems that were active (status < exitStatus) when the call began. 0 means the call took no step at
   * all: every system was already finished (docs/dynamics.md, "Status from one engine to the next").
   */
  activeAtStart: number;
  /** Set when a hook, the AbortSignal or the user asked the run to stop. */
  stopped?: StopRequest;
}

/** Options of `run()` / `runSync()`. */
export interface RunOptions {
  /**
   * How many more steps to take (any safe integer ≥ 0). Required, except for a FusedStage, which without it
   * runs until every system reaches its exitStatus (nvalchemi's `FusedStage.run(batch)`).
   */
  steps?: number;
  /** Without `steps`: at most this many steps (a safety cap; FusedStage only). */
  maxSteps?: number;
  /**
   * Aborting it ends the run after the current step (`stopped.by === 'signal'`); if an async hook is
   * pending then, the run rejects at once with HookmdAbortError (`name` 'AbortError') naming that hook.
   */
  signal?: AbortSignal;
  /**
   * Keep the statuses another engine left on the batch (default false: a batch that another engine ran
   * last starts with every status at 0, docs/dynamics.md).
   */
  keepStatus?: boolean;
}
