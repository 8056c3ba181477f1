// One run of an engine on one batch, as its step loop sees it (Dynamics.steps): run(), runSync(), step() and
// runStream() each build one and drive the same loop over it.
import type { Batch } from '../data/index.js';
import type { MutableContext, RunControl } from '../hooks/index.js';
import type { DynamicsHookContext } from './hook-context.js';
import type { NativeStepperHandle } from './native-stepper.js';
import type { StepCounter, StepWalker } from './step-walker.js';

export interface EngineRun {
  readonly batch: Batch;
  readonly stepper: NativeStepperHandle;
  readonly walker: StepWalker;
  readonly ctx: MutableContext<DynamicsHookContext>;
  readonly control: RunControl;
  readonly counter: StepCounter;
  /** `Engine.run`, `Engine.step`, …: what errors name. */
  readonly owner: string;
  /** A synchronous run (runSync, step): a pending result is refused, and the loop never yields to the event loop. */
  readonly sync: boolean;
}

/**
 * When an asynchronous run lets the event loop turn: after `budgetMs` in native code and hooks since the last
 * pause. A stream keeps one across its refills, so that short segments add up.
 */
export class Pacer {
  readonly #budgetMs: number;
  #last = performance.now();

  constructor(budgetSeconds: number) {
    this.#budgetMs = budgetSeconds * 1000;
  }

  /** Whether a pause is due now. */
  due(): boolean {
    return performance.now() - this.#last > this.#budgetMs;
  }

  /** The event loop has turned: the budget starts again. */
  paused(): void {
    this.#last = performance.now();
  }
}
