// The compute of every native potential's TS handle: it checks the options, resolves the skin from the
// batch's units when the model has none, syncs host mirrors around the native call and marks which results
// are valid afterwards.
import { HookmdTypeError } from '../errors.js';
import { nativeBatchOf } from '../data/index.js';
import type { Batch } from '../data/index.js';
import type { NativePotential } from '../native/models-binding.js';
import type { ComputeOptions } from './model.js';

function flag(model: string, options: ComputeOptions, name: 'forces' | 'stress', fallback: boolean): boolean {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') {
    throw new HookmdTypeError('INVALID_OPTIONS', `${model}.compute: ${name} must be a boolean, got ${JSON.stringify(value)}`, {
      field: name,
      value,
    });
  }
  return value;
}

/** Runs `native` on `batch` for model `name`; `skin` undefined takes `batch.units.defaultSkin`. */
export function computeNative(name: string, native: NativePotential, skin: number | undefined, batch: Batch, options: ComputeOptions): void {
  if (options === null || typeof options !== 'object') {
    throw new HookmdTypeError('INVALID_OPTIONS', `${name}.compute: options must be an object`, { field: 'options', value: options });
  }
  const forces = flag(name, options, 'forces', true);
  const stress = flag(name, options, 'stress', false);
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
