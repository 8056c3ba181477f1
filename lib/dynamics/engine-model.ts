// What an engine needs from a force field: a JS compute, and optionally a native handle that the
// stepping loop calls directly so that no step crosses into JS.
import type { Batch } from '../data/index.js';

/** A force field as the dynamics engines use it (every lib/models model satisfies it). */
export interface EngineModel {
  /** Fills batch.energy and batch.forces for the current positions, and batch.stress when `stress` is set. */
  compute(batch: Batch, options?: { forces?: boolean; stress?: boolean }): void;
  /** The native model object, when the model is native (LennardJones, Morse); undefined for JsModel. */
  readonly native?: object;
  readonly name?: string;
}
