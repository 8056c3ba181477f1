// Flags shared by the commands, their parsers (a bad value is a usage error, exit code 2, naming the
// flag), and the runtime settings every command applies before the native addon loads.
import { dirname, resolve } from 'node:path';

import { InvalidArgumentError, Option, type Command } from 'commander';

import { configureNative, setThreads, type BackendRequest } from '../native/index.js';
import { configError } from './config-file.js';
import { buildModel, isModelFile, loadModelFile, parseModelFlag } from './model.js';
import { checkThreads, MAX_THREADS } from './threads.js';
import type { Model } from '../models/index.js';
import type { UnitsName } from './run-config.js';

function numberParser(test: (value: number) => boolean, expected: string): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (text.trim() === '' || !test(value)) throw new InvalidArgumentError(`must be ${expected}.`);
    return value;
  };
}

/** Flag value parsers: each rejects with the rule the value broke. */
export const parse: {
  readonly positive: (text: string) => number;
  readonly nonNegative: (text: string) => number;
  readonly count: (text: string) => number;
  readonly nonNegativeInteger: (text: string) => number;
  readonly threads: (text: string) => number;
} = {
  positive: numberParser((v) => Number.isFinite(v) && v > 0, 'a number > 0'),
  nonNegative: numberParser((v) => Number.isFinite(v) && v >= 0, 'a number ≥ 0'),
  count: numberParser((v) => Number.isSafeInteger(v) && v >= 1, 'an integer ≥ 1'),
  nonNegativeInteger: numberParser((v) => Number.isSafeInteger(v) && v >= 0, 'an integer ≥ 0'),
  threads: numberParser((v) => Number.isSafeInteger(v) && v >= 0 && v <= MAX_THREADS, `an integer from 0 to ${MAX_THREADS}`),
};

/** Options every running command takes. */
export interface CommonOptions {
  backend?: BackendRequest;
  threads?: number;
  quiet?: boolean;
  json?: boolean;
  progressInterval: number;
  /** --view [port]: serve the live view page while the run goes. */
  view?: boolean | number;
  /** --strict: a flagged run (absurd temperature, energy drift, empty input) exits 3. */
  strict?: boolean;
}

/** Options of the commands that take a model on the command line. */
export interface ModelOptions {
  model?: string;
  modelConfig?: string;
  units: UnitsName;
}

/** Adds --backend and --threads. */
export function addRuntimeOptions(command: Command): Command {
  return command
    .addOption(new Option('--backend <name>', 'native backend').choices(['auto', 'cpu', 'mirror', 'cuda']))
    .option('--threads <n>', `CPU threads (0: the CPUs this process may use; at most ${MAX_THREADS})`, parse.threads);
}

/** Adds --backend, --threads, --quiet, --json and --progress-interval: the options of a run. */
export function addCommonOptions(command: Command): Command {
  return addRuntimeOptions(command)
    .option('-q, --quiet', 'no progress and no summary (errors still go to stderr)')
    .option('--json', 'print a JSON summary on stdout')
    .option('--progress-interval <seconds>', 'seconds between progress lines when stderr is not a terminal', parse.nonNegative, 5)
    .option('--view [port]', 'serve a live view of the run on 127.0.0.1 (a free port unless given)', parse.nonNegativeInteger);
}

/** Adds --strict to the commands whose runs are checked when they end (relax, md, run). */
export function addStrictOption(command: Command): Command {
  return command.option('--strict', 'exit 3 when the run is flagged: a temperature over 100× its start or target, an NVE energy drift over 1% of the potential energy, an empty input');
}

/** Adds --model, --model-config and --units. */
export function addModelOptions(command: Command): Command {
  return command
    .option('--model <spec>', 'force field, e.g. lj:epsilon=0.0104,sigma=3.4,cutoff=8.5, morse:D=…,alpha=…,r0=…,cutoff=…, eam:Cu_u3.eam, tersoff:Si.tersoff, sw:Si.sw, snap:Ni_Zuo_JPCA2020.snap, mliap:Ta06A.nn.mliap, onnx:model.onnx,cutoff=5, ipi:unix:NAME,clients=4, or a model file (fitted.json); type names in any case (LennardJones, EAM)')
    .option('--model-config <file>', 'force field from a YAML or JSON file ({ type: lj | morse | eam | tersoff | sw | onnx | ipi, ...parameters }), e.g. what hookmd fit --out wrote')
    .addOption(new Option('--units <units>', 'unit system of input, parameters and outputs').choices(['metal', 'lj']).default('metal'));
}

/** Checks --model / --model-config (exactly one) and returns the builder of the validated model. */
export function modelSpec(options: ModelOptions): () => Promise<Model> {
  if ((options.model === undefined) === (options.modelConfig === undefined)) {
    throw configError(['give a force field with exactly one of --model or --model-config']);
  }
  if (options.model !== undefined && !isModelFile(options.model)) {
    const config = parseModelFlag(options.model);
    return () => buildModel(config, [], () => '--model');
  }
  // A model file, named by --model-config or by --model (as `hookmd fit --out` wrote it).
  const file = (options.modelConfig ?? options.model) as string;
  const { config, locate } = loadModelFile(file);
  return () => buildModel(config, [], locate, dirname(resolve(file)));
}

/**
 * Chooses the backend and the thread count; must run before anything touches the native addon.
 *
 * @example
 * applyRuntime({ backend: 'cpu', threads: 2 });
 */
export function applyRuntime(settings: { backend?: BackendRequest; threads?: number }): void {
  if (settings.backend !== undefined) configureNative({ backend: settings.backend });
  if (settings.threads !== undefined) setThreads(checkThreads(settings.threads));
}
