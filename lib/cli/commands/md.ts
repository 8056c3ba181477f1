// `hookmd md <input>`: molecular dynamics of every structure of an extxyz file, all in one batch, for an
// exact number of steps, with a trajectory, a log and the final frames.
import { InvalidArgumentError, Option, type Command } from 'commander';

import { Batch, type System } from '../../data/index.js';
import { SnapshotHook } from '../../dynamics/hooks/snapshot-hook.js';
import { FixAtoms, initializeVelocities, ProgressHook, SystemScalars, type ProgressEvent } from '../../dynamics/index.js';
import { withoutRunInfo } from '../../dynamics/run-info.js';
import { HookmdAbortError } from '../../errors.js';
import { ExtxyzSink, openSink, readExtxyz, readH5md, readStructures, structureFormat, writeExtxyz } from '../../io/index.js';
import { sinkFormat } from '../../io/sinks/open-sink.js';
import type { Model } from '../../models/index.js';
import { configError } from '../config-file.js';
import { addConstraintOptions, engineConstraints, withFixedAtoms, type ConstraintOptions } from '../constraints.js';
import { buildStageEngine } from '../engines.js';
import { Interrupt } from '../interrupt.js';
import { logHook } from '../log.js';
import { closeModel } from '../model.js';
import { addCommonOptions, addStrictOption, addModelOptions, applyRuntime, modelSpec, parse, type CommonOptions, type ModelOptions } from '../options.js';
import { lockResumedOutputs } from '../output-lock.js';
import { checkInputFile, checkOutputPath, opening } from '../paths.js';
import { createProgress, progressMode } from '../progress.js';
import { checkQuantityFlag, quantityFlag, timeWarning } from '../quantity.js';
import { keepFramesOf, keepLogRowsOf } from '../resume.js';
import { driftFindings, emptyInputFinding, startEnergies, temperatureFindings, warningsOf } from '../run-checks.js';
import { addScaleOutOptions, checkResumable, resumeOutputs, scalingOut, type ScaleOutOptions } from '../scale-out.js';
import { InputSelection } from '../selection.js';
import { ENSEMBLE_TYPES, stageTypeParser } from '../stage-types.js';
import { finalExitCode, printSummary, type RunSummary } from '../summary.js';
import { viewHook } from './view.js';

// 1 eV/Å³ in bar, the pressure unit LAMMPS's metal units print.
const EV_PER_CUBIC_ANGSTROM_IN_BAR = 1.602176634e6;

/** Flags of `hookmd md`. */
export interface MdOptions extends CommonOptions, ModelOptions, ScaleOutOptions, ConstraintOptions {
  ensemble: 'nve' | 'langevin' | 'nhc' | 'npt' | 'npt-langevin';
  temperature?: number;
  /** With its unit: '2fs', '0.002ps' (a bare number is fs in metal units, τ in lj). */
  dt?: string;
  steps: number;
  /** With its unit: '0.01/fs', '10/ps' (bare in lj units). */
  friction?: string;
  /** A time, as dt. */
  tdamp?: string;
  /** With its unit: '1bar', '1GPa', '0.0062eV/A^3' (bare in lj units). */
  pressure?: string;
  /** A time, as dt. */
  pdamp?: string;
  /** npt-langevin: with its unit, '4.5e-5/bar' (bare in lj units). */
  compressibility?: string;
  couple?: 'iso' | 'aniso';
  seed: number;
  traj?: string;
  trajEvery: number;
  log?: string;
  logEvery: number;
  out?: string;
}

/** True when a system has no velocities, or only zeros. */
function atRest(system: System): boolean {
  const rows: ArrayLike<number | ArrayLike<number>> = system.velocities ?? [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (typeof row === 'number' ? row !== 0 : Array.from(row).some((v) => v !== 0)) return false;
  }
  return true;
}

function checkFlags(options: MdOptions): void {
  if (options.ensemble !== 'nve' && options.temperature === undefined) {
    throw configError([`--temperature: required with --ensemble ${options.ensemble}`]);
  }
  const { ensemble } = options;
  const only = (flag: string, given: unknown, ensembles: readonly MdOptions['ensemble'][]): void => {
    if (given !== undefined && !ensembles.includes(ensemble)) throw configError([`${flag}: only with --ensemble ${ensembles.join(' or ')}`]);
  };
  only('--friction', options.friction, ['langevin', 'npt-langevin']);
  only('--tdamp', options.tdamp, ['nhc', 'npt']);
  if ((ensemble === 'npt' || ensemble === 'npt-langevin') && options.pressure === undefined) throw configError([`--pressure: required with --ensemble ${ensemble}`]);
  only('--pressure', options.pressure, ['npt', 'npt-langevin']);
  only('--pdamp', options.pdamp, ['npt', 'npt-langevin']);
  only('--couple', options.couple, ['npt']);
  only('--compressibility', options.compressibility, ['npt-langevin']);
  if (ensemble === 'npt-langevin' && options.units === 'lj' && options.compressibility === undefined) {
    throw configError(['--compressibility: required with --ensemble npt-langevin in lj units (σ³/ε)']);
  }
  // An MD run is its outputs: with none of them it would compute and discard everything.
  if (options.traj === undefined && options.log === undefined && options.out === undefined) {
    throw configError(['md: nothing would be written: give --out (final frames), --traj (trajectory) or --log (thermo log)']);
  }
  for (const [flag, path] of [['--traj', options.traj], ['--log', options.log], ['--out', options.out]] as const) {
    if (path !== undefined) checkOutputPath(path, flag);
  }
  checkQuantityFlag('--pressure', options.pressure, 'pressure', options.units);
  checkQuantityFlag('--friction', options.friction, 'friction', options.units);
  checkQuantityFlag('--compressibility', options.compressibility, 'compressibility', options.units);
}

