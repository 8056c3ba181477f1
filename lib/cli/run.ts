// `hookmd run <config>`: the whole pipeline from a YAML or JSON file (docs/config.schema.json): the model,
// the stages (fused when several), hooks by registered name, sinks, and how the input stream is batched.
import { dirname, relative, resolve } from 'node:path';

import type { Command } from 'commander';

import { loadConfigFile } from './config-file.js';
import { CONFIG_SCHEMA } from './config-schema.js';
import { buildPipeline } from './engines.js';
import { loadPlugins, registerConfigHooks } from './hooks.js';
import { Interrupt } from './interrupt.js';
import { buildModel, resolveModelEntry } from './model.js';
import { addCommonOptions, addStrictOption, applyRuntime, type CommonOptions } from './options.js';
import { checkInputFile, checkOutputPath, openSinks } from './paths.js';
import { STREAM_DEFAULTS, type RunConfig } from './run-config.js';
import { STAGE_TYPES } from './stage-types.js';
import { runStreamJob } from './stream-job.js';
import { finalExitCode, printSummary } from './summary.js';
import { viewHook } from './view.js';

/** Runs `hookmd run`; resolves to the exit code. */
export async function run(file: string, options: CommonOptions): Promise<number> {
  const interrupt = new Interrupt();
  let live: Awaited<ReturnType<typeof viewHook>>;
  try {
    // What a config reads lives next to it (as a Trainer config's data does); what the run writes goes to
    // the working directory, like the outputs named on a command line.
    const baseDir = dirname(resolve(file));
    const { value: config, locate } = loadConfigFile<RunConfig>(file, CONFIG_SCHEMA, (value) => canonicalNames(value, baseDir));
    const units = config.units ?? 'metal';
    const input = relative(process.cwd(), resolve(baseDir, config.input));
    checkInputFile(input, `${locate(['input'])}: input`, config.input);
    const hookEntries = config.hooks ?? [];
    // Files the built-in hooks will write: their directories must exist before the run starts.
    const hookFiles = hookEntries.flatMap((entry, i) => (entry.enabled !== false && typeof entry.path === 'string' ? [[entry.path, i] as const] : []));
    for (const [path, i] of hookFiles) checkOutputPath(path, `${locate(['hooks', i, 'path'])}: hooks[${i}].path`);
    await loadPlugins(config.plugins ?? [], baseDir, locate);
    applyRuntime({ backend: options.backend ?? config.backend, threads: options.threads ?? config.threads });
    const model = buildModel(config.model, ['model'], locate, baseDir);
    const engine = buildPipeline(config.stages, model, units, locate);
    registerConfigHooks(engine, hookEntries, units, locate, baseDir);
    live = await viewHook(options.view, 10);
    if (live !== undefined) engine.register(live);
    const outputs = openSinks(config.sinks ?? [], units, locate);
    const summary = await runStreamJob({
      command: 'run',
      engine,
      input,
      units,
      sinks: outputs.map((output) => output.sink),
      staged: outputs.flatMap((output) => (output.staged === undefined ? [] : [output.staged])),
      outputs: [...(config.sinks ?? []).map((sink) => sink.path), ...hookFiles.map(([path]) => path)],
      stream: { ...STREAM_DEFAULTS, ...config.stream },
      targetTemperature: thermostatTarget(config.stages),
      quiet: options.quiet,
      progressInterval: options.progressInterval,
    }, interrupt);
    printSummary(summary, options);
    return finalExitCode(summary, interrupt.exitCode, options.strict);
  } finally {
    live?.close();
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
  addCommonOptions(command);
  addStrictOption(command);
  command.action(async (file: string, options: CommonOptions) => done(await run(file, options)));
}
