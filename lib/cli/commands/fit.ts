// `hookmd fit <config>`: fits a pair potential or a network on SNAP descriptors to reference data with the
// Trainer (Trainer.fromConfig: the model, data, optimizer, scheduler and hooks by name), with progress per
// epoch and safe Ctrl-C, or a SNAP by least squares (fitSnap, `model: { type: snap }`), and writes the fitted
// model: a pair model in the --model-config format, a SNAP or a network as the LAMMPS files that
// `--model snap:` / `mliap:` and LAMMPS itself read.

import { basename, dirname, extname, join } from 'node:path';

import type { Command } from 'commander';

import { writeFileAtomic } from '../../io/atomic-write.js';
import { MODEL_KINDS, type MLIAP } from '../../models/index.js';
import { HookmdAbortError } from '../../errors.js';
import type { RunMetadata, TrainingHistory, TrainingHookContext } from '../../training/index.js';
import { Interrupt } from '../interrupt.js';
import { addCommonOptions, applyRuntime, type CommonOptions } from '../options.js';
import { checkInputFile, checkOutputPath } from '../paths.js';
import { fitSnapCommand, lammpsPrefix } from '../fit-snap.js';
import { createProgress, progressMode } from '../progress.js';
import { viewHook } from './view.js';

/** Flags of `hookmd fit`. */
export interface FitCommandOptions extends CommonOptions {
  resume?: string;
  out?: string;
}

/** What `hookmd fit --json` prints. */
export interface FitSummary {
  command: 'fit';
  config: string;
  /** Epochs completed (those of a resumed run included). */
  epochs: number;
  /** Optimizer steps taken. */
  steps: number;
  seconds: number;
  /** The last epoch's metrics (train_loss, val_loss, RMSEs, …). */
  metrics: Record<string, number>;
  /** The fitted parameters: numbers for a pair model, each tensor's values for a network. */
  parameters: Record<string, number | number[]>;
  /** Why a hook ended the run early (EarlyStoppingHook, …), or null. */
  stopped: string | null;
  /** True when --resume named a checkpoint that had already completed the config's epochs. */
  nothingToDo: boolean;
  interrupted: string | null;
  outputs: string[];
  /** The run metadata: run id, git commit, config hash, hooks. */
  metadata: RunMetadata;
  /** Where the metadata was written (next to --out), or null without --out. */
  metadataFile: string | null;
}

function describe(summary: FitSummary, resume: string | undefined, requested: number): string {
  if (summary.nothingToDo) {
    return `fit: nothing left to do: ${resume} has completed ${summary.epochs} epochs and the config asks for ${requested}; raise epochs in the config to train on`;
  }
  const stop = summary.interrupted !== null ? `interrupted by ${summary.interrupted}; ` : summary.stopped !== null ? `stopped early (${summary.stopped}); ` : '';
  const values = Object.values(summary.parameters);
  const parameters = values.every((value) => typeof value === 'number')
    ? Object.entries(summary.parameters).map(([name, value]) => `${name} = ${(value as number).toPrecision(6)}`).join(', ')
    : `${values.reduce<number>((sum, value) => sum + (typeof value === 'number' ? 1 : value.length), 0)} weights in ${values.length} tensors`;
  const loss = summary.metrics.val_loss ?? summary.metrics.train_loss;
  const written = summary.outputs.length === 0 ? '' : ` → ${summary.outputs.join(', ')}`;
  const metadata = summary.metadataFile === null ? '' : `\nfit: run metadata → ${summary.metadataFile}`;
  return `fit: ${stop}${summary.epochs} epochs, ${summary.steps} steps in ${summary.seconds.toFixed(2)} s, loss ${loss?.toPrecision(4) ?? '?'}; ${parameters}${written}${metadata}`;
}

