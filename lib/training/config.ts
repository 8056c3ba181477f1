// Config-driven trainers: a JSON or YAML document (or the same object) that names the model, the data,
// the optimizer, the scheduler and the hooks, all by type name. Hooks go through the hook kernel's
// name → factory table (registerHookType), so `enabled: false` keeps a hook listed but off.
import { dirname, extname, resolve } from 'node:path';

import { parse as parseYaml } from 'yaml';

import type { System } from '../data/index.js';
import { HookmdError, HookmdTypeError } from '../errors.js';
import type { HookConfigEntry } from '../hooks/index.js';
import { readExtxyz, readMlearn } from '../io/index.js';
import { MLIAPNetwork, MODEL_KINDS, type MLIAPNetworkOptions, type PairModel } from '../models/index.js';
import type { FitSnapOptions } from './fit-snap.js';
import type { LossWeights } from './loss-weights.js';
import { readRegularFile } from '../regular-file.js';
import { MAX_YAML_ALIASES } from '../yaml-limits.js';
import { checkKeys } from './options.js';
import { modelFromSpec, type PairModelSpec } from './parameters.js';
import type { TrainerOptions } from './trainer-options.js';

/**
 * A trainer described as data. Data sets are extxyz paths or mlearn JSON files (`.json`: readMlearn),
 * relative to the config file, or systems. The model is a pair model, or a network on SNAP descriptors:
 * `{ type: mliap, descriptor: { file, elements }, layers, activation, seed }` (MLIAP.network's options).
 *
 * @example
 * const config: TrainerConfigSource = {
 *   model: { type: 'LennardJones', epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true },
 *   train: 'data/train.xyz', validation: 'data/validation.xyz',
 *   optimizer: { type: 'Adam', lr: 0.02 }, lrScheduler: { type: 'Cosine', tMax: 60 },
 *   epochs: 60, batchSize: 8, seed: 1,
 *   hooks: [{ type: 'EarlyStoppingHook', patience: 10 }, { type: 'CheckpointHook', dirpath: 'ckpt', enabled: false }],
 * };
 */
export interface TrainerConfigSource {
  /** The model to start from, or the path of a model file (`hookmd fit --out`, `--model-config`), relative to the config. */
  model: PairModelSpec | Readonly<Record<string, unknown>> | string;
  train: string | readonly System[];
  validation?: string | readonly System[];
  optimizer?: Readonly<Record<string, unknown>>;
  lrScheduler?: Readonly<Record<string, unknown>> | null;
  epochs: number;
  batchSize?: number;
  lossWeights?: LossWeights;
  seed?: number;
  shuffle?: boolean;
  units?: 'metal' | 'lj';
  validateEvery?: { readonly steps: number };
  hooks?: readonly HookConfigEntry[];
}

const KNOWN = ['model', 'train', 'validation', 'optimizer', 'lrScheduler', 'epochs', 'batchSize', 'lossWeights', 'seed', 'shuffle', 'units', 'validateEvery', 'hooks'];

/**
 * @internal Reads a config (object or file) into Trainer options plus the hook entries for `fromConfig`
 * and the directory that relative paths in it (data, module-path hook types) start from.
 */
export function trainerOptionsFromConfig(source: TrainerConfigSource | string): { options: TrainerOptions; hooks: readonly unknown[]; baseDir: string } {
  const [config, baseDir] = typeof source === 'string' ? [readConfigFile(source), dirname(resolve(source))] : [source, process.cwd()];
  const given = checkKeys('Trainer.fromConfig', config, KNOWN);
  const data = (field: 'train' | 'validation', value: unknown): readonly System[] | undefined => dataSet('Trainer.fromConfig', field, value, baseDir);
  const { hooks = [], model, train, validation, ...rest } = given;
  if (!Array.isArray(hooks)) {
    throw new HookmdTypeError('INVALID_CONFIG', 'Trainer.fromConfig: hooks must be an array of { type, enabled?, ...args }', { field: 'hooks', value: hooks });
  }
  const validationSystems = data('validation', validation);
  const options = {
    ...rest,
    model: trainableFromSpec(typeof model === 'string' ? readConfigFile(resolve(baseDir, model)) : model, baseDir),
    train: data('train', train),
    ...(validationSystems === undefined ? {} : { validation: validationSystems }),
  } as unknown as TrainerOptions;
  return { options, hooks, baseDir };
}

