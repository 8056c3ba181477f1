// Every per-system engine parameter accepts a scalar or one value per system (docs/dynamics.md). This expands
// them for a batch and checks each value once, before native code sees it.
import { HookmdRangeError, HookmdTypeError } from '../errors.js';
import { showText } from '../describe-value.js';

/** A scalar, or one value per system. */
export type PerSystem = number | ArrayLike<number>;

/** Constraint on a parameter's values. */
export type ParameterRule = 'positive' | 'nonNegative' | 'finite' | 'integer≥0' | 'integer≥1';

function violates(rule: ParameterRule, v: number): boolean {
  switch (rule) {
    case 'positive': return !(Number.isFinite(v) && v > 0);
    case 'nonNegative': return !(Number.isFinite(v) && v >= 0);
    case 'finite': return !Number.isFinite(v);
    case 'integer≥0': return !(Number.isInteger(v) && v >= 0);
    case 'integer≥1': return !(Number.isInteger(v) && v >= 1);
  }
}

const RULE_TEXT: Record<ParameterRule, string> = {
  positive: 'a finite number > 0',
  nonNegative: 'a finite number ≥ 0',
  finite: 'a finite number',
  'integer≥0': 'an integer ≥ 0',
  'integer≥1': 'an integer ≥ 1',
};

/** Checks a parameter as given (scalar or array) without knowing the batch size. */
export function checkParameter(owner: string, name: string, value: PerSystem, rule: ParameterRule): void {
  if (typeof value === 'number') {
    if (violates(rule, value)) {
      throw new HookmdRangeError('INVALID_PARAMETER', `${owner}: ${name} must be ${RULE_TEXT[rule]}, got ${showText(value)}`, { field: name, value });
    }
    return;
  }
  if (value === null || typeof value !== 'object' || typeof value.length !== 'number') {
    throw new HookmdTypeError('INVALID_PARAMETER', `${owner}: ${name} must be a number or an array of numbers`, { field: name, value });
  }
  for (let i = 0; i < value.length; i++) {
    if (violates(rule, value[i])) {
      throw new HookmdRangeError('INVALID_PARAMETER', `${owner}: ${name}[${i}] must be ${RULE_TEXT[rule]}, got ${showText(value[i])}`, {
        field: name,
        index: i,
        value: value[i],
      });
    }
  }
}

/** One value per system for a batch of `numSystems`; arrays must have exactly that length. */
export function expandParameter(owner: string, name: string, value: PerSystem, numSystems: number): Float64Array {
  if (typeof value === 'number') return new Float64Array(numSystems).fill(value);
  if (value.length !== numSystems) {
    throw new HookmdTypeError(
      'LENGTH_MISMATCH',
      `${owner}: ${name} has ${value.length} values but the batch has ${numSystems} systems`,
      { field: name, value: value.length, expected: numSystems },
    );
  }
  return Float64Array.from(value);
}

/** A parameter of an engine: name, value as given, and its rule. */
export interface EngineParameter {
  readonly name: string;
  readonly value: PerSystem;
  readonly rule: ParameterRule;
}

/**
 * Checks a parameter when the engine is built, so errors point at the constructor call. An array is
 * copied first and the copy is what gets checked and kept: a caller who changes its array afterwards
 * (`dt[0] = -1`) changes nothing in the engine.
 */
export function engineParameter(owner: string, name: string, value: PerSystem, rule: ParameterRule): EngineParameter {
  const captured = capture(value);
  checkParameter(owner, name, captured, rule);
  return { name, value: captured, rule };
}

/** A scalar as is; anything array-like as a frozen copy of its values, read once. */
export function capture(value: PerSystem): PerSystem {
  if (value === null || typeof value !== 'object' || typeof value.length !== 'number') return value;
  return Object.freeze(Array.from(value));
}

/** The range of the native status words (int32). */
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** True for an integer that fits the native int32 status words. */
export function isStatus(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= INT32_MIN && (value as number) <= INT32_MAX;
}

/** The native integrator an engine runs, and its parameters. */
export interface IntegratorSpec {
  readonly type: string;
  readonly parameters: readonly EngineParameter[];
  /** Every compute must evaluate the stress, because the update reads it (a cell filter). */
  readonly needsStress?: boolean;
}
