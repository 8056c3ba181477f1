// The extxyz comment line: ASE's key=value grammar (ase/io/extxyz.py, key_val_str_to_dict and
// key_val_dict_to_str as of ASE 3.23), so that every value ASE writes reads back the same here and back.
// docs/formats.md lists where this reads differently from ASE 3.22.

/** One `key=value` entry as written; `raw` is null for a bare key (ASE reads it as True). */
export interface RawEntry {
  readonly key: string;
  readonly raw: string | null;
}

const CLOSING: Readonly<Record<string, string>> = { '"': '"', "'": "'", '{': '}', '[': ']' };

/**
 * Splits a comment line into entries, character by character as ASE does: values may be quoted with
 * "", '', {} or [], and a backslash takes the next character verbatim. Throws a plain Error whose
 * message says what is wrong (the readers turn it into EXTXYZ_PARSE with the line number).
 */
export function splitEntries(line: string): RawEntry[] {
  // entries[i] is [key, value part, ...]; ASE rejoins extra value parts with '='. A new entry starts
  // as [''] and only counts once something is put in it, so spaces around '=' are tolerated.
  const entries: string[][] = [['']];
  let closing: string | undefined;
  let escaped = false;
  const last = (): string[] => entries[entries.length - 1];
  const append = (char: string): void => {
    const entry = last();
    entry[entry.length - 1] += char;
  };
  for (const char of line.trim()) {
    if (escaped) {
      append(char);
      escaped = false;
    } else if (char === '\\') {
      escaped = true;
    } else if (closing !== undefined) {
      if (char === closing) closing = undefined;
      else append(char);
    } else if (char in CLOSING) {
      closing = CLOSING[char];
    } else if (/\s/.test(char)) {
      const entry = last();
      if (entry[entry.length - 1] !== '') entries.push(['']);
    } else if (char === '=') {
      const entry = last();
      if (entries.length > 1 && entry.length === 1 && entry[0] === '') entries.pop();
      last().push('');
    } else {
      append(char);
    }
  }
  if (closing !== undefined) throw new Error(`unterminated quote: missing closing ${closing}`);
  if (escaped) throw new Error('the line ends with a lone backslash');
  return entries
    .filter((p) => !(p.length === 1 && p[0] === ''))
    .map((p) => ({ key: p[0], raw: p.length === 1 ? null : p.slice(1).join('=') }));
}

const INT = /^[+-]?\d+$/;
// Python's float() grammar (underscores aside), including nan and inf.
const FLOAT = /^[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|inf|infinity|nan)$/i;
const TOKENS = /[^\s,]+/g;

/** Python's float() of a token already matching FLOAT. */
export function parseFloatToken(token: string): number {
  const lower = token.toLowerCase().replace(/^\+/, '');
  if (lower === 'nan' || lower === '-nan') return NaN;
  if (lower === 'inf' || lower === 'infinity') return Infinity;
  if (lower === '-inf' || lower === '-infinity') return -Infinity;
  return Number(token);
}

/** Whether `token` is a number to Python's float(). */
export function isFloatToken(token: string): boolean {
  return FLOAT.test(token);
}

/** The spellings ASE ≥ 3.23 and libAtoms read as booleans (casing matters: 'tRUE' is a string). */
const BOOLEANS: ReadonlyMap<string, boolean> = new Map([
  ['T', true], ['true', true], ['True', true], ['TRUE', true],
  ['F', false], ['false', false], ['False', false], ['FALSE', false],
]);

/** Keys whose values ASE keeps as the string written (an identifier such as uid=00123 keeps its zeros). */
const UNPROCESSED_KEYS: ReadonlySet<string> = new Set(['uid']);

/** Whether `key`'s value stays the string written. */
export function isUnprocessedKey(key: string): boolean {
  return UNPROCESSED_KEYS.has(key.toLowerCase());
}

