// `hookmd relax <input>`: relax every structure of an extxyz file. Structures stream through a batch that
// is refilled as they converge, and leave for the outputs in input order.
import { Option, type Command } from 'commander';

import type { System } from '../data/index.js';
import type { StreamSink } from '../dynamics/index.js';
import { ZarrSink, type Sink } from '../io/index.js';
import { configError } from './config-file.js';
import { buildPipeline } from './engines.js';
import { Interrupt } from './interrupt.js';
import { logHook } from './log.js';
import { addCommonOptions, addModelOptions, applyRuntime, modelSpec, parse, type CommonOptions, type ModelOptions } from './options.js';
import { checkInputFile, checkOutputPath, opening, openOutputSink } from './paths.js';
import type { StageConfig } from './run-config.js';
import { STREAM_DEFAULTS } from './run-config.js';
import { runStreamJob } from './stream-job.js';
import { printSummary } from './summary.js';
import { viewHook } from './view.js';

/** Flags of `hookmd relax`. */
export interface RelaxOptions extends CommonOptions, ModelOptions {
  fmax: number;
  optimizer: 'fire' | 'fire2' | 'gd' | 'lbfgs';
  stepSize?: number;
  cell?: boolean;
  pressure?: number;
  hydrostatic?: boolean;
  smax?: number;
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

/** Runs `hookmd relax`; resolves to the exit code. */
export async function relax(input: string, options: RelaxOptions): Promise<number> {
  const interrupt = new Interrupt();
  let live: Awaited<ReturnType<typeof viewHook>>;
  try {
    checkInputFile(input, 'relax: <input>');
    if (options.stepSize !== undefined && options.optimizer !== 'gd') throw configError(['--step-size: only with --optimizer gd']);
    for (const [flag, given] of [['--pressure', options.pressure], ['--hydrostatic', options.hydrostatic], ['--smax', options.smax]] as const) {
      if (given !== undefined && options.cell !== true) throw configError([`${flag}: only with --cell`]);
    }
    const model = modelSpec(options);
    checkOutputPath(options.out, '--out');
    if (options.zarr !== undefined) checkOutputPath(options.zarr, '--zarr');
    if (options.log !== undefined) checkOutputPath(options.log, '--log');
    applyRuntime(options);
    const cell = options.cell === true
      ? { cell: { pressure: options.pressure ?? 0, hydrostaticStrain: options.hydrostatic === true, ...(options.smax === undefined ? {} : { stress: options.smax }) } }
      : {};
    const stage: StageConfig = { type: options.optimizer, fmax: options.fmax, ...(options.stepSize === undefined ? {} : { stepSize: options.stepSize }), ...cell };
    const engine = buildPipeline([stage], model(), options.units, () => 'relax');
    if (options.log !== undefined) engine.register(logHook(options.log, options.logEvery, options.cell === true));
    live = await viewHook(options.view, options.logEvery);
    if (live !== undefined) engine.register(live);
    const zarr = options.zarr;
    const out = openOutputSink(options.out, { units: options.units }, '--out');
    const files = [out.sink, ...(zarr === undefined ? [] : [opening('--zarr', () => new ZarrSink(zarr))])];
    const sinks = files.map(withStress);
    const outputs = [options.out, options.zarr, options.log].filter((path): path is string => path !== undefined);
    const summary = await runStreamJob({
      command: 'relax',
      engine,
      input,
      units: options.units,
      sinks,
      staged: out.staged === undefined ? [] : [out.staged],
      outputs,
      stream: { ...STREAM_DEFAULTS, maxAtoms: options.maxAtoms, refillEvery: options.refillEvery, maxSteps: options.maxSteps },
      quiet: options.quiet,
      progressInterval: options.progressInterval,
    }, interrupt);
    printSummary(summary, options);
    return interrupt.exitCode ?? 0;
  } finally {
    live?.close();
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
    .addOption(new Option('--optimizer <name>', 'optimizer').choices(['fire', 'fire2', 'gd', 'lbfgs']).default('fire'))
    .option('--step-size <s>', 'gd: x += s·F (default 0.01 Å²/eV; lj units need a smaller one, e.g. 0.002)', parse.positive)
    .option('--cell', 'relax each cell too (ASE FrechetCellFilter); converged when fmax and the stress both hold')
    .option('--pressure <P>', 'with --cell: target pressure (eV/Å³ in metal units; 1 GPa = 0.0062415 eV/Å³)', parse.finite)
    .option('--hydrostatic', 'with --cell: only scale each cell, keeping its shape')
    .option('--smax <s>', 'with --cell: converged when every |σ_ij + P·δ_ij| ≤ s (default fmax/100 per length unit)', parse.positive)
    .option('--max-steps <n>', 'a structure leaves, unconverged, after n steps', parse.count, 1000)
    .option('-o, --out <file>', 'relaxed structures (extxyz), in input order', 'relaxed.extxyz')
    .option('--zarr <dir>', 'also write them to a Zarr v3 store (a new directory)')
    .option('--log <file>', 'per-system log: csv, or jsonl when the name ends in .jsonl')
    .option('--log-every <n>', 'log every n steps', parse.count, 10)
    .option('--max-atoms <n>', 'atom budget of the batch', parse.count, STREAM_DEFAULTS.maxAtoms)
    .option('--refill-every <n>', 'steps between refills of the batch', parse.count, STREAM_DEFAULTS.refillEvery);
  addModelOptions(command);
  addCommonOptions(command);
  command.action(async (input: string, options: RelaxOptions) => done(await relax(input, options)));
}
