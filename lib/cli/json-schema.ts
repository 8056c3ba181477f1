// A validator for the subset of JSON Schema (draft 2020-12) that docs/config.schema.json uses. The CLI
// checks configs against the very schema it publishes, so the two cannot drift; every problem comes
// back as a path into the config (`hooks[2].frequency`) and a phrase (`must be an integer ≥ 1, got 0`).

import { suggestKey } from '../option-keys.js';
import { showText } from '../describe-value.js';

/** A JSON Schema node, limited to the keywords {@link validateSchema} understands. */
export interface JsonSchema {
  readonly $schema?: string;
  readonly $id?: string;
  readonly $ref?: string;
  readonly $defs?: Readonly<Record<string, JsonSchema>>;
  readonly title?: string;
  readonly description?: string;
  readonly default?: unknown;
  readonly examples?: readonly unknown[];
  readonly type?: JsonType;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly minimum?: number;
  readonly exclusiveMinimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly minItems?: number;
  readonly required?: readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly additionalProperties?: boolean | JsonSchema;
  readonly items?: JsonSchema;
  readonly allOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly if?: JsonSchema;
  readonly then?: JsonSchema;
  readonly else?: JsonSchema;
}

/** The JSON types a schema may name. */
export type JsonType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean';

/** One path segment: a property name or an array index. */
export type PathSegment = string | number;

/** One problem: where it is, and what is wrong (`must be …, got …`). */
export interface SchemaProblem {
  readonly path: readonly PathSegment[];
  readonly problem: string;
}

/** Every keyword the validator understands; a schema using any other is a programming error. */
export const SCHEMA_KEYWORDS: readonly string[] = [
  '$schema', '$id', '$ref', '$defs', 'title', 'description', 'default', 'examples', 'type', 'enum', 'const',
  'minimum', 'exclusiveMinimum', 'maximum', 'minLength', 'minItems', 'required', 'properties',
  'additionalProperties', 'items', 'allOf', 'oneOf', 'if', 'then', 'else',
];

/**
 * Renders a path the way JavaScript would reach the value: `hooks[2].frequency`, `pairs['Ar-Kr']`.
 *
 * @example
 * formatPath(['hooks', 2, 'frequency']); // 'hooks[2].frequency'
 */
export function formatPath(path: readonly PathSegment[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `['${segment}']`;
  }
  return text;
}

/** A bad value, shortly: strings quoted, containers by kind. */
function showValue(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  return String(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function hasType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case 'object': return isObject(value);
    case 'array': return Array.isArray(value);
    case 'string': return typeof value === 'string';
    case 'boolean': return typeof value === 'boolean';
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    case 'integer': return typeof value === 'number' && Number.isSafeInteger(value);
  }
}

// 'must be an integer ≥ 1': the type and the bounds in one phrase, as users read a constraint.
function expectation(schema: JsonSchema): string {
  const nouns: Record<JsonType, string> = {
    object: 'an object', array: 'an array', string: 'a string', boolean: 'true or false', number: 'a number', integer: 'an integer',
  };
  const bounds: string[] = [];
  if (schema.exclusiveMinimum !== undefined) bounds.push(`> ${schema.exclusiveMinimum}`);
  if (schema.minimum !== undefined) bounds.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) bounds.push(`≤ ${schema.maximum}`);
  const noun = schema.type === undefined ? 'a number' : nouns[schema.type];
  if (schema.type === 'string' && schema.minLength === 1) return 'must be a non-empty string';
  return `must be ${noun}${bounds.length > 0 ? ` ${bounds.join(' and ')}` : ''}`;
}

function listValues(values: readonly unknown[]): string {
  return values.map(showValue).join(', ');
}

class Validator {
  readonly #root: JsonSchema;
  readonly problems: SchemaProblem[] = [];

  constructor(root: JsonSchema) {
    this.#root = root;
  }

