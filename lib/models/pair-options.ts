// Validation of pair-potential options, once, at the top (docs/ARCHITECTURE.md): species-pair keys, per-pair
// parameters, shift / switchOn / skin. Produces the flat table the native constructors take. Every
// message starts with the model name and names the field and the bad value.
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { atomicNumber, chemicalSymbol, isAtomicNumber } from '../data/index.js';
import { showText, showValue } from '../describe-value.js';

/**
 * One per-pair parameter of a pair model: its name, the error code for a bad value, whether 0 is allowed,
 * and what it is with its units (the config schema's description).
 *
 * @example
 * const sigma: ParameterRule = { name: 'sigma', code: 'INVALID_SIGMA', allowZero: false, description: 'Zero-crossing distance σ (Å in metal units).' };
 */
export interface ParameterRule {
  readonly name: string;
  readonly code: string;
  readonly allowZero: boolean;
  readonly description: string;
}

/** Checked options, ready for the native constructor. */
export interface ParsedPairOptions {
  /** Rows [z1, z2, ...parameters, cutoff]; z1 = z2 = 0 is the one row of a model without `pairs`. */
  rows: Float64Array;
  shift: boolean;
  /** 0 when off. */
  switchOn: number;
  skin: number | undefined;
  maxCutoff: number;
  /** Parameters per pair label ('Ar-Kr', or 'default'), for describe(). */
  pairs: Record<string, Record<string, number>>;
}

function checkNumber(model: string, field: string, value: unknown, code: string, allowZero: boolean): number {
  if (typeof value !== 'number') {
    throw new HookmdTypeError('INVALID_PARAMETER', `${model}: ${field} must be a number, got ${showValue(value)}`, { field, value });
  }
  if (!Number.isFinite(value)) {
    throw new HookmdRangeError('INVALID_PARAMETER', `${model}: ${field} must be finite, got ${showText(value)}`, { field, value });
  }
  if (allowZero ? value < 0 : value <= 0) {
    throw new HookmdRangeError(code, `${model}: ${field} must be ${allowZero ? '>= 0' : '> 0'}, got ${showText(value)}`, { field, value });
  }
  return value;
}

function speciesOf(model: string, key: string, part: string): number {
  const text = part.trim();
  if (/^\d+$/.test(text)) {
    const z = Number(text);
    if (isAtomicNumber(z)) return z;
  } else {
    try {
      return atomicNumber(text);
    } catch {
      // Reported below with the model name and the whole key.
    }
  }
  throw new HookmdError('INVALID_PAIR', `${model}: pairs key ${showValue(key)} names an unknown species ${showValue(text)}`, {
    field: 'pairs',
    value: key,
  });
}

/** 'Ar-Kr' or '18-36' → [18, 36]. */
export function parseSpeciesPair(model: string, key: string): [number, number] {
  const parts = key.split('-');
  if (parts.length !== 2) {
    throw new HookmdError('INVALID_PAIR', `${model}: pairs key ${showValue(key)} must name two species, like 'Ar-Kr' or '18-36'`, {
      field: 'pairs',
      value: key,
    });
  }
  return [speciesOf(model, key, parts[0]), speciesOf(model, key, parts[1])];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Validates `options` of `model` whose per-pair parameters follow `rules` (cutoff is added). */
export function parsePairOptions(model: string, options: unknown, rules: readonly ParameterRule[]): ParsedPairOptions {
  if (!isRecord(options)) {
    throw new HookmdTypeError('INVALID_OPTIONS', `${model}: options must be an object`, { field: 'options', value: options });
  }
  const names = rules.map((rule) => rule.name);
  checkKeys(model, options, [...names, 'cutoff', 'pairs', 'shift', 'switchOn', 'skin']);
  const rows: number[] = [];
  const pairs: Record<string, Record<string, number>> = {};
  const cutoffs: number[] = [];
  const addRow = (label: string, z1: number, z2: number, values: Record<string, unknown>, where: string): void => {
    const entry: Record<string, number> = {};
    for (const rule of rules) entry[rule.name] = checkNumber(model, `${where}${rule.name}`, values[rule.name], rule.code, rule.allowZero);
    const cutoff = values.cutoff ?? options.cutoff;
    entry.cutoff = checkNumber(model, values.cutoff === undefined ? 'cutoff' : `${where}cutoff`, cutoff, 'INVALID_CUTOFF', false);
    rows.push(z1, z2, ...rules.map((rule) => entry[rule.name]), entry.cutoff);
    pairs[label] = entry;
    cutoffs.push(entry.cutoff);
  };

  if (options.pairs === undefined) {
    addRow('default', 0, 0, options, '');
  } else {
    const given = rules.filter((rule) => options[rule.name] !== undefined).map((rule) => rule.name);
    if (given.length > 0) {
      throw new HookmdError('INVALID_PARAMETER', `${model}: ${given.join(', ')} apply only without pairs; give them per pair (no mixing rule is applied)`, {
        field: given[0],
        value: options[given[0]],
      });
    }
    if (!isRecord(options.pairs) || Object.keys(options.pairs).length === 0) {
      throw new HookmdTypeError('INVALID_PAIR', `${model}: pairs must be an object with at least one 'A-B' entry`, { field: 'pairs', value: options.pairs });
    }
    const seen = new Set<string>();
    for (const [key, values] of Object.entries(options.pairs)) {
      const [z1, z2] = parseSpeciesPair(model, key);
      const label = `${chemicalSymbol(Math.min(z1, z2))}-${chemicalSymbol(Math.max(z1, z2))}`;
      if (seen.has(label)) {
        throw new HookmdError('DUPLICATE_PAIR', `${model}: pairs names ${label} twice (pairs are unordered)`, { field: 'pairs', value: key });
      }
      seen.add(label);
      if (!isRecord(values)) {
        throw new HookmdTypeError('INVALID_PAIR', `${model}: pairs['${key}'] must be an object of parameters`, { field: `pairs['${key}']`, value: values });
      }
      checkKeys(model, values, [...names, 'cutoff'], `pairs['${key}'].`);
      addRow(label, z1, z2, values, `pairs['${key}'].`);
    }
  }

  const shift = options.shift ?? false;
  if (typeof shift !== 'boolean') {
    throw new HookmdTypeError('INVALID_PARAMETER', `${model}: shift must be a boolean, got ${showValue(shift)}`, { field: 'shift', value: shift });
  }
  let switchOn = 0;
  if (options.switchOn !== undefined) {
    switchOn = checkNumber(model, 'switchOn', options.switchOn, 'INVALID_SWITCH', false);
    const smallest = Math.min(...cutoffs);
    if (switchOn >= smallest) {
      throw new HookmdRangeError('INVALID_SWITCH', `${model}: switchOn must be smaller than every cutoff (${smallest}), got ${showText(switchOn)}`, {
        field: 'switchOn',
        value: switchOn,
      });
    }
    if (shift) {
      throw new HookmdError('INVALID_PARAMETER', `${model}: shift and switchOn are exclusive (the switch already brings the energy to 0 at the cutoff)`, {
        field: 'shift',
        value: shift,
      });
    }
  }
  const skin = options.skin === undefined ? undefined : checkNumber(model, 'skin', options.skin, 'INVALID_SKIN', true);
  return { rows: Float64Array.from(rows), shift, switchOn, skin, maxCutoff: Math.max(...cutoffs), pairs };
}