/** Runs `hookmd fit`; resolves to the exit code. */
export async function fit(file: string, options: FitCommandOptions): Promise<number> {
  const interrupt = new Interrupt();
  let live: Awaited<ReturnType<typeof viewHook>>;
  try {
    checkInputFile(file, 'fit: <config>');
    if (options.resume !== undefined) checkInputFile(options.resume, '--resume');
    if (options.out !== undefined) checkOutputPath(options.out, '--out');
    applyRuntime(options);
    // Loaded here, not at startup: importing lib/training registers the training hook types, which the
    // other commands' configs should neither see nor list.
    const { Trainer, TrainingStage, configModelKind, consoleMetadata, readCheckpoint } = await import('../../training/index.js');
    if (configModelKind(file) === 'snap') return await fitSnapCommand(file, options);
    const trainer = Trainer.fromConfig(file);
    // A checkpoint that already holds every epoch: the fit restores it and trains no further.
    const nothingToDo = options.resume !== undefined && readCheckpoint(options.resume).epoch >= trainer.epochs;
    const mode = progressMode(options.quiet);
    const progress = createProgress({ mode, label: 'fit', unit: 'epochs', total: trainer.config.epochs, interval: options.progressInterval });
    // The command's own hooks are built-ins: the config's hooks run before them at every stage.
    trainer.register({
      stage: TrainingStage.BEFORE_TRAIN,
      frequency: 1,
      tier: 'builtin',
      name: 'hookmd fit: metadata',
      call: (ctx: TrainingHookContext) => {
        if (options.quiet !== true && options.json !== true) progress.note(`fit: ${consoleMetadata(ctx.metadata)}`);
      },
    });
    trainer.register({
      stage: TrainingStage.AFTER_EPOCH,
      frequency: 1,
      tier: 'builtin',
      name: 'hookmd fit: progress',
      call: (ctx: TrainingHookContext) => {
        const loss = ctx.metrics.val_loss ?? ctx.metrics.train_loss;
        progress.update({ done: ctx.epoch + 1, step: ctx.stepCount, detail: `loss ${loss?.toPrecision(4) ?? '?'}` });
      },
    });
    live = await viewHook(options.view, 1);
    if (live !== undefined) trainer.register(live);
    const onSignal = (): void => progress.note('\nhookmd fit: stopping after the current step; checkpoint hooks save it (Ctrl-C again to quit at once)');
    interrupt.signal.addEventListener('abort', onSignal);
    const started = performance.now();
    // Ctrl-C or SIGTERM (a preempted job) aborts the fit after the optimizer step in progress: every
    // CheckpointHook saves the state, the hooks close, and the fit rejects; `--resume` then continues it.
    let history: TrainingHistory;
    try {
      history = await trainer.fit({ signal: interrupt.signal, ...(options.resume === undefined ? {} : { resumeFrom: options.resume }) });
    } catch (error) {
      if (!(error instanceof HookmdAbortError && interrupt.received !== undefined)) throw error;
      history = { epochs: trainer.history, stepCount: trainer.stepCount, parameters: trainer.parameters, stopped: undefined, metadata: trainer.metadata as RunMetadata };
    } finally {
      interrupt.signal.removeEventListener('abort', onSignal);
      progress.stop();
    }
    const outputs: string[] = [];
    let metadataFile: string | null = null;
    if (options.out !== undefined && trainer.config.model.type === 'mliap-network') {
      // A network goes out as LAMMPS's ML-IAP files: <prefix>.mliap, .mliap.model, .mliap.descriptor.
      const paths = (trainer.toModel() as MLIAP).save(lammpsPrefix(options.out, '.mliap'));
      outputs.push(paths.include, paths.model, paths.descriptor);
    } else if (options.out !== undefined) {
      const { type, ...parameters } = trainer.checkpoint().model;
      // The command line's name for the kind, so --model, --model-config, run and fit configs all take the file.
      const text = `${JSON.stringify({ type: MODEL_KINDS.resolve(type), ...parameters }, null, 2)}\n`;
      await writeFileAtomic(options.out, (write) => write(text), 'fit');
      // The metadata goes next to the model it describes: fitted.json → fitted.metadata.json.
      const metadataPath = join(dirname(options.out), `${basename(options.out, extname(options.out))}.metadata.json`);
      const metadataText = `${JSON.stringify(history.metadata, null, 2)}\n`;
      await writeFileAtomic(metadataPath, (write) => write(metadataText), 'fit');
      outputs.push(options.out);
      metadataFile = metadataPath;
    }
    const last = history.epochs.at(-1);
    const summary: FitSummary = {
      command: 'fit',
      config: file,
      epochs: history.epochs.length,
      steps: history.stepCount,
      seconds: (performance.now() - started) / 1000,
      metrics: { ...(last?.metrics ?? {}) },
      // The command fits pair models only (config.ts builds them with modelFromSpec): one number per parameter.
      parameters: { ...(history.parameters as Record<string, number>) },
      stopped: interrupt.received === undefined && history.stopped !== undefined ? history.stopped.reason : null,
      nothingToDo,
      interrupted: interrupt.received ?? null,
      outputs,
      metadata: history.metadata,
      metadataFile,
    };
    if (options.json === true) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    else if (options.quiet !== true) process.stdout.write(`${describe(summary, options.resume, trainer.epochs)}\n`);
    return interrupt.exitCode ?? 0;
  } finally {
    live?.close();
    interrupt.dispose();
  }
}

/** Adds `fit` to the program; the exit code goes to `done`. */
export function registerFit(program: Command, done: (code: number) => void): void {
  const command = program
    .command('fit')
    .description('fit a pair potential or a network on SNAP descriptors (a Trainer config: model, data, optimizer, hooks), or a SNAP by least squares (docs/training.md)')
    .argument('<config>', 'trainer config (.yaml, .yml or .json); data paths are relative to it')
    .option('--resume <checkpoint>', 'continue from a checkpoint that CheckpointHook wrote')
    .option('-o, --out <file>', 'the fitted model: JSON for --model-config (pair models), or the LAMMPS files of this prefix (snap: .snap/.snapcoeff/.snapparam; mliap: .mliap/.mliap.model/.mliap.descriptor)');
  addCommonOptions(command);
  command.action(async (file: string, options: FitCommandOptions) => done(await fit(file, options)));
}