  #resolve(schema: JsonSchema): JsonSchema {
    if (schema.$ref === undefined) return schema;
    const name = /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1];
    const target = name === undefined ? undefined : this.#root.$defs?.[name];
    if (target === undefined) throw new Error(`json-schema: unresolved $ref ${schema.$ref}`);
    return this.#resolve(target);
  }

  /** Whether `value` satisfies `schema`, without recording anything (for `if` and `oneOf`). */
  matches(value: unknown, schema: JsonSchema): boolean {
    const probe = new Validator(this.#root);
    probe.check(value, schema, []);
    return probe.problems.length === 0;
  }

  check(value: unknown, node: JsonSchema, path: readonly PathSegment[]): void {
    const schema = this.#resolve(node);
    const before = this.problems.length;
    const report = (problem: string, at: readonly PathSegment[] = path): void => {
      this.problems.push({ path: at, problem });
    };
    if (schema.type !== undefined && !hasType(value, schema.type)) return report(`${expectation(schema)}, got ${showValue(value)}`);
    if (schema.const !== undefined && value !== schema.const) return report(`must be ${showValue(schema.const)}, got ${showValue(value)}`);
    if (schema.enum !== undefined && !schema.enum.includes(value)) return report(`must be one of ${listValues(schema.enum)}, got ${showValue(value)}`);
    if (typeof value === 'number') {
      const low = (schema.minimum !== undefined && value < schema.minimum) || (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum);
      if (low || (schema.maximum !== undefined && value > schema.maximum)) return report(`${expectation(schema)}, got ${showText(value)}`);
    }
    if (typeof value === 'string' && schema.minLength !== undefined && value.length < schema.minLength) {
      return report(`${expectation(schema)}, got ${showValue(value)}`);
    }
    if (Array.isArray(value)) this.#checkArray(value, schema, path);
    if (isObject(value)) this.#checkObject(value, schema, path);
    for (const part of schema.allOf ?? []) this.check(value, part, path);
    if (schema.if !== undefined) {
      const branch = this.matches(value, schema.if) ? schema.then : schema.else;
      if (branch !== undefined) this.check(value, branch, path);
    }
    if (schema.oneOf !== undefined && this.problems.length === before) this.#checkOneOf(value, schema.oneOf, path);
  }

  #checkArray(value: readonly unknown[], schema: JsonSchema, path: readonly PathSegment[]): void {
    if (schema.minItems !== undefined && value.length < schema.minItems) {
      this.problems.push({ path, problem: `must have at least ${schema.minItems} ${schema.minItems === 1 ? 'entry' : 'entries'}` });
    }
    if (schema.items !== undefined) value.forEach((item, i) => this.check(item, schema.items as JsonSchema, [...path, i]));
  }

  #checkObject(value: Record<string, unknown>, schema: JsonSchema, path: readonly PathSegment[]): void {
    const properties = schema.properties ?? {};
    for (const key of schema.required ?? []) {
      if (value[key] === undefined) this.problems.push({ path: [...path, key], problem: 'is required' });
    }
    for (const [key, item] of Object.entries(value)) {
      // Names of Object.prototype members (toString, constructor, __proto__) would resolve to inherited
      // members wherever a key is looked up in a plain object, here and in the code that reads the config.
      if (key in Object.prototype) {
        this.problems.push({ path: [...path, key], problem: 'is a reserved name and cannot be a key' });
        continue;
      }
      const sub = Object.hasOwn(properties, key) ? properties[key] : undefined;
      if (sub !== undefined) this.check(item, sub, [...path, key]);
      else if (schema.additionalProperties === false) {
        const known = Object.keys(properties);
        const suggestion = suggestKey(key, known);
        const hint = suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`;
        this.problems.push({ path: [...path, key], problem: `is not a known key${hint}; expected one of ${known.join(', ')}` });
      } else if (typeof schema.additionalProperties === 'object') this.check(item, schema.additionalProperties, [...path, key]);
    }
  }

  // Variants are told apart by the const of their `type` property, so the error speaks about the variant
  // the user meant instead of listing why every other one failed.
  #checkOneOf(value: unknown, variants: readonly JsonSchema[], path: readonly PathSegment[]): void {
    const passing = variants.filter((variant) => this.matches(value, variant));
    if (passing.length === 1) return;
    const tags = variants.map((variant) => this.#resolve(variant).properties?.type?.const).filter((tag) => tag !== undefined);
    if (passing.length === 0 && isObject(value) && tags.length === variants.length) {
      const chosen = variants.find((variant) => this.#resolve(variant).properties?.type?.const === value.type);
      if (chosen !== undefined) return this.check(value, chosen, path);
      const problem = value.type === undefined ? `is required; one of ${listValues(tags)}` : `must be one of ${listValues(tags)}, got ${showValue(value.type)}`;
      return void this.problems.push({ path: [...path, 'type'], problem });
    }
    this.problems.push({ path, problem: passing.length === 0 ? 'matches none of the allowed forms' : 'matches more than one allowed form' });
  }
}

/**
 * Checks `value` against `schema` and returns every problem, in document order (empty when valid).
 *
 * @example
 * validateSchema({ hooks: [{}, {}, { type: 'LoggingHook', frequency: 0 }] }, CONFIG_SCHEMA);
 * // [{ path: ['hooks', 2, 'frequency'], problem: 'must be an integer ≥ 1, got 0' }, …]
 */
export function validateSchema(value: unknown, schema: JsonSchema): SchemaProblem[] {
  const validator = new Validator(schema);
  validator.check(value, schema, []);
  return validator.problems;
}
