// What an engine needs from a force field: a JS compute, and optionally a native handle that the
// stepping loop calls directly so that no step crosses into JS.
import type { Batch } from '../data/index.js';

/** A force field as the dynamics engines use it (every lib/models model satisfies it). */
export interface EngineModel {
  /**
   * Fills batch.energy and batch.forces for the current positions, and batch.stress when `stress` is set.
   * A model whose results come from elsewhere (OnnxModel, IpiModel) returns a promise, and says so with
   * `asyncCompute`.
   */
  compute(batch: Batch, options?: { forces?: boolean; stress?: boolean }): void | Promise<void>;
  /**
   * True when compute returns a promise: `run()` and `runStream()` await it, `runSync()` refuses the model
   * (ASYNC_MODEL_IN_SYNC_RUN) before it starts.
   */
  readonly asyncCompute?: boolean;
  /** The native model object, when the model is native (LennardJones, Morse); undefined for JsModel. */
  readonly native?: object;
  readonly name?: string;
}

/** The promise of an async model's compute, or undefined when it finished synchronously. */
export function pendingCompute(result: void | Promise<void>): Promise<void> | undefined {
  return result instanceof Promise ? result : undefined;
}
