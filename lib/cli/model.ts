// Models from the command line (`--model lj:epsilon=1,sigma=1,cutoff=2.5`), from a model file
// (`--model-config`, `--model fitted.json`, or `model: fitted.json` in a run config), or from the `model`
// section of a run config. All are checked against MODEL_SCHEMA first, so a bad parameter is reported
// where the user wrote it. Model type names are resolved through MODEL_KINDS (lib/models/model-kinds.ts),
// so `lj`, `LennardJones` and `LJ` are one kind everywhere, as in Trainer configs.
import { HookmdTypeError, isHookmdError } from '../errors.js';
import { dirname, isAbsolute, relative, resolve } from 'node:path';

import {
  EAM,
  IpiModel,
  MLIAP,
  MODEL_KINDS,
  OnnxModel,
  pairModelNamed,
  SNAP,
  StillingerWeber,
  Tersoff,
  type EAMOptions,
  type IpiModelOptions,
  type MLIAPOptions,
  type Model,
  type OnnxModelOptions,
  type SNAPOptions,
  type StillingerWeberOptions,
  type TersoffOptions,
} from '../models/index.js';
import { configError, describeProblems, loadConfigFile, parsePath } from './config-file.js';
import { MODEL_SCHEMA } from './config-schema.js';
import { formatPath, validateSchema, type PathSegment } from './json-schema.js';
import type { ModelConfig } from './run-config.js';

function parseValue(text: string): number | boolean | string {
  if (text === 'true' || text === 'false') return text === 'true';
  const number = Number(text);
  return text.trim() !== '' && Number.isFinite(number) ? number : text;
}

/** True for a `--model` value that names a model file (`fitted.json`, `model.yaml`) rather than a spec. */
export function isModelFile(spec: string): boolean {
  return !spec.includes(':') && /\.(json|ya?ml)$/i.test(spec);
}

/** Rewrites a model description's `type` to its canonical name (`LennardJones` → `lj`); others stay for the schema to report. */
export function canonicalModel(model: unknown): void {
  if (model === null || typeof model !== 'object' || Array.isArray(model)) return;
  const entry = model as Record<string, unknown>;
  entry.type = MODEL_KINDS.resolve(entry.type) ?? entry.type;
}

// The parameter that a model type's first item names when it has no `key=`: `eam:Cu_u3.eam`,
// `tersoff:Si.tersoff`, `sw:Si.sw`, `snap:Ni_Zuo_JPCA2020.snap`, `mliap:Ta06A.nn.mliap`,
// `onnx:model.onnx,cutoff=5`, `ipi:unix:NAME,clients=4`.
const LEADING_PARAMETER: Readonly<Record<string, string>> = { eam: 'file', tersoff: 'file', sw: 'file', snap: 'file', mliap: 'file', onnx: 'file', ipi: 'address' };
// Keys whose values are paths (or an address): strings even when they look like numbers, and relative to the model file that holds them.
const PATH_KEYS = ['file', 'coefficients', 'parameters', 'model', 'descriptor'];

/**
 * Parses `--model type:key=value,…` into a model config and validates it; `eam:<file>` is short for
 * `eam:file=<file>`, `onnx:<file>,…` for `onnx:file=<file>,…` and `ipi:<address>,…` for
 * `ipi:address=<address>,…`. The type is any spelling of a model kind (`lj`, `LennardJones`, `EAM`, `ONNX`).
 *
 * @example
 * parseModelFlag('lj:epsilon=1,sigma=1,cutoff=2.5'); // { type: 'lj', epsilon: 1, sigma: 1, cutoff: 2.5 }
 * parseModelFlag('EAM:Cu_u3.eam');                   // { type: 'eam', file: 'Cu_u3.eam' }
 * parseModelFlag('ipi:unix:hookmd,clients=4');       // { type: 'ipi', address: 'unix:hookmd', clients: 4 }
 */
export function parseModelFlag(spec: string): ModelConfig {
  const colon = spec.indexOf(':');
  const written = colon < 0 ? spec : spec.slice(0, colon);
  const type = MODEL_KINDS.resolve(written) ?? written;
  const config: Record<string, unknown> = { type };
  const body = colon < 0 ? '' : spec.slice(colon + 1);
  const items = body === '' ? [] : body.split(',');
  const leading = LEADING_PARAMETER[type];
  if (leading !== undefined && items.length > 0 && !items[0].includes('=')) items[0] = `${leading}=${items[0]}`;
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw configError([`--model: expected key=value, got '${item}' (as in lj:epsilon=1,sigma=1,cutoff=2.5)`]);
    const key = item.slice(0, eq).trim();
    // A file name or an address stays a string even when it looks like a number.
    const value = PATH_KEYS.includes(key) || key === 'address' ? item.slice(eq + 1).trim() : parseValue(item.slice(eq + 1).trim());
    // Defined, not assigned: `__proto__=1` must become a key the schema refuses, not a prototype change.
    Object.defineProperty(config, key, { value, enumerable: true, writable: true, configurable: true });
  }
  const problems = validateSchema(config, MODEL_SCHEMA);
  if (problems.length > 0) throw configError(describeProblems(problems, () => '--model'));
  return config as ModelConfig;
}

