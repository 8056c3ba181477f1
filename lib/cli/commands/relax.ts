// `hookmd relax <input>`: relax every structure of an extxyz file. Structures stream through a batch that
// is refilled as they converge, and leave for the outputs in input order.
import { InvalidArgumentError, type Command } from 'commander';

import type { System } from '../../data/index.js';
import type { DynamicsHookContext, StreamSink } from '../../dynamics/index.js';
import { ZarrSink, type Sink } from '../../io/index.js';
import type { Model } from '../../models/index.js';
import { configError } from '../config-file.js';
import { addConstraintOptions, engineConstraints, type ConstraintOptions } from '../constraints.js';
import { buildPipeline } from '../engines.js';
import { Interrupt } from '../interrupt.js';
import { logHook } from '../log.js';
import { closeModel } from '../model.js';
import { addCommonOptions, addStrictOption, addModelOptions, applyRuntime, modelSpec, parse, type CommonOptions, type ModelOptions } from '../options.js';
import { checkInputFile, checkOutputPath, opening, openOutputSink } from '../paths.js';
import { lockResumedOutputs } from '../output-lock.js';
import { keepLogRowsOf } from '../resume.js';
import type { StageConfig } from '../run-config.js';
import { STREAM_DEFAULTS } from '../run-config.js';
import { addScaleOutOptions, checkResumable, openAppendSink, selectStreamInput, withoutInterrupted, type ScaleOutOptions } from '../scale-out.js';
import { runStreamJob } from '../stream-job.js';
import { checkQuantityFlag } from '../quantity.js';
import { MINIMIZER_TYPES, stageTypeParser } from '../stage-types.js';
import { finalExitCode, printSummary } from '../summary.js';
import { viewHook } from './view.js';

/** Flags of `hookmd relax`. */
export interface RelaxOptions extends CommonOptions, ModelOptions, ScaleOutOptions, ConstraintOptions {
  fmax: number;
  optimizer: 'fire' | 'fire2' | 'gd' | 'lbfgs';
  stepSize?: number;
  cell?: boolean;
  /** With its unit: '1GPa', '1bar', '0.0062eV/A^3' (bare in lj units). */
  pressure?: string;
  hydrostatic?: boolean;
  /** With its unit, as --pressure. */
  smax?: string;
  maxSteps: number;
  out: string;
  zarr?: string;
  log?: string;
  logEvery: number;
  maxAtoms: number;
  refillEvery: number;
}

/**
 * The relaxed structures carry their stress, as ASE's optimizers leave it on the calculator. (They carry no
 * velocities: an optimizer leaves the atoms at rest, docs/dynamics.md.)
 */
function withStress(sink: Sink): StreamSink {
  return { write: (systems: readonly System[]) => sink.write(systems), close: () => sink.close(), needs: ['stress'] };
}

/**
 * Runs `hookmd relax`; resolves to the exit code. `interrupt` stops it (default: Ctrl-C and SIGTERM).
 */