/** A data set of a config: systems as given, or an extxyz or mlearn JSON (`.json`) path relative to the config. */
function dataSet(owner: string, field: string, value: unknown, baseDir: string): readonly System[] | undefined {
  if (value === undefined || Array.isArray(value)) return value as readonly System[] | undefined;
  if (typeof value !== 'string') {
    throw new HookmdTypeError('INVALID_CONFIG', `${owner}: ${field} must be an extxyz or mlearn JSON path, or an array of systems`, { field, value });
  }
  const path = resolve(baseDir, value);
  return extname(path).toLowerCase() === '.json' ? readMlearn(path) : readExtxyz(path);
}

/**
 * A SNAP fit described as data: `model: { type: snap, parameters, elements, ridge? }` (fitSnap's options;
 * a `.snapparam` path relative to the config), `train`, `validation?` and `lossWeights` (fitSnap's
 * weights: energy, forces, stress, groups). Least squares has no epochs, optimizer or hooks.
 *
 * @example
 * snapFitFromConfig({ model: { type: 'snap', parameters: 'Mo.snapparam', elements: { Mo: { radius: 0.5, weight: 1 } } }, train: 'Mo/training.json', lossWeights: { energy: 300, forces: 1 } });
 */
export function snapFitFromConfig(source: Readonly<Record<string, unknown>> | string): { options: FitSnapOptions; validation: readonly System[] | undefined } {
  const owner = 'hookmd fit (snap)';
  const [config, baseDir] = typeof source === 'string' ? [readConfigFile(source), dirname(resolve(source))] : [source, process.cwd()];
  // Least squares is one solve: epochs, an optimizer or hooks are unknown keys here.
  const given = checkKeys(owner, config as Record<string, unknown>, ['model', 'train', 'validation', 'lossWeights']);
  const { type: _type, parameters, ...model } = given.model as Record<string, unknown>;
  const options = {
    ...model,
    parameters: typeof parameters === 'string' ? resolve(baseDir, parameters) : parameters,
    train: dataSet(owner, 'train', given.train, baseDir) ?? [],
    weights: given.lossWeights ?? {},
  } as unknown as FitSnapOptions;
  return { options, validation: dataSet(owner, 'validation', given.validation, baseDir) };
}

/** The model kind a training config names (`snap` for a least-squares fit), read without building anything. */
export function configModelKind(source: string): string | undefined {
  const config = readConfigFile(source) as { model?: unknown } | null;
  const model = config !== null && typeof config === 'object' ? config.model : undefined;
  return model !== null && typeof model === 'object' ? MODEL_KINDS.resolve((model as { type?: unknown }).type) : undefined;
}

/** The model of a config: a network on SNAP descriptors (`type: mliap`, its file relative to the config), else a pair model. */
function trainableFromSpec(spec: unknown, baseDir: string): PairModel | MLIAPNetwork {
  if (spec !== null && typeof spec === 'object' && !Array.isArray(spec)) {
    const { type, ...options } = spec as Record<string, unknown>;
    if (type === 'mliap-network' || MODEL_KINDS.resolve(type) === 'mliap') {
      const descriptor = options.descriptor as { file?: unknown } | undefined;
      const file = descriptor !== null && typeof descriptor === 'object' && typeof descriptor.file === 'string' ? resolve(baseDir, descriptor.file) : descriptor?.file;
      return new MLIAPNetwork({ ...options, descriptor: { ...(descriptor as object), file } } as unknown as MLIAPNetworkOptions);
    }
  }
  return modelFromSpec(spec, 'Trainer.fromConfig');
}

// Largest training or model config read (bytes); a device or FIFO is refused before it is opened.
const MAX_TRAINING_CONFIG_BYTES = 16 * 1024 * 1024;

function readConfigFile(path: string): unknown {
  let text: string;
  try {
    text = readRegularFile(path, MAX_TRAINING_CONFIG_BYTES, 'a training config').toString('utf8');
  } catch (error) {
    throw new HookmdError('CONFIG_NOT_FOUND', `Trainer.fromConfig: cannot read ${path}: ${(error as Error).message}`, { path }, { cause: error });
  }
  try {
    // YAML is a superset of JSON; JSON files still go through JSON.parse for its stricter errors.
    return extname(path).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text, { maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    throw new HookmdError('INVALID_CONFIG', `Trainer.fromConfig: ${path} is not valid ${extname(path) === '.json' ? 'JSON' : 'YAML'}: ${(error as Error).message}`, {
      path,
    }, { cause: error });
  }
}
