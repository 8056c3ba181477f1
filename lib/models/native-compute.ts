// The compute of every native potential's TS handle: it checks the options, resolves the skin from the
// batch's units when the model has none, syncs host mirrors around the native call and marks which results
// are valid afterwards.
import { nativeBatchOf } from '../data/index.js';
import type { Batch } from '../data/index.js';
import type { NativePotential } from '../native/models-binding.js';
import { computeRequest } from './compute-options.js';
import type { ComputeOptions } from './model.js';

/** Runs `native` on `batch` for model `name`; `skin` undefined takes `batch.units.defaultSkin`. */
export function computeNative(name: string, native: NativePotential, skin: number | undefined, batch: Batch, options: ComputeOptions): void {
  const { forces, stress } = computeRequest(name, options);
  const nativeBatch = nativeBatchOf(batch);
  const resolvedSkin = skin ?? batch.units.defaultSkin;
  if (native.skin !== resolvedSkin) native.setSkin(resolvedSkin);
  batch.commitHostViews();
  try {
    native.compute(nativeBatch, forces, stress);
  } catch (error) {
    // A compute that failed part-way may have overwritten some systems' results: none of the requested
    // ones can be trusted any more.
    batch.invalidateHostViews();
    batch.markResults({ energy: false, ...(forces ? { forces: false } : {}), ...(stress ? { stress: false } : {}) });
    throw error;
  }
  batch.invalidateHostViews();
  batch.markResults(forces ? { energy: true, forces: true, ...(stress ? { stress: true } : {}) } : { energy: true, ...(stress ? { stress: true } : {}) });
}