/** Loads and validates a model file (YAML or JSON: `--model-config`, or what `hookmd fit --out` wrote). */
export function loadModelFile(file: string): { config: ModelConfig; locate: (path: readonly PathSegment[]) => string } {
  const { value, locate } = loadConfigFile<ModelConfig>(file, MODEL_SCHEMA, canonicalModel);
  return { config: value, locate };
}

/**
/**
 * The `model` of a run config as the schema should see it: a path (relative to the config) becomes the
 * model file's content, with the file it names (EAM tables, an ONNX model) made absolute, since it is
 * relative to the model file; a description gets its canonical type.
 */
export function resolveModelEntry(model: unknown, baseDir: string): unknown {
  if (typeof model !== 'string') {
    canonicalModel(model);
    return model;
  }
  const file = resolve(baseDir, model);
  const { config } = loadModelFile(file);
  const entries = Object.entries(config).map(([key, value]) => [key, PATH_KEYS.includes(key) && typeof value === 'string' ? resolve(dirname(file), value) : value]);
  return Object.fromEntries(entries) as ModelConfig;
}

/**
 * Builds the model (an ONNX model loads, an i-PI server starts listening); errors the model raises
 * (switchOn beyond a cutoff, an unknown species in `pairs`, a malformed EAM file, an ONNX model whose inputs
 * do not fit the convention) come back as INVALID_CONFIG at `where` + the field they name. A model file's
 * relative path is taken from `baseDir` (the config file's folder; the working directory by default).
 */
export async function buildModel(
  config: ModelConfig,
  where: readonly PathSegment[],
  locate: (path: readonly PathSegment[]) => string,
  baseDir: string = process.cwd(),
): Promise<Model> {
  const { type, ...options } = config;
  const fileOf = (file: unknown): string => (isAbsolute(String(file)) ? String(file) : relative(process.cwd(), resolve(baseDir, String(file))) || String(file));
  try {
    if (type === 'eam') return new EAM({ ...(options as Omit<EAMOptions, 'file'>), file: fileOf(options.file) });
    if (type === 'tersoff') return new Tersoff({ ...(options as Omit<TersoffOptions, 'file'>), file: fileOf(options.file) });
    if (type === 'sw') return new StillingerWeber({ ...(options as Omit<StillingerWeberOptions, 'file'>), file: fileOf(options.file) });
    if (type === 'snap' || type === 'mliap') return mlModel(type, options, fileOf);
    if (type === 'onnx') {
      const { file, ...rest } = options;
      return await OnnxModel.load(fileOf(file), rest as unknown as OnnxModelOptions);
    }
    if (type === 'ipi') return await IpiModel.listen(options as unknown as IpiModelOptions);
    const pair = pairModelNamed(type);
    if (pair === undefined) throw new Error(`buildModel: no model of kind ${type}`);
    return pair.create(options);
  } catch (error) {
    if (!isHookmdError(error)) throw error;
    const field = typeof error.details.field === 'string' ? error.details.field : undefined;
    const path = field === undefined || field === 'options' ? [...where] : [...where, ...parsePath(field === 'path' ? 'file' : field)];
    throw configError([`${locate(path)}: ${formatPath(path) || '(model)'}: ${error.message}`], { cause: error.code });
  }
}

/** SNAP or MLIAP: from a LAMMPS include file (`file`, with only a skin beside it), or from its files named one by one. */
function mlModel(type: 'snap' | 'mliap', options: Record<string, unknown>, fileOf: (file: unknown) => string): Model {
  const paths = Object.fromEntries(Object.entries(options).map(([key, value]) => [key, PATH_KEYS.includes(key) ? fileOf(value) : value]));
  const { file, ...rest } = paths;
  if (file !== undefined) {
    const extra = Object.keys(rest).filter((key) => key !== 'skin');
    if (extra.length > 0) throw new HookmdTypeError('INVALID_OPTIONS', `${extra.join(', ')}: an include file (file) sets these itself; give only a skin beside it`, { field: extra[0] });
    const skin = rest.skin as number | undefined;
    return type === 'snap' ? SNAP.fromLammps(file as string, skin === undefined ? {} : { skin }) : MLIAP.fromLammps(file as string, skin === undefined ? {} : { skin });
  }
  return type === 'snap' ? new SNAP(rest as unknown as SNAPOptions) : new MLIAP(rest as unknown as MLIAPOptions);
}

/** Releases what a model holds open: an i-PI server (its clients get EXIT) or an ONNX session. */
export async function closeModel(model: Model | undefined): Promise<void> {
  const closable = model as (Model & { close?: () => Promise<void> }) | undefined;
  if (typeof closable?.close === 'function') await closable.close();
}
