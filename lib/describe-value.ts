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

// Past these, a value in a message is summarised: a 2³²−1-element sparse array would otherwise take minutes
// and gigabytes to spell out, in place of the error it belongs to.
const LONGEST_SHOWN = 1000;
const LONGEST_ARRAY_SHOWN = 64;

function shortened(text: string): string {
  return text.length > LONGEST_SHOWN ? `${text.slice(0, LONGEST_SHOWN)}…` : text;
}

/**
 * `JSON.stringify(value)` as an error message shows it, for every value: a BigInt as `2n`, a Symbol, a
 * function, a cycle or a prototype-less object as describeValue says, a long array as its length, at most
 * 1,000 characters.
 *
 * @example
 * showValue({ a: 1n }); // '{"a":"1n"}'
 */
export function showValue(value: unknown): string {
  if (typeof value === 'bigint' || typeof value === 'symbol' || typeof value === 'function') return describeValue(value);
  try {
    const text = JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'bigint') return `${v}n`;
      if (Array.isArray(v) && v.length > LONGEST_ARRAY_SHOWN) return `an array of ${v.length}`;
      return v;
    });
    return text === undefined ? String(value) : shortened(text);
  } catch {
    return describeValue(value);
  }
}

/**
 * `String(value)` as an error message shows it, for every value (String throws for a prototype-less object
 * and spells out a long array): at most 1,000 characters.
 *
 * @example
 * showText(Object.create(null)); // 'an object'
 */
export function showText(value: unknown): string {
  if (Array.isArray(value) && value.length > LONGEST_ARRAY_SHOWN) return `an array of ${value.length}`;
  try {
    return shortened(String(value));
  } catch {
    return describeValue(value);
  }
}
