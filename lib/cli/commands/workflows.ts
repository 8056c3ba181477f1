// `hookmd elastic <input>` and `hookmd phonons <input>`: the workflows of lib/workflows on the first structure
// of an input file (extxyz, POSCAR, CIF, LAMMPS data, .traj, LAMMPS dump), with a model from --model.
import { InvalidArgumentError, Option, type Command } from 'commander';

import type { System } from '../../data/index.js';
import { readExtxyz, readStructures, structureFormat } from '../../io/index.js';
import { elasticConstants, phonons, type PhononUnit, type WorkflowProgress } from '../../workflows/index.js';
import { configError } from '../config-file.js';
import { closeModel } from '../model.js';
import { addModelOptions, addRuntimeOptions, applyRuntime, modelSpec, parse, type CommonOptions, type ModelOptions } from '../options.js';
import { checkInputFile } from '../paths.js';
import { pathFlag } from '../band-path.js';
import { phononBands, phononOutput, writePhononBands, type PhononOutputFlags } from '../phonon-output.js';
import { createProgress, progressMode, type ProgressReporter } from '../progress.js';

/** The options every workflow command takes. */
export type RunOptions = Pick<CommonOptions, 'backend' | 'threads' | 'json'> & ModelOptions;

/** What elastic and phonons add for their progress on stderr. */
type ProgressFlags = Pick<CommonOptions, 'quiet' | 'progressInterval'>;

/** What each stage of a workflow is called on its progress line. */
const STAGE_NAMES: Readonly<Record<WorkflowProgress['stage'], string>> = {
  cell: 'cell relaxation',
  ions: 'ion relaxations of the strained cells',
  stress: 'stress of the strained cells',
  forces: 'forces of the displaced supercells',
};

/**
 * Runs `work` with a progress reporter on stderr fed by the workflow's onProgress: a bar on a terminal, lines
 * in logs, none with --quiet, as hookmd relax, md and neb show theirs. Each stage restarts the count.
 */
async function withProgress<T>(label: string, options: ProgressFlags, work: (onProgress: (progress: WorkflowProgress) => void) => Promise<T>): Promise<T> {
  const mode = progressMode(options.quiet);
  let stage: string | undefined;
  let reporter: ProgressReporter | undefined;
  try {
    return await work((progress) => {
      if (progress.stage !== stage) {
        reporter?.stop();
        stage = progress.stage;
        reporter = createProgress({ mode, label, unit: progress.unit, total: progress.total, interval: options.progressInterval });
      }
      // A force call over many systems is one step, taken once they are all done.
      const step = progress.unit === 'steps' ? progress.done : Number(progress.done === progress.total);
      reporter?.update({ done: progress.done, step, detail: STAGE_NAMES[progress.stage] });
    });
  } finally {
    reporter?.stop();
  }
}

/** Adds --quiet and --progress-interval, as hookmd neb has them. */
function addProgressOptions(command: Command): Command {
  return command
    .option('-q, --quiet', 'no progress')
    .option('--progress-interval <seconds>', 'seconds between progress lines when stderr is not a terminal', parse.nonNegative, 5);
}

/** Every structure of `input` (one at least). */
export function structuresOf(input: string, label: string, units: 'metal' | 'lj'): System[] {
  checkInputFile(input, label);
  const systems = structureFormat(input) === 'extxyz' ? readExtxyz(input, { units }) : readStructures(input);
  if (systems.length === 0) throw configError([`${label}: ${input} holds no structure`]);
  return systems;
}

/** The first structure of `input`. */
function firstStructure(input: string, label: string, units: 'metal' | 'lj'): System {
  return structuresOf(input, label, units)[0] as System;
}

/** "7" or "7,7,4". */
function supercellFlag(text: string): [number, number, number] {
  const counts = text.split(',').map(Number);
  const full = counts.length === 1 ? [counts[0], counts[0], counts[0]] : counts;
  if (full.length !== 3 || full.some((n) => !Number.isInteger(n) || (n as number) < 1)) {
    throw new InvalidArgumentError(`expected n or n1,n2,n3 (integers >= 1), got '${text}'`);
  }
  return full as [number, number, number];
}

/** "0,0,0;0.5,0,0.5": q points in reduced coordinates. */
function qFlag(text: string): [number, number, number][] {
  return text.split(';').map((point) => {
    const q = point.split(',').map(Number);
    if (q.length !== 3 || q.some((x) => !Number.isFinite(x))) throw new InvalidArgumentError(`expected q points as x,y,z;x,y,z, got '${point}'`);
    return q as [number, number, number];
  });
}

