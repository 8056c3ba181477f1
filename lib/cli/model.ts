// Models from the command line (`--model lj:epsilon=1,sigma=1,cutoff=2.5`), from a `--model-config`
// file, or from the `model` section of a run config. All three are checked against MODEL_SCHEMA first,
// so a bad parameter is reported where the user wrote it.
import { isHookmdError } from '../errors.js';
import { isAbsolute, relative, resolve } from 'node:path';

import { EAM, LennardJones, Morse, type EAMOptions, type Model } from '../models/index.js';
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
 * Parses `--model type:key=value,…` into a model config and validates it; `eam:<file>` is short for
 * `eam:file=<file>`.
 *
 * @example
 * parseModelFlag('lj:epsilon=1,sigma=1,cutoff=2.5'); // { type: 'lj', epsilon: 1, sigma: 1, cutoff: 2.5 }
 * parseModelFlag('eam:Cu_u3.eam');                   // { type: 'eam', file: 'Cu_u3.eam' }
 */
export function parseModelFlag(spec: string): ModelConfig {
  const colon = spec.indexOf(':');
  const type = colon < 0 ? spec : spec.slice(0, colon);
  const config: Record<string, unknown> = { type };
  const body = colon < 0 ? '' : spec.slice(colon + 1);
  const items = type === 'eam' && body !== '' && !body.includes('=') ? [`file=${body}`] : body === '' ? [] : body.split(',');
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw configError([`--model: expected key=value, got '${item}' (as in lj:epsilon=1,sigma=1,cutoff=2.5)`]);
    const key = item.slice(0, eq).trim();
    // A file name stays a string even when it looks like a number.
    config[key] = key === 'file' ? item.slice(eq + 1).trim() : parseValue(item.slice(eq + 1).trim());
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
 * `pairs`, a malformed EAM file) come back as INVALID_CONFIG at `where` + the field they name. An EAM
 * file's relative path is taken from `baseDir` (the config file's folder; the working directory by default).
 */
export function buildModel(
  config: ModelConfig,
  where: readonly PathSegment[],
  locate: (path: readonly PathSegment[]) => string,
  baseDir: string = process.cwd(),
): Model {
  const { type, ...options } = config;
  try {
    if (type === 'eam') {
      const file = String(options.file);
      const path = isAbsolute(file) ? file : relative(process.cwd(), resolve(baseDir, file)) || file;
      return new EAM({ ...(options as Omit<EAMOptions, 'file'>), file: path });
    }
    return type === 'lj' ? new LennardJones(options) : new Morse(options);
  } catch (error) {
    if (!isHookmdError(error)) throw error;
    const field = typeof error.details.field === 'string' ? error.details.field : undefined;
    const path = field === undefined || field === 'options' ? [...where] : [...where, ...parsePath(field)];
    throw configError([`${locate(path)}: ${formatPath(path) || '(model)'}: ${error.message}`], { cause: error.code });
  }
}