/** --dt, --tdamp and --pdamp in the engines' time unit (fs in metal units, τ in lj). */
function times(options: MdOptions): { dt?: number; tdamp?: number; pdamp?: number } {
  const time = (flag: string, value: string | undefined): number | undefined => quantityFlag(flag, value, 'time', options.units, { positive: true });
  return { dt: time('--dt', options.dt), tdamp: time('--tdamp', options.tdamp), pdamp: time('--pdamp', options.pdamp) };
}

/**
 * The systems of this run under --shard and --resume: those of the shard that --out does not hold yet. Their
 * trajectory frames and log rows from an interrupted attempt go, as they start again from step 0.
 */
async function selectSystems(total: number, options: MdOptions): Promise<InputSelection> {
  if (options.chunk !== undefined) return new InputSelection(options.chunk);
  if (options.resume === true && options.out === undefined) throw configError(['--resume: md needs --out, whose final frames record the systems that are done']);
  checkResumable(options, [['--out', options.out], ['--traj', options.traj]]);
  const note = (message: string): void => {
    if (options.quiet !== true) process.stderr.write(`md: ${message}\n`);
  };
  const done = options.resume === true ? await resumeOutputs([['--out', options.out as string]], total, options.shard, note) : new Set<number>();
  if (options.resume === true) {
    if (options.traj !== undefined) await keepFramesOf(options.traj, '--traj', done, note);
    if (options.log !== undefined) await keepLogRowsOf(options.log, '--log', done);
    if (done.size > 0) note(`--resume: ${done.size} systems already done`);
  }
  return new InputSelection({ shard: options.shard, done, inputSystems: total });
}

