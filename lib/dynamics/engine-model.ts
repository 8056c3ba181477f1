// What an engine needs from a force field: a JS compute, and optionally a native handle that the
// stepping loop calls directly so that no step crosses into JS.
import type { Batch } from '../data/index.js';

/** A force field as the dynamics engines use it (every lib/models model satisfies it). */
export interface EngineModel {
  /** Fills batch.energy, batch.forces and batch.stress for the current positions. */
  compute(batch: Batch): void;
  /** The native model object, when the model is native (LennardJones, Morse); undefined for JsModel. */
  readonly native?: object;
  readonly name?: string;
}
