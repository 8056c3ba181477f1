// The published schema (docs/config.schema.json) is the one the CLI validates with, it uses only keywords
// the validator understands, and the validator's messages point at the offending value.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { CONFIG_SCHEMA, MODEL_SCHEMA } from '../../lib/cli/config-schema.js';
import { formatPath, SCHEMA_KEYWORDS, validateSchema, type JsonSchema } from '../../lib/cli/json-schema.js';
import { parseModelFlag } from '../../lib/cli/model.js';
import { MODEL_KINDS } from '../../lib/models/index.js';
import { ROOT } from './run-cli.js';

const problems = (value: unknown, schema: JsonSchema = CONFIG_SCHEMA): string[] =>
  validateSchema(value, schema).map(({ path, problem }) => `${formatPath(path)}: ${problem}`);

const valid = {
  model: { type: 'lj', epsilon: 1, sigma: 1, cutoff: 2.5 },
  input: 'in.xyz',
  stages: [{ type: 'fire', fmax: 0.01 }],
  sinks: [{ path: 'out.xyz' }],
};

/** Every keyword used anywhere in `schema` (property names under `properties`/`$defs` are not keywords). */
function keywords(schema: JsonSchema, into = new Set<string>()): Set<string> {
  for (const [key, value] of Object.entries(schema)) {
    into.add(key);
    if (key === 'properties' || key === '$defs') for (const sub of Object.values(value as Record<string, JsonSchema>)) keywords(sub, into);
    else if (key === 'allOf' || key === 'oneOf') for (const sub of value as JsonSchema[]) keywords(sub, into);
    else if (['items', 'if', 'then', 'else'].includes(key) || (key === 'additionalProperties' && typeof value === 'object')) keywords(value as JsonSchema, into);
  }
  return into;
}

describe('the published config schema', () => {
  it('docs/config.schema.json is exactly the schema the CLI validates with (regenerate: hookmd schema > docs/config.schema.json)', () => {
    const published = JSON.parse(readFileSync(join(ROOT, 'docs', 'config.schema.json'), 'utf8')) as unknown;
    expect(published).toEqual(JSON.parse(JSON.stringify(CONFIG_SCHEMA)));
  });

  it('uses only keywords the validator enforces, so the docs promise nothing the CLI does not check', () => {
    expect([...keywords(CONFIG_SCHEMA)].filter((k) => !SCHEMA_KEYWORDS.includes(k))).toEqual([]);
  });
});

describe('validateSchema', () => {
  it('accepts a minimal config', () => {
    expect(problems(valid)).toEqual([]);
  });

  it('reports every problem with its path, in document order', () => {
    const config = {
      ...valid,
      units: 'si',
      stages: [{ type: 'langevin', temperature: -1, dt: 0, steps: 10 }],
      hooks: [{ type: 'NaNDetectorHook' }, { type: 'Custom', anything: [1] }, { type: 'LoggingHook', path: 'x.csv', frequency: 1.5, colour: 'red' }],
      stream: { maxAtoms: 0 },
      extra: true,
    };
    expect(problems(config)).toEqual([
      'stages[0].temperature: must be a number ≥ 0, got -1',
      'stages[0].dt: must be a number > 0, got 0',
      "units: must be one of 'metal', 'lj', got 'si'",
      'hooks[2].frequency: must be an integer ≥ 1, got 1.5',
      'hooks[2].colour: is not a known key; expected one of type, enabled, errorPolicy, order, path, format, frequency, stage, bufferRows, name',
      'stream.maxAtoms: must be an integer ≥ 1, got 0',
      'extra: is not a known key; expected one of units, backend, threads, plugins, model, input, stages, hooks, sinks, constraints, stream',
    ]);
  });

  it('requires a sink, and the length of every MD stage, so that no run drops its results or runs for an unstated time', () => {
    const { sinks: _, ...withoutSinks } = valid;
    expect(problems(withoutSinks)).toEqual(['sinks: is required']);
    expect(problems({ ...valid, sinks: [] })).toEqual(['sinks: must have at least 1 entry']);
    const md = [{ type: 'nve' }, { type: 'langevin', temperature: 1 }, { type: 'nhc', temperature: 1 }];
    expect(problems({ ...valid, stages: md })).toEqual(['stages[0].steps: is required', 'stages[1].steps: is required', 'stages[2].steps: is required']);
    expect(problems({ ...valid, stages: md.map((stage) => ({ ...stage, steps: 100 })) })).toEqual([]);
  });

  it('speaks about the variant a `type` names, and about `type` when it names none', () => {
    expect(problems({ type: 'morse', D: 1, alpha: 1, cutoff: 3 }, MODEL_SCHEMA)).toEqual(['r0: is required']);
    // Every model kind, in table order (lj and morse first): a new pair model adds itself.
    const kinds = MODEL_KINDS.names.map((kind) => `'${kind}'`).join(', ');
    expect(kinds.startsWith("'lj', 'morse', ")).toBe(true);
    expect(problems({ D: 1 }, MODEL_SCHEMA)).toEqual([`type: is required; one of ${kinds}`]);
    expect(problems({ type: 'lj', cutoff: 3, pairs: { 'Ar-Ar': { epsilon: 1 } } }, MODEL_SCHEMA)).toEqual(["pairs['Ar-Ar'].sigma: is required"]);
    expect(problems({ type: 'lj', cutoff: 3, pairs: {} }, MODEL_SCHEMA)).toEqual([]);
  });

  it('checks types before bounds, and names containers by kind', () => {
    expect(problems({ ...valid, stages: 'fire' })).toEqual(["stages: must be an array, got 'fire'"]);
    expect(problems({ ...valid, stages: [] })).toEqual(['stages: must have at least 1 entry']);
    expect(problems({ ...valid, input: '' })).toEqual(["input: must be a non-empty string, got ''"]);
    expect(problems({ ...valid, threads: { n: 2 } })).toEqual(['threads: must be an integer ≥ 0 and ≤ 1024, got an object']);
  });
});

describe('parseModelFlag', () => {
  it('reads type:key=value lists, with numbers and booleans', () => {
    expect(parseModelFlag('lj:epsilon=0.0104,sigma=3.4,cutoff=8.5,shift=true')).toEqual({ type: 'lj', epsilon: 0.0104, sigma: 3.4, cutoff: 8.5, shift: true });
    expect(parseModelFlag('morse:D=0.3429,alpha=1.3588,r0=2.866,cutoff=7')).toEqual({ type: 'morse', D: 0.3429, alpha: 1.3588, r0: 2.866, cutoff: 7 });
  });

  it('rejects malformed lists and bad values, naming them', () => {
    expect(() => parseModelFlag('lj:epsilon')).toThrow("--model: expected key=value, got 'epsilon'");
    expect(() => parseModelFlag('lj:epsilon=one,sigma=1,cutoff=2')).toThrow("--model: epsilon: must be a number ≥ 0, got 'one'");
    expect(() => parseModelFlag('lj:epsilon=1,sigma=1,cutoff=2,cutof=3')).toThrow('--model: cutof: is not a known key');
  });
});