/** Runs `hookmd md`; resolves to the exit code. `interrupt` stops it (default: Ctrl-C and SIGTERM). */
export async function md(input: string, options: MdOptions, interrupt: Interrupt = new Interrupt()): Promise<number> {
  let live: Awaited<ReturnType<typeof viewHook>>;
  // The model, once built: closed at the end (an i-PI server sends its clients EXIT).
  let built: Model | undefined;
  // The locks of resumed outputs, once taken.
  let release: (() => void) | undefined;
  try {
    checkInputFile(input, 'md: <input>');
    checkFlags(options);
    const { dt, tdamp, pdamp } = times(options);
    const shortStep = timeWarning('--dt', options.dt, options.units);
    if (shortStep !== undefined && options.quiet !== true) process.stderr.write(`hookmd md: warning: ${shortStep}\n`);
    const model = modelSpec(options);
    const units = options.units;
    const format = structureFormat(input);
    const read = format === 'extxyz' ? readExtxyz(input, { units }) : format === 'h5md' ? await readH5md(input) : readStructures(input);
    const systems = read.map((system, k) => withFixedAtoms(system, k, options.fixAtoms ?? [], '--fix-atoms'));
    release = lockResumedOutputs(options.resume, [['--out', options.out]]);
    const selection = scalingOut(options) ? await selectSystems(systems.length, options) : undefined;
    applyRuntime(options);
    const whole = Batch.fromSystems(systems, { units });
    // The atoms the input fixes (a POSCAR's selective dynamics, --fix-atoms) start at rest and stay.
    const fixed = FixAtoms.fromSystems(systems).maskFor(whole);
    const frozen = fixed.includes(1) ? { frozen: fixed } : {};
    // Moving input (ASE momenta) keeps its velocities, so a run restarts from its final frames; input at
    // rest (no momenta, or the zeros a relaxation leaves) starts from Maxwell–Boltzmann at the target.
    if (options.temperature !== undefined && systems.every(atRest)) {
      initializeVelocities(whole, { temperature: options.temperature, seed: options.seed, ...frozen });
    }
    // A shard takes its systems from the whole batch, velocities drawn and systemIds (which key the
    // Langevin noise) given as in one unsharded run, so the shards together reproduce that run.
    const batch = selection === undefined || options.chunk !== undefined ? whole : whole.select(systems.map((_, k) => k).filter((k) => selection.includes(k)));
    const { ensemble, temperature, friction, pressure, couple, seed, compressibility } = options;
    built = await model();
    const constraints = [...(fixed.includes(1) ? [FixAtoms.fromSystems(batch.toSystems())] : []), ...engineConstraints(options)];
    const engine = buildStageEngine({ type: ensemble, dt, temperature, friction, tdamp, pressure, pdamp, couple, seed, compressibility }, built, units, constraints);
    // The start, to check the end against (run-checks.ts): temperatures, and energies for NVE's drift.
    if (batch.numSystems > 0) await engine.model.compute(batch);
    const start = { temperature: Float64Array.from(new SystemScalars(batch).temperature), energies: startEnergies(batch) };
    const traj = options.traj;
    if (traj !== undefined) {
      const resumed = options.resume === true ? { sink: new ExtxyzSink(traj, { units, append: true }), ownsSink: true } : { path: traj, units };
      engine.register(opening('--traj', () => new SnapshotHook({ ...resumed, frequency: options.trajEvery })));
    }
    // Pressure is defined for systems with a cell volume: then the log and the progress line show it.
    const periodic = batch.numSystems > 0 && new SystemScalars(batch).volume.every((v) => v > 0);
    if (options.log !== undefined) engine.register(logHook(options.log, options.logEvery, periodic, { append: options.resume === true }));
    live = await viewHook(options.view, options.trajEvery);
    if (live !== undefined) engine.register(live);
    const mode = progressMode(options.quiet);
    // T and E as of the last progress report, also shown on the final line.
    let detail: string | undefined;
    const progress = createProgress({ mode, label: 'md', unit: 'steps', total: options.steps, interval: options.progressInterval });
    if (mode !== 'none') {
      const frequency = Math.min(1000, Math.max(1, Math.round(options.steps / 200)));
      const [t, e] = units === 'lj' ? ['', ' ε'] : [' K', ' eV'];
      const [p, toShown] = units === 'lj' ? ['', 1] : [' bar', EV_PER_CUBIC_ANGSTROM_IN_BAR];
      const pressure = (event: ProgressEvent): string => (event.pressure === undefined ? '' : `, P ${(event.pressure * toShown).toPrecision(5)}${p}`);
      const thermo = (event: ProgressEvent): string => `T ${event.temperature.toFixed(1)}${t}, E ${event.totalEnergy.toPrecision(8)}${e}${pressure(event)}`;
      engine.register(new ProgressHook({
        frequency,
        pressure: periodic,
        onProgress: (event) => {
          detail = thermo(event);
          progress.update({ done: event.step, step: event.step, detail });
        },
      }));
    }
    const onSignal = (): void => progress.note('\nhookmd md: stopping after the current step; flushing the trajectory and log (Ctrl-C again to quit at once)');
    interrupt.signal.addEventListener('abort', onSignal);
    const started = performance.now();
    let steps = 0;
    try {
      // A shard with no systems (more shards than systems), or a resumed run with none left, has no dynamics.
      if (batch.numSystems > 0) steps = (await engine.run(batch, { steps: options.steps, signal: interrupt.signal })).steps;
      progress.update({ done: steps, step: steps, detail });
    } catch (error) {
      // A Ctrl-C while an async hook (a trajectory write) was pending rejects the run; the command still
      // ends as interrupted and writes the final frames of the steps completed.
      if (!(error instanceof HookmdAbortError && interrupt.received !== undefined)) throw error;
      steps = engine.stepCount;
    } finally {
      interrupt.signal.removeEventListener('abort', onSignal);
      progress.stop();
    }
    // The final frames carry energy, forces and stress of their own positions (stress is not computed
    // during the run unless something needs it), and the checks below read their energies.
    if (batch.numSystems > 0) await engine.model.compute(batch, { stress: true });
    if (options.out !== undefined) {
      const ids = batch.read('systemId');
      const final = batch.toSystems().map((system, s) => {
        // The input's converged/steps/status (a relaxation's) do not describe this run.
        const stepped = { ...system, info: { ...withoutRunInfo(system.info), step: steps } };
        // A queue chunk's batch numbers its systems from 0: the label gives their index in the whole input.
        return selection === undefined ? stepped : selection.label(stepped, options.chunk === undefined ? ids[s] : options.chunk.firstIndex + ids[s]);
      });
      if (options.resume === true && interrupt.received !== undefined) {
        // Frames of a run cut short are not final: the next --resume runs these systems again.
        process.stderr.write(`md: --resume: interrupted before step ${options.steps}; ${options.out} is left as it was\n`);
      } else if (options.resume === true) {
        // One append of whole frames: a kill during it leaves a torn last frame that the next --resume cuts off.
        const out = new ExtxyzSink(options.out, { units, append: true, capacity: Math.max(1, final.length) });
        await out.write(final);
        await out.close();
      } else if ((sinkFormat(options.out) ?? 'extxyz') === 'extxyz') {
        await writeExtxyz(options.out, final, { units });
      } else {
        // .traj, LAMMPS dump, H5MD or Zarr: the sink of the extension, written once.
        const out = openSink(options.out, { units, capacity: Math.max(1, final.length) });
        await out.write(final);
        await out.close();
      }
    }
    const end = new SystemScalars(batch);
    const reference = start.temperature.map((t) => Math.max(t, options.temperature ?? 0));
    const warnings = [...(shortStep === undefined ? [] : [shortStep]), ...warningsOf([
      ...(systems.length === 0 ? [emptyInputFinding(input)] : []),
      ...temperatureFindings(end.temperature, reference, units),
      ...(ensemble === 'nve' ? driftFindings(start.energies, end.totalEnergy, units) : []),
    ])];
    const summary: RunSummary = {
      command: 'md',
      input,
      systems: batch.numSystems,
      processed: batch.numSystems,
      converged: null,
      steps,
      seconds: (performance.now() - started) / 1000,
      interrupted: interrupt.received ?? null,
      outputs: [options.traj, options.log, options.out].filter((path): path is string => path !== undefined),
      warnings,
    };
    printSummary(summary, options);
    return finalExitCode(summary, interrupt.exitCode, options.strict);
  } finally {
    live?.close();
    await closeModel(built);
    release?.();
    interrupt.dispose();
  }
}