/**
 * Converts a raw value as ASE ≥ 3.23 does: ints, then floats (arrays when several), then booleans (lists of
 * them when several), then `_JSON `; the values of unprocessed keys (uid) stay strings. A bare key is True.
 */
export function convertValue(raw: string | null, key = ''): unknown {
  if (isUnprocessedKey(key)) return raw ?? 'T';
  if (raw === null) return true;
  const tokens = raw.match(TOKENS) ?? [];
  if (tokens.every((t) => INT.test(t)) || tokens.every((t) => FLOAT.test(t))) {
    const numbers = tokens.map(parseFloatToken);
    return numbers.length === 1 ? numbers[0] : numbers;
  }
  if (tokens.every((t) => BOOLEANS.has(t))) {
    const flags = tokens.map((t) => BOOLEANS.get(t) === true);
    return flags.length === 1 ? flags[0] : flags;
  }
  if (raw.startsWith('_JSON ')) return JSON.parse(raw.slice(6)) as unknown;
  return raw;
}

// Quoting is needed for anything the tokenizer would otherwise split or treat specially.
const NEEDS_QUOTES = /[\s"'{}[\]=\\]/;

/** Quotes `text` (escaping backslashes and double quotes) when the grammar needs it. */
export function quote(text: string): string {
  if (text !== '' && !NEEDS_QUOTES.test(text)) return text;
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** One number as ASE reads it back: the shortest repr, with Python's spelling of nan and inf. */
export function formatNumber(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  return Object.is(value, -0) ? '-0' : String(value);
}

/** Whether a bare string would come back as something else (number, boolean, JSON, array). */
function stringNeedsJson(text: string): boolean {
  if (text.startsWith('_JSON ') || /[\x00-\x1f\x7f]/.test(text)) return true;
  const tokens = text.match(TOKENS) ?? [];
  return tokens.every((t) => FLOAT.test(t) || INT.test(t)) || tokens.every((t) => BOOLEANS.has(t));
}

function isNumberArray(value: ArrayLike<unknown>): value is ArrayLike<number> {
  return Array.from(value).every((v) => typeof v === 'number');
}

function json(value: unknown): string {
  // Typed arrays and bigints are plain arrays and numbers in JSON.
  const text = JSON.stringify(value, (_key, v: unknown) =>
    ArrayBuffer.isView(v) && !(v instanceof DataView) ? Array.from(v as unknown as ArrayLike<number>) : typeof v === 'bigint' ? Number(v) : v,
  );
  if (text === undefined) throw new Error('it has no JSON form');
  return `_JSON ${text}`;
}

/**
 * Formats one info value so that both ASE and `readExtxyz` read it back as the same value: numbers,
 * booleans and 1-D arrays of them (two or more entries) as ASE writes them, strings bare or quoted,
 * and anything else (objects, nested arrays, one-entry arrays, strings that look like numbers) as
 * ASE's `_JSON` form. The values of unprocessed keys (uid) are written as their text. Throws a plain Error
 * for values with no such form (functions, symbols).
 */
export function formatValue(value: unknown, key = ''): string {
  // ASE reads an unprocessed key's value as the text written, so it is written as text, never as _JSON.
  if (isUnprocessedKey(key) && (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint')) {
    return quote(typeof value === 'string' ? value : String(value));
  }
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'T' : 'F';
  if (typeof value === 'string') return quote(stringNeedsJson(value) ? json(value) : value);
  if (typeof value === 'function' || typeof value === 'symbol' || value === undefined) {
    throw new Error(`a ${typeof value} has no extxyz form`);
  }
  const list = Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView)) ? (value as ArrayLike<unknown>) : undefined;
  if (list !== undefined && list.length >= 2) {
    if (isNumberArray(list)) return quote(Array.from(list, formatNumber).join(' '));
    if (Array.from(list).every((v) => typeof v === 'boolean')) return quote(Array.from(list, (v) => (v ? 'T' : 'F')).join(' '));
  }
  return quote(json(value));
}
