// `hookmd run <config>`: the whole pipeline from a YAML or JSON file (docs/config.schema.json): the model,
// the stages (fused when several), hooks by registered name, sinks, and how the input stream is batched.
import { dirname, relative, resolve } from 'node:path';

import type { Command } from 'commander';

import type { Model } from '../../models/index.js';
import { loadConfigFile } from '../config-file.js';
import { CONFIG_SCHEMA } from '../config-schema.js';
import { engineConstraints } from '../constraints.js';
import { buildPipeline } from '../engines.js';
import { loadPlugins, registerConfigHooks } from '../hooks.js';
import { Interrupt } from '../interrupt.js';
import { buildModel, closeModel, resolveModelEntry } from '../model.js';
import { addCommonOptions, addStrictOption, applyRuntime, type CommonOptions } from '../options.js';
import { lockResumedOutputs } from '../output-lock.js';
import { checkInputFile, checkOutputPath, openSinks } from '../paths.js';
import { STREAM_DEFAULTS, type RunConfig, type SinkConfig } from '../run-config.js';
import { addScaleOutOptions, checkResumable, openAppendSink, selectStreamInput, withoutInterrupted, type ScaleOutOptions } from '../scale-out.js';
import { STAGE_TYPES } from '../stage-types.js';
import { runStreamJob } from '../stream-job.js';
import { finalExitCode, printSummary } from '../summary.js';
import { viewHook } from './view.js';

/** Flags of `hookmd run`. */
export interface RunOptions extends CommonOptions, ScaleOutOptions {}

/** What a queue chunk replaces in a config: its input (a chunk of the whole) and its one output. */
export interface RunOverrides {
  readonly input: string;
  readonly sinks: readonly SinkConfig[];
}

/**
 * Runs `hookmd run`; resolves to the exit code. `interrupt` stops it (default: Ctrl-C and SIGTERM);
 * `overrides` replace the config's input and sinks (paths relative to the working directory).
 */
export async function run(file: string, options: RunOptions, interrupt: Interrupt = new Interrupt(), overrides?: RunOverrides): Promise<number> {
  let live: Awaited<ReturnType<typeof viewHook>>;
  // The model, once built: closed at the end (an i-PI server sends its clients EXIT).
  let built: Model | undefined;
  // The locks of resumed outputs, once taken.
  let release: (() => void) | undefined;
  try {
    // What a config reads lives next to it (as a Trainer config's data does); what the run writes goes to
    // the working directory, like the outputs named on a command line.
    const baseDir = dirname(resolve(file));
    const loaded = loadConfigFile<RunConfig>(file, CONFIG_SCHEMA, (value) => canonicalNames(value, baseDir));
    const { locate } = loaded;
    const config = overrides === undefined ? loaded.value : { ...loaded.value, sinks: overrides.sinks };
    const units = config.units ?? 'metal';
    const input = overrides?.input ?? relative(process.cwd(), resolve(baseDir, config.input));
    checkInputFile(input, `${locate(['input'])}: input`, overrides?.input ?? config.input);
    const hookEntries = config.hooks ?? [];
    // Files the built-in hooks will write: their directories must exist before the run starts.
    const hookFiles = hookEntries.flatMap((entry, i) => (entry.enabled !== false && typeof entry.path === 'string' ? [[entry.path, i] as const] : []));
    for (const [path, i] of hookFiles) checkOutputPath(path, `${locate(['hooks', i, 'path'])}: hooks[${i}].path`);
    const sinkPaths = (config.sinks ?? []).map((sink, i) => [`${locate(['sinks', i, 'path'])}: sinks[${i}].path`, sink.path] as const);
    checkResumable(options, sinkPaths);
    release = lockResumedOutputs(options.resume, sinkPaths);
    const note = (message: string): void => {
      if (options.quiet !== true) process.stderr.write(`run: ${message}\n`);
    };
    const selection = await selectStreamInput(input, options, sinkPaths, note);
    await loadPlugins(config.plugins ?? [], baseDir, locate);
    applyRuntime({ backend: options.backend ?? config.backend, threads: options.threads ?? config.threads });
    built = await buildModel(config.model, ['model'], locate, baseDir);
    const engine = buildPipeline(config.stages, built, units, locate, engineConstraints(config.constraints));
    registerConfigHooks(engine, hookEntries, units, locate, baseDir);
    live = await viewHook(options.view, 10);
    if (live !== undefined) engine.register(live);
    // A resumed run appends to its sinks frame by frame; any other writes temporaries that replace them at the end.
    const outputs = options.resume === true
      ? sinkPaths.map(([label, path]) => {
        checkOutputPath(path, label);
        return { sink: openAppendSink(path, units, label), staged: undefined };
      })
      : openSinks(config.sinks ?? [], units, locate);
    // Resumed output is written as systems finish, unless the config asks for input order.
    const stream = { ...STREAM_DEFAULTS, restoreOrder: options.resume !== true, ...config.stream };
    const summary = await runStreamJob({
      command: 'run',
      engine,
      input,
      units,
      sinks: outputs.map((output) => {
        const sink = selection === undefined ? output.sink : selection.relabel(output.sink);
        return options.resume === true ? withoutInterrupted(sink, interrupt.signal, stream.maxSteps) : sink;
      }),
      staged: outputs.flatMap((output) => (output.staged === undefined ? [] : [output.staged])),
      outputs: [...(config.sinks ?? []).map((sink) => sink.path), ...hookFiles.map(([path]) => path)],
      stream,
      selection,
      ...(config.constraints?.fixAtoms === undefined ? {} : { fixAtoms: { indices: config.constraints.fixAtoms, where: `${locate(['constraints', 'fixAtoms'])}: constraints.fixAtoms` } }),
      targetTemperature: thermostatTarget(config.stages),
      quiet: options.quiet,
      progressInterval: options.progressInterval,
    }, interrupt);
    printSummary(summary, options);
    return finalExitCode(summary, interrupt.exitCode, options.strict);
  } finally {
    live?.close();
    await closeModel(built);
    release?.();
    interrupt.dispose();
  }
}

/** The highest temperature a stage of the pipeline thermostats to, if any stage does. */
function thermostatTarget(stages: RunConfig['stages']): number | undefined {
  const targets = stages.flatMap((stage) => (typeof stage.temperature === 'number' ? [stage.temperature] : []));
  return targets.length === 0 ? undefined : Math.max(...targets);
}

/**
 * Model and stage type names in any of their spellings (`LennardJones`, `FIRE`) become the canonical ones
 * the schema lists, and `model: fitted.json` becomes that model file's content.
 */
function canonicalNames(config: unknown, baseDir: string): void {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return;
  const entries = config as Record<string, unknown>;
  if ('model' in entries) entries.model = resolveModelEntry(entries.model, baseDir);
  if (!Array.isArray(entries.stages)) return;
  for (const stage of entries.stages as unknown[]) {
    if (stage !== null && typeof stage === 'object') {
      const entry = stage as Record<string, unknown>;
      entry.type = STAGE_TYPES.resolve(entry.type) ?? entry.type;
    }
  }
}

/** Adds `run` to the program; the exit code goes to `done`. */
export function registerRun(program: Command, done: (code: number) => void): void {
  const command = program
    .command('run')
    .description('run a pipeline from a YAML or JSON config (schema: hookmd schema, docs/config.schema.json)')
    .argument('<config>', 'config file (.yaml, .yml or .json)');
  addScaleOutOptions(command);
  addCommonOptions(command);
  addStrictOption(command);
  command.action(async (file: string, options: RunOptions) => done(await run(file, options)));
}