/** Adds `md` to the program; the exit code goes to `done`. */
export function registerMd(program: Command, done: (code: number) => void): void {
  const command = program
    .command('md')
    .description('molecular dynamics of every structure of an extxyz file, in one batch')
    .argument('<input>', 'extxyz file of structures (velocities from ASE momenta when present), or a POSCAR, CIF or LAMMPS data file')
    .option('--ensemble <name>', 'nve (VelocityVerlet), langevin (BAOAB), nhc (NoseHooverChain), npt (MTK barostat, as LAMMPS fix npt; orthorhombic cells) or npt-langevin (NPTLangevin: stochastic cell rescaling, any cell shape), any case', stageTypeParser(ENSEMBLE_TYPES, (message) => new InvalidArgumentError(message)), 'nve')
    .option('--temperature <T>', 'thermostat target, and initial velocities when the input has none (K in metal units)', parse.nonNegative)
    .option('--dt <dt>', 'time step with its unit: 2fs, 0.002ps (a bare number is fs; default 1fs in metal units, 0.005 τ in lj)')
    .option('--steps <n>', 'steps to run', parse.count, 1000)
    .option('--friction <gamma>', 'langevin and npt-langevin: friction with its unit: 0.01/fs or 10/ps (default 0.01/fs; a bare number in lj units, default 1/τ)')
    .option('--tdamp <t>', 'Nosé–Hoover damping time, a time as --dt: 100fs, 0.1ps (default 100·dt)')
    .option('--pressure <P>', 'npt and npt-langevin: target pressure with its unit: 1bar, 1GPa, 0.0062eV/A^3 (Pa, kPa, MPa, GPa, bar, kbar, atm, eV/A^3; a bare number in lj units, ε/σ³)')
    .option('--pdamp <t>', 'npt and npt-langevin: barostat damping time, a time as --dt: 1000fs, 1ps (default 1000·dt)')
    .option('--compressibility <beta>', 'npt-langevin: isothermal compressibility with its unit: 4.5e-5/bar (the default, water), 0.01/GPa, 72A^3/eV; a bare number in lj units, σ³/ε, required there')
    .addOption(new Option('--couple <style>', 'npt: iso scales the cell uniformly, aniso each axis (orthorhombic cells)').choices(['iso', 'aniso']))
    .option('--seed <n>', 'random seed for velocities and the Langevin noise', parse.nonNegativeInteger, 0)
    .option('--traj <file>', 'trajectory: every system every --traj-every steps (extxyz, or .zarr, .traj, .lammpstrj/.dump, .h5md by extension)')
    .option('--traj-every <n>', 'steps between trajectory frames', parse.count, 100)
    .option('--log <file>', 'per-system log: csv, or jsonl when the name ends in .jsonl')
    .option('--log-every <n>', 'log every n steps', parse.count, 100)
    .option('-o, --out <file>', 'final frames (extxyz, or .traj, .lammpstrj/.dump, .h5md, .zarr by extension)');
  addConstraintOptions(command);
  addModelOptions(command);
  addScaleOutOptions(command);
  addCommonOptions(command);
  addStrictOption(command);
  command.action(async (input: string, options: MdOptions) => done(await md(input, options)));
}
