// The unknown-option check every constructor that takes an options object shares: a misspelt option
// (`dtt`, `momentun`) would otherwise be ignored silently and the run would use the default.
import { HookmdTypeError } from './errors.js';

/**
 * Returns `options` as a record when it is a plain object whose own keys are all in `known`; otherwise
 * throws INVALID_OPTIONS (not an object) or UNKNOWN_OPTION naming the first unknown key. `prefix` names
 * a nested object in messages (`'lossWeights.'`).
 *
 * @example
 * checkKeys('FIRE', { model, dtt: 0.1 }, ['model', 'dt']); // UNKNOWN_OPTION: FIRE: unknown option dtt; expected one of model, dt
 */
export function checkKeys(owner: string, options: unknown, known: readonly string[], prefix: string = ''): Record<string, unknown> {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: ${prefix === '' ? 'options' : prefix.slice(0, -1)} must be an object`, {
      field: prefix === '' ? 'options' : prefix.slice(0, -1),
      value: options,
    });
  }
  const unknown = Object.keys(options).find((key) => !known.includes(key));
  if (unknown !== undefined) {
    throw new HookmdTypeError('UNKNOWN_OPTION', `${owner}: unknown option ${prefix}${unknown}; expected one of ${known.join(', ')}`, {
      field: `${prefix}${unknown}`,
      value: (options as Record<string, unknown>)[unknown],
    });
  }
  return options as Record<string, unknown>;
}
