// What a run returns.
import type { StopRequest } from '../hooks/index.js';

/** The outcome of `run()` / `runSync()` (docs/dynamics.md). */
export interface RunResult {
  /** Steps taken by this call. */
  steps: number;
  /** The engine's step counter after the call (it carries on across calls). */
  stepCount: number;
  /** Per system: 1 when its status reached the engine's exitStatus. */
  converged: Uint8Array;
  /** Set when a hook, the AbortSignal or the user asked the run to stop. */
  stopped?: StopRequest;
}

/** Options of `run()` / `runSync()`. */
export interface RunOptions {
  /** How many more steps to take (any safe integer ≥ 0). */
  steps: number;
  /**
   * Aborting it ends the run after the current step (`stopped.by === 'signal'`); if an async hook is
   * pending then, the run rejects at once with HookmdAbortError (`name` 'AbortError') naming that hook.
   */
  signal?: AbortSignal;
}
