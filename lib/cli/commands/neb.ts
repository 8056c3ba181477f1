// `hookmd neb <initial> [final]`: the nudged elastic band of lib/workflows/neb.ts on the command line. Two files
// give the end points (the first structure of each), one file with several frames gives the path itself (or,
// with --interpolate, its first and last frames as end points); the band relaxes with progress on stderr and
// prints each image's energy, the barriers and the saddle, or --json.
import { Option, type Command } from 'commander';

import type { System } from '../../data/index.js';
import { writeExtxyz } from '../../io/index.js';
import { NEB, NEBStage, type NEBResult } from '../../workflows/index.js';
import { configError } from '../config-file.js';
import { addModelOptions, addRuntimeOptions, parse, type CommonOptions } from '../options.js';
import { createProgress, progressMode } from '../progress.js';
import { structuresOf, withModel, type RunOptions } from './workflows.js';

interface NebOptions extends RunOptions, Pick<CommonOptions, 'quiet' | 'progressInterval'> {
  images?: number;
  climb?: boolean;
  method: 'aseneb' | 'improvedtangent';
  interpolate?: 'linear' | 'idpp';
  optimizer: 'fire' | 'fire2' | 'lbfgs';
  spring: number;
  fmax: number;
  steps: number;
  out?: string;
}

/** The path the files give: end points to interpolate between, or the images as they are. */
function pathOf(initial: string, final: string | undefined, options: NebOptions): { images: System[]; interpolate: 'linear' | 'idpp' | undefined } {
  const first = structuresOf(initial, 'neb: <initial>', options.units);
  if (final !== undefined) {
    const last = structuresOf(final, 'neb: [final]', options.units)[0] as System;
    return { images: [first[0] as System, last], interpolate: options.interpolate ?? 'linear' };
  }
  if (first.length < 2) throw configError([`neb: ${initial} holds one structure: give the final one as a second file, or a file with the whole path`]);
  if (options.interpolate !== undefined) return { images: [first[0] as System, first[first.length - 1] as System], interpolate: options.interpolate };
  if (first.length === 2) return { images: first, interpolate: 'linear' };
  if (options.images !== undefined) throw configError([`neb: --images needs end points to interpolate between (two files, two frames, or --interpolate); ${initial} holds a path of ${first.length} images`]);
  return { images: first, interpolate: undefined };
}

function describe(result: NEBResult, unit: string): string {
  const [path] = result.paths;
  if (path === undefined) return '';
  const e0 = path.energies[0] as number;
  const lines = path.energies.map((e, i) => `image ${i}: ${e.toFixed(6)} ${unit} (${(e - e0).toFixed(6)} relative)${i === path.saddleIndex ? ' saddle' : ''}`);
  lines.push(`barrier ${path.barrier.toFixed(6)} ${unit}, reverse barrier ${path.reverseBarrier.toFixed(6)} ${unit}, saddle at image ${path.saddleIndex}; ${result.converged ? 'converged' : 'not converged'} in ${result.steps} steps`);
  return lines.join('\n');
}

/** Registers `hookmd neb`. */
export function registerNeb(program: Command): void {
  const neb = program
    .command('neb')
    .description('nudged elastic band between two structures, or along the path of a multi-frame file: every image in one batch (docs/workflows.md)')
    .argument('<initial>', 'structure file: the initial state, or the whole path')
    .argument('[final]', 'structure file: the final state');
  addModelOptions(addRuntimeOptions(neb))
    .option('-q, --quiet', 'no progress')
    .option('--json', 'print JSON')
    .option('--progress-interval <seconds>', 'seconds between progress lines when stderr is not a terminal', parse.nonNegative, 5)
    .option('--images <n>', 'images of the band, end points included, when interpolating (default 7)', parse.count)
    .option('--climb', 'climbing image: the highest one climbs to the saddle')
    .addOption(new Option('--method <method>', 'NEB tangent').choices(['aseneb', 'improvedtangent']).default('aseneb'))
    .addOption(new Option('--interpolate <how>', 'interior images from the end points (default linear when only end points are given)').choices(['linear', 'idpp']))
    .addOption(new Option('--optimizer <name>', "how the band moves: ASE's FIRE, FIRE2 or LBFGS over the whole band").choices(['fire', 'fire2', 'lbfgs']).default('fire'))
    .option('--spring <k>', 'spring constant (eV/Å²)', parse.positive, 0.1)
    .option('--fmax <f>', 'stop when every NEB force is below this (eV/Å)', parse.positive, 0.05)
    .option('--steps <n>', 'at most this many optimizer steps', parse.nonNegativeInteger, 1000)
    .option('--out <file>', 'write the relaxed band to this extxyz file');
  neb.action(async (initial: string, final: string | undefined, options: NebOptions) => {
    const { images, interpolate } = pathOf(initial, final, options);
    const result = await withModel(options, async (model) => {
      const band = new NEB({
        model,
        images,
        climb: options.climb === true,
        method: options.method,
        springConstant: options.spring,
        optimizer: options.optimizer,
        ...(interpolate === undefined ? {} : { interpolate, numImages: options.images ?? 7 }),
      });
      const progress = createProgress({ mode: progressMode(options.quiet), label: 'neb', unit: 'steps', total: options.steps, interval: options.progressInterval });
      band.hooks.register({
        stage: NEBStage.AFTER_COMPUTE,
        frequency: 1,
        call: (ctx: { stepCount: number; residuals: Float64Array }) => progress.update({ done: ctx.stepCount, step: ctx.stepCount, detail: `largest NEB force ${Math.max(...ctx.residuals).toExponential(2)} eV/Å` }),
      });
      try {
        return await band.run({ fmax: options.fmax, steps: options.steps });
      } finally {
        progress.stop();
      }
    });
    if (options.out !== undefined) await writeExtxyz(options.out, result.paths[0]?.images ?? []);
    const unit = options.units === 'lj' ? 'ε' : 'eV';
    if (options.json === true) {
      const [path] = result.paths;
      const report = { unit, energies: path?.energies, barrier: path?.barrier, reverseBarrier: path?.reverseBarrier, saddleIndex: path?.saddleIndex, converged: result.converged, steps: result.steps };
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return;
    }
    process.stdout.write(`${describe(result, unit)}\n`);
  });
}
