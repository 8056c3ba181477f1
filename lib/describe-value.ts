// A bad value as an error message shows it: safe for every value (a Symbol, a BigInt, an object without a
// prototype), so that formatting the message never throws in place of the error it describes.

/**
 * `2n`, `Symbol(x)`, `"text"`, `null`, `undefined`, `an array`, `an object`, `a function`, or the number.
 *
 * @example
 * describeValue(Object.create(null)); // 'an object'
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol') return value.toString();
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  return value !== null && typeof value === 'object' ? 'an object' : String(value);
}
