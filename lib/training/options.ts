// Option checks shared by the optimizers, schedulers and training hooks: every message starts with the
// owner and names the field and the bad value (docs/ARCHITECTURE.md).
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';
import { findMetric } from './metric-names.js';
import { showText, showValue } from '../describe-value.js';

/** @internal Checks one numeric option: finite, within [min, max] (max exclusive when `open`). */
export function numberOption(owner: string, field: string, value: unknown, min: number, max: number = Infinity, open: boolean = false): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: ${field} must be a finite number, got ${showValue(value)}`, { field, value });
  }
  if (value < min || (open ? value >= max : value > max)) {
    const range = `≥ ${min}${max === Infinity ? '' : open ? ` and < ${max}` : ` and ≤ ${max}`}`;
    throw new HookmdRangeError('INVALID_OPTIONS', `${owner}: ${field} must be ${range}, got ${showText(value)}`, { field, value });
  }
  return value;
}

/** @internal A learning rate: finite and > 0. */
export function lrOption(owner: string, value: unknown): number {
  const lr = numberOption(owner, 'lr', value, 0);
  if (lr === 0) throw new HookmdRangeError('INVALID_OPTIONS', `${owner}: lr must be > 0, got 0`, { field: 'lr', value });
  return lr;
}

/**
 * @internal The learning rate of a saved optimizer state: finite and ≥ 0, since a scheduler may have
 * taken it to 0 (CosineLR at tMax with etaMin 0), and a resumed run must still load it.
 */
export function savedLr(owner: string, value: unknown): number {
  return numberOption(owner, 'lr', value, 0);
}

/** @internal Rejects options the constructor does not know (one helper for every layer). */
export { checkKeys } from '../option-keys.js';

/** @internal A number array from a checkpoint, of `length` entries. */
export function numberArray(owner: string, field: string, value: unknown, length: number | undefined): Float64Array {
  if (!Array.isArray(value) || (length !== undefined && value.length !== length) || !value.every((v) => typeof v === 'number')) {
    throw new HookmdError('INVALID_CHECKPOINT', `${owner}: state.${field} must be an array of ${length ?? 'some'} numbers`, { field, value });
  }
  return Float64Array.from(value as number[]);
}

/** @internal An integer option ≥ `min`. */
export function integerOption(owner: string, field: string, value: unknown, min: number): number {
  const n = numberOption(owner, field, value, min);
  if (!Number.isInteger(n)) throw new HookmdRangeError('INVALID_OPTIONS', `${owner}: ${field} must be an integer ≥ ${min}, got ${showText(n)}`, { field, value });
  return n;
}

/** @internal 'min' or 'max'. */
export function modeOption(owner: string, value: unknown): 'min' | 'max' {
  if (value === undefined) return 'min';
  if (value === 'min' || value === 'max') return value;
  throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: mode must be 'min' or 'max', got ${showValue(value)}`, { field: 'mode', value });
}

/** @internal A metric name. */
export function stringOption(owner: string, field: string, value: unknown): string {
  if (typeof value === 'string' && value !== '') return value;
  throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: ${field} must be a non-empty string, got ${showValue(value)}`, { field, value });
}

/** @internal The value of metric `name` (`val/loss` or `val_loss`), or METRIC_NOT_FOUND naming the metrics there are. */
export function readMetric(owner: string, metrics: Readonly<Record<string, number>>, name: string): number {
  const value = findMetric(metrics, name);
  if (value !== undefined) return value;
  throw new HookmdError('METRIC_NOT_FOUND', `${owner}: metric '${name}' is not available; metrics: ${Object.keys(metrics).sort().join(', ') || '(none)'}`, {
    field: 'monitor',
    value: name,
    known: Object.keys(metrics).sort(),
  });
}