export async function relax(input: string, options: RelaxOptions, interrupt: Interrupt = new Interrupt()): Promise<number> {
  let live: Awaited<ReturnType<typeof viewHook>>;
  // The model, once built: closed at the end (an i-PI server sends its clients EXIT).
  let built: Model | undefined;
  // The lock of a resumed --out, once taken.
  let release: (() => void) | undefined;
  try {
    checkInputFile(input, 'relax: <input>');
    if (options.stepSize !== undefined && options.optimizer !== 'gd') throw configError(['--step-size: only with --optimizer gd']);
    for (const [flag, given] of [['--pressure', options.pressure], ['--hydrostatic', options.hydrostatic], ['--smax', options.smax]] as const) {
      if (given !== undefined && options.cell !== true) throw configError([`${flag}: only with --cell`]);
    }
    checkQuantityFlag('--pressure', options.pressure, 'pressure', options.units);
    checkQuantityFlag('--smax', options.smax, 'pressure', options.units);
    const model = modelSpec(options);
    checkOutputPath(options.out, '--out');
    if (options.zarr !== undefined) checkOutputPath(options.zarr, '--zarr');
    if (options.log !== undefined) checkOutputPath(options.log, '--log');
    checkResumable(options, [['--out', options.out], ['--zarr', options.zarr]]);
    release = lockResumedOutputs(options.resume, [['--out', options.out]]);
    const note = (message: string): void => {
      if (options.quiet !== true) process.stderr.write(`relax: ${message}\n`);
    };
    const selection = await selectStreamInput(input, options, [['--out', options.out]], note);
    if (options.log !== undefined && selection !== undefined && options.resume === true) await keepLogRowsOf(options.log, '--log', selection.done);
    applyRuntime(options);
    const cell = options.cell === true
      ? { cell: { pressure: options.pressure, hydrostaticStrain: options.hydrostatic === true, stress: options.smax } }
      : {};
    const stage: StageConfig = { type: options.optimizer, fmax: options.fmax, ...(options.stepSize === undefined ? {} : { stepSize: options.stepSize }), ...cell };
    built = await model();
    const engine = buildPipeline([stage], built, options.units, () => 'relax', engineConstraints(options));
    if (options.log !== undefined) {
      const systemId = selection === undefined ? {} : { systemId: (ctx: DynamicsHookContext, s: number) => selection.inputIndex(ctx.batch.read('systemId')[s]) };
      engine.register(logHook(options.log, options.logEvery, options.cell === true, { append: options.resume === true, ...systemId }));
    }
    live = await viewHook(options.view, options.logEvery);
    if (live !== undefined) engine.register(live);
    const zarr = options.zarr;
    // A resumed run appends frame by frame; any other writes a temporary that replaces --out at the end.
    const out = options.resume === true ? { sink: openAppendSink(options.out, options.units, '--out'), staged: undefined } : openOutputSink(options.out, { units: options.units }, '--out');
    const files = [out.sink, ...(zarr === undefined ? [] : [opening('--zarr', () => new ZarrSink(zarr))])];
    const relabel = (sink: StreamSink): StreamSink => (selection === undefined ? sink : selection.relabel(sink));
    const finished = (sink: StreamSink): StreamSink => (options.resume === true ? withoutInterrupted(sink, interrupt.signal, options.maxSteps) : sink);
    const sinks = files.map((file) => finished(relabel(withStress(file))));
    const outputs = [options.out, options.zarr, options.log].filter((path): path is string => path !== undefined);
    const summary = await runStreamJob({
      command: 'relax',
      engine,
      input,
      units: options.units,
      sinks,
      staged: out.staged === undefined ? [] : [out.staged],
      outputs,
      // Resumed output is written as systems finish, so a kill loses only those in flight (merge restores the order).
      stream: { ...STREAM_DEFAULTS, maxAtoms: options.maxAtoms, refillEvery: options.refillEvery, maxSteps: options.maxSteps, restoreOrder: options.resume !== true },
      selection,
      ...(options.fixAtoms === undefined ? {} : { fixAtoms: { indices: options.fixAtoms, where: '--fix-atoms' } }),
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

/** Adds `relax` to the program; the exit code goes to `done`. */
export function registerRelax(program: Command, done: (code: number) => void): void {
  const command = program
    .command('relax')
    .description('relax every structure of an extxyz file, streamed through a refilled batch')
    .argument('<input>', 'extxyz file of structures, or a POSCAR, CIF or LAMMPS data file')
    .option('--fmax <f>', 'converged when every |F| ≤ f (eV/Å in metal units)', parse.positive, 0.05)
    .option('--optimizer <name>', 'optimizer: fire (FIRE), fire2 (FIRE2), gd (GradientDescent) or lbfgs (LBFGS), any case', stageTypeParser(MINIMIZER_TYPES, (message) => new InvalidArgumentError(message)), 'fire')
    .option('--step-size <s>', 'gd: x += s·F (default 0.01 Å²/eV; lj units need a smaller one, e.g. 0.002)', parse.positive)
    .option('--cell', 'relax each cell too (ASE FrechetCellFilter); converged when fmax and the stress both hold')
    .option('--pressure <P>', 'with --cell: target pressure with its unit: 1GPa, 1bar, 0.0062eV/A^3 (Pa, kPa, MPa, GPa, bar, kbar, atm, eV/A^3; a bare number in lj units)')
    .option('--hydrostatic', 'with --cell: only scale each cell, keeping its shape')
    .option('--smax <s>', 'with --cell: converged when every |σ_ij + P·δ_ij| ≤ s, with its unit as --pressure (default fmax/100 per length unit, in eV/Å³)')
    .option('--max-steps <n>', 'a structure leaves, unconverged, after n steps', parse.count, 1000)
    .option('-o, --out <file>', 'relaxed structures (extxyz, or .traj, .lammpstrj/.dump, .h5md, .zarr by extension), in input order (with --resume: in the order they finish)', 'relaxed.extxyz')
    .option('--zarr <dir>', 'also write them to a Zarr v3 store (a new directory)')
    .option('--log <file>', 'per-system log: csv, or jsonl when the name ends in .jsonl')
    .option('--log-every <n>', 'log every n steps', parse.count, 10)
    .option('--max-atoms <n>', 'atom budget of the batch', parse.count, STREAM_DEFAULTS.maxAtoms)
    .option('--refill-every <n>', 'steps between refills of the batch', parse.count, STREAM_DEFAULTS.refillEvery);
  addConstraintOptions(command);
  addModelOptions(command);
  addScaleOutOptions(command);
  addCommonOptions(command);
  addStrictOption(command);
  command.action(async (input: string, options: RelaxOptions) => done(await relax(input, options)));
}
