// The compute of every native potential's TS handle: it checks the options, resolves the skin from the
// batch's units when the model has none, crosses the host views' one boundary (acrossNative) for the native call and marks which results
// are valid afterwards.
import { HookmdError } from '../errors.js';
import { acrossNative, nativeBatchOf } from '../data/index.js';
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
  try {
    acrossNative(batch, () => native.compute(nativeBatch, forces, stress));
  } catch (error) {
    // A compute that failed part-way may have overwritten some systems' results: none of the requested
    // ones can be trusted any more.
    batch.markResults({ energy: false, ...(forces ? { forces: false } : {}), ...(stress ? { stress: false } : {}) });
    throw error;
  }
  // A result past a double is an error of this compute, not a number for the run to trip over later. The
  // per-system results are checked (B values; forces would cost a device copy of N×3 on cuda).
  const bad = nonFinite(batch, stress);
  if (bad !== undefined) {
    batch.markResults({ energy: false, ...(forces ? { forces: false } : {}), ...(stress ? { stress: false } : {}) });
    throw new HookmdError('NON_FINITE_RESULT', `${name}.compute: system ${bad.system} (systemId ${bad.systemId}) has ${bad.field} ${bad.value}: the parameters or the positions take it beyond a double`, {
      field: bad.field,
      index: bad.system,
      value: bad.value,
    });
  }
  batch.markResults(forces ? { energy: true, forces: true, ...(stress ? { stress: true } : {}) } : { energy: true, ...(stress ? { stress: true } : {}) });
}

/** The first system whose energy (or stress, when computed) is not finite. */
function nonFinite(batch: Batch, stress: boolean): { system: number; systemId: number; field: string; value: number } | undefined {
  const energy = batch.read('energy');
  const sigma = stress ? batch.read('stress') : undefined;
  for (let s = 0; s < energy.length; s++) {
    let field: string | undefined;
    let value = energy[s];
    if (!Number.isFinite(value)) field = 'energy';
    else if (sigma !== undefined) {
      const k = sigma.subarray(9 * s, 9 * s + 9).findIndex((v) => !Number.isFinite(v));
      if (k >= 0) [field, value] = [`stress[${Math.floor(k / 3)}][${k % 3}]`, sigma[9 * s + k]];
    }
    if (field !== undefined) return { system: s, systemId: batch.read('systemId')[s], field, value };
  }
  return undefined;
}
