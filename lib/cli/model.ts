// Models from the command line (`--model lj:epsilon=1,sigma=1,cutoff=2.5`), from a `--model-config`
// file, or from the `model` section of a run config. All three are checked against MODEL_SCHEMA first,
// so a bad parameter is reported where the user wrote it.
import { isHookmdError } from '../errors.js';
import { LennardJones, Morse, type Model } from '../models/index.js';
import { configError, describeProblems, loadConfigFile, parsePath } from './config-file.js';
import { MODEL_SCHEMA } from './config-schema.js';
import { formatPath, validateSchema, type PathSegment } from './json-schema.js';
import type { ModelConfig } from './run-config.js';

function parseValue(text: string): number | boolean | string {
  if (text === 'true' || text === 'false') return text === 'true';
  const number = Number(text);
  return text.trim() !== '' && Number.isFinite(number) ? number : text;
}

/**
 * Parses `--model type:key=value,…` into a model config and validates it.
 *
 * @example
 * parseModelFlag('lj:epsilon=1,sigma=1,cutoff=2.5'); // { type: 'lj', epsilon: 1, sigma: 1, cutoff: 2.5 }
 */
export function parseModelFlag(spec: string): ModelConfig {
  const colon = spec.indexOf(':');
  const type = colon < 0 ? spec : spec.slice(0, colon);
  const config: Record<string, unknown> = { type };
  const body = colon < 0 ? '' : spec.slice(colon + 1);
  for (const item of body === '' ? [] : body.split(',')) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw configError([`--model: expected key=value, got '${item}' (as in lj:epsilon=1,sigma=1,cutoff=2.5)`]);
    config[item.slice(0, eq).trim()] = parseValue(item.slice(eq + 1).trim());
  }
  const problems = validateSchema(config, MODEL_SCHEMA);
  if (problems.length > 0) throw configError(describeProblems(problems, () => '--model'));
  return config as ModelConfig;
}

/** Loads and validates a `--model-config` file (YAML or JSON). */
export function loadModelFile(file: string): { config: ModelConfig; locate: (path: readonly PathSegment[]) => string } {
  const { value, locate } = loadConfigFile<ModelConfig>(file, MODEL_SCHEMA);
  return { config: value, locate };
}

/**
 * Builds the model; errors the constructor raises (switchOn beyond a cutoff, an unknown species in
 * `pairs`) come back as INVALID_CONFIG at `where` + the field they name.
 */
export function buildModel(config: ModelConfig, where: readonly PathSegment[], locate: (path: readonly PathSegment[]) => string): Model {
  const { type, ...options } = config;
  try {
    return type === 'lj' ? new LennardJones(options) : new Morse(options);
  } catch (error) {
    if (!isHookmdError(error)) throw error;
    const field = typeof error.details.field === 'string' ? error.details.field : undefined;
    const path = field === undefined || field === 'options' ? [...where] : [...where, ...parsePath(field)];
    throw configError([`${locate(path)}: ${formatPath(path) || '(model)'}: ${error.message}`], { cause: error.code });
  }
}