/** Runs `work` with the model of --model, closed afterwards. */
export async function withModel<T>(options: RunOptions, work: (model: Awaited<ReturnType<ReturnType<typeof modelSpec>>>) => Promise<T>): Promise<T> {
  const build = modelSpec(options);
  applyRuntime(options);
  const model = await build();
  try {
    return await work(model);
  } finally {
    await closeModel(model);
  }
}

const VOIGT = ['xx', 'yy', 'zz', 'yz', 'xz', 'xy'];

/** Registers `hookmd elastic` and `hookmd phonons`. */
export function registerWorkflows(program: Command): void {
  const elastic = program.command('elastic').description('elastic constants of the first structure of a file: ±strains as one batch, ions relaxed (docs/workflows.md)').argument('<input>', 'structure file');
  addProgressOptions(addModelOptions(addRuntimeOptions(elastic)))
    .option('--json', 'print JSON')
    .option('--strain <delta>', 'strain amplitude of each Voigt component', parse.positive, 1e-3)
    .option('--fmax <f>', 'force threshold of the ion relaxations (eV/Å)', parse.positive, 1e-6)
    .option('--no-relax-ions', 'clamped-ion constants: do not relax the strained cells')
    .option('--no-relax-cell', 'strain the cell as given, without relaxing it to zero stress first');
  elastic.action(async (input: string, options: RunOptions & ProgressFlags & { strain: number; fmax: number; relaxIons: boolean; relaxCell: boolean }) => {
    const system = firstStructure(input, 'elastic: <input>', options.units);
    const result = await withModel(options, (model) =>
      withProgress('elastic', options, (onProgress) =>
        elasticConstants(model, system, { strain: options.strain, fmax: options.fmax, relaxIons: options.relaxIons, relaxCell: options.relaxCell, units: options.units, onProgress }),
      ),
    );
    if (options.json === true) {
      const { reference: _, ...report } = result;
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return;
    }
    const lines = [`C_ij (${result.unit}), Voigt order ${VOIGT.join(' ')}:`, ...result.C.map((row) => row.map((c) => c.toFixed(2).padStart(10)).join(''))];
    lines.push(`bulk modulus ${result.bulkModulus.toFixed(2)}, shear modulus ${result.shearModulus.toFixed(2)}, Young's modulus ${result.youngsModulus.toFixed(2)} ${result.unit}, Poisson ratio ${result.poissonRatio.toFixed(4)} (Voigt averages)`);
    process.stdout.write(`${lines.join('\n')}\n`);
  });

  const phonon = program.command('phonons').description('phonon frequencies of the first structure of a file by finite displacements, as ASE (docs/workflows.md)').argument('<input>', 'structure file');
  addProgressOptions(addModelOptions(addRuntimeOptions(phonon)))
    .option('--json', 'print JSON')
    .option('--supercell <n>', 'repeats of the cell: n or n1,n2,n3', supercellFlag, [1, 1, 1] as [number, number, number])
    .option('--displacement <delta>', 'displacement (Å)', parse.positive, 0.01)
    .option('--q <points>', 'q points in reduced coordinates, x,y,z;x,y,z', qFlag, [[0, 0, 0]] as [number, number, number][])
    .addOption(new Option('--unit <unit>', 'frequency unit').choices(['THz', 'meV', 'eV']).default('THz'))
    .option('--out <file>', 'write the bands along --path (and the DOS with --dos) as JSON, for hookmd view')
    .option('--path <points>', 'band path for --out: labelled q points, G=0,0,0;X=0.5,0,0.5, segments separated by |', pathFlag)
    .option('--npoints <n>', 'q points along --path, as ASE bandpath', parse.count, 100)
    .option('--dos <n>', 'also the DOS in the --out file, on an n×n×n q grid', parse.count);
  phonon.action(async (input: string, options: RunOptions & ProgressFlags & { supercell: [number, number, number]; displacement: number; q: [number, number, number][]; unit: PhononUnit } & PhononOutputFlags) => {
    const system = firstStructure(input, 'phonons: <input>', options.units);
    const output = phononOutput(options, system);
    const result = await withModel(options, (model) => withProgress('phonons', options, (onProgress) => phonons(model, system, { supercell: options.supercell, displacement: options.displacement, onProgress })));
    if (output !== undefined) writePhononBands(output.out, phononBands(result, output));
    const bands = result.bandStructure(options.q, options.unit).map((f) => Array.from(f));
    if (options.json === true) {
      process.stdout.write(`${JSON.stringify({ supercell: result.supercell, unit: options.unit, q: options.q, frequencies: bands }, null, 2)}\n`);
      return;
    }
    const lines = options.q.map((q, k) => `q = (${q.join(', ')}): ${(bands[k] as number[]).map((f) => f.toFixed(4)).join(' ')} ${options.unit}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  });
}
