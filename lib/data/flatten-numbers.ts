// Flattens user arrays (nested array-likes of numbers, as a JsModel callback returns them) into a typed array
// whose length the caller fixes, checking the shape before anything is copied: an array-like that claims
// 2³¹ entries is refused from its `length` alone, and one that contains itself from its depth, so neither
// can exhaust memory or the stack.
import { describeValue } from '../describe-value.js';
import { HookmdRangeError, HookmdTypeError } from '../errors.js';

/** Where the numbers come from, for messages: `${owner}: the callback's ${field} ...`. */
export interface FlattenSource {
  readonly owner: string;
  /** The field as messages name it, e.g. "the callback's forces". */
  readonly field: string;
  /** Code of a value that is not a finite number, or of an array nested too deep. */
  readonly code: string;
  /** Array levels allowed above the numbers (3 for B×3×3 stress). */
  readonly maxDepth: number;
}

function lengthOf(value: unknown): number | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const length = (value as { length?: unknown }).length;
  return typeof length === 'number' && Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

/**
 * `value` (a number, or array-likes of array-likes ... of numbers) row-major as exactly `length` finite
 * numbers. Throws LENGTH_MISMATCH when it holds another count (found before reading past `length`),
 * `source.code` for a leaf that is not a finite number, an array nested more than `source.maxDepth` deep
 * or one that contains itself.
 */
export function flattenNumbers(value: unknown, length: number, source: FlattenSource): Float64Array {
  const out = new Float64Array(length);
  const { owner, field, code, maxDepth } = source;
  const ancestors: unknown[] = [];
  let written = 0;
  const tooMany = (claimed: number): HookmdTypeError =>
    new HookmdTypeError('LENGTH_MISMATCH', `${owner}: ${field} has more than ${length} numbers (an array of ${claimed} entries after ${written}), expected ${length}`, {
      field,
      value: claimed,
      expected: length,
    });
  const visit = (node: unknown, depth: number): void => {
    const size = lengthOf(node);
    if (size === undefined) {
      if (typeof node !== 'number' || !Number.isFinite(node)) {
        throw new HookmdRangeError(code, `${owner}: ${field}[${written}] is ${describeValue(node)}; values must be finite numbers`, { field, index: written, value: node });
      }
      if (written === length) throw tooMany(1);
      out[written++] = node;
      return;
    }
    if (ancestors.includes(node)) {
      throw new HookmdTypeError(code, `${owner}: ${field} contains itself`, { field, index: written });
    }
    if (ArrayBuffer.isView(node) && !(node instanceof DataView) && !(node instanceof BigInt64Array) && !(node instanceof BigUint64Array)) {
      // A typed array holds numbers only: copied at once after the count check.
      if (size > length - written) throw tooMany(size);
      const numbers = node as unknown as ArrayLike<number>;
      for (let i = 0; i < size; i++) {
        if (!Number.isFinite(numbers[i])) {
          throw new HookmdRangeError(code, `${owner}: ${field}[${written + i}] is ${numbers[i]}; values must be finite numbers`, { field, index: written + i, value: numbers[i] });
        }
      }
      out.set(numbers, written);
      written += size;
      return;
    }
    if (depth === maxDepth) {
      throw new HookmdTypeError(code, `${owner}: ${field} nests arrays more than ${maxDepth} deep`, { field, index: written });
    }
    if (size > length - written) throw tooMany(size);
    ancestors.push(node);
    const items = node as ArrayLike<unknown>;
    for (let i = 0; i < size; i++) visit(items[i], depth + 1);
    ancestors.pop();
  };
  visit(value, 0);
  if (written !== length) {
    throw new HookmdTypeError('LENGTH_MISMATCH', `${owner}: ${field} has ${written} numbers, expected ${length}`, { field, value: written, expected: length });
  }
  return out;
}
