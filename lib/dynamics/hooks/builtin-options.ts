// Shared option checks for the built-in hooks.
import { HookmdRangeError } from '../../errors.js';
import { showText } from '../../describe-value.js';

/** A firing frequency: an integer ≥ 1 (default 1). */
export function checkFrequency(owner: string, frequency: number | undefined): number {
  const value = frequency ?? 1;
  if (!Number.isInteger(value) || value < 1) {
    throw new HookmdRangeError('INVALID_FREQUENCY', `${owner}: frequency must be an integer ≥ 1, got ${showText(value)}`, { field: 'frequency', value });
  }
  return value;
}
