// The options of every model's compute(batch, options), checked in one place so that each model (native,
// JS callback, or one added later) treats `{ stress: 'yes' }` and a misspelt `{ stres: true }` alike.
import { HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import type { ComputeOptions } from './model.js';
import { showValue } from '../describe-value.js';

function flag(model: string, options: ComputeOptions, name: 'forces' | 'stress', fallback: boolean): boolean {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') {
    throw new HookmdTypeError('INVALID_OPTIONS', `${model}.compute: ${name} must be a boolean, got ${showValue(value)}`, {
      field: name,
      value,
    });
  }
  return value;
}

/**
 * The results `compute` must write: forces (default true) and stress (default false). Anything but an
 * object is INVALID_OPTIONS, an unknown key UNKNOWN_OPTION.
 *
 * @example
 * const { forces, stress } = computeRequest('LennardJones', { stress: true }); // true, true
 */
export function computeRequest(model: string, options: ComputeOptions): { forces: boolean; stress: boolean } {
  checkKeys(`${model}.compute`, options, ['forces', 'stress'], '', { virial: 'stress' });
  return { forces: flag(model, options, 'forces', true), stress: flag(model, options, 'stress', false) };
}
