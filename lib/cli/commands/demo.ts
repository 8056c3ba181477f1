// `hookmd demo`: the main job on built-in data, run through the pipeline. 256 perturbed Argon LJ13 clusters
// stream through a refilled FIRE batch; the same clusters go through a fused FIRE → Langevin pipeline
// (one force computation per step for both stages); then Langevin NVT runs on an fcc argon crystal.
import type { Command } from 'commander';

import { Batch, bulk, rattle, repeat, type System } from '../../data/index.js';
import { ConvergenceHook, DynamicsStage, FIRE, FusedStage, initializeVelocities, Langevin, temperatures } from '../../dynamics/index.js';
import { HostMemorySink } from '../../io/index.js';
import { LennardJones } from '../../models/index.js';
import { backendInfo } from '../../native/index.js';
import { ARGON_CUTOFF, ARGON_EPSILON, ARGON_SIGMA, icosahedron13 } from '../argon.js';
import { addRuntimeOptions, applyRuntime, type CommonOptions } from '../options.js';

/** The LJ13 global minimum, −44.326801 ε (Wales & Doye 1997). */
const LJ13_MINIMUM = -44.326801;
/** Clusters in the batch at once: the stream refills it as clusters converge. */
const CLUSTERS_IN_FLIGHT = 64;

/** One row of the demo's summary. */
export interface DemoRow {
  job: string;
  systems: number;
  atoms: number;
  steps: number;
  seconds: number;
  result: string;
}

function table(rows: DemoRow[]): string {
  const header = ['job', 'systems', 'atoms', 'steps', 'time (s)', 'result'];
  const cells = rows.map((r) => [r.job, String(r.systems), String(r.atoms), String(r.steps), r.seconds.toFixed(2), r.result]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]): string => c.map((v, i) => (i === 0 || i === 5 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

function argon(): LennardJones {
  return new LennardJones({ epsilon: ARGON_EPSILON, sigma: ARGON_SIGMA, cutoff: ARGON_CUTOFF });
}

function clusters(count: number): System[] {
  const base = { symbols: Array(13).fill('Ar'), positions: icosahedron13(1.1 * ARGON_SIGMA) };
  return Array.from({ length: count }, (_, i) => rattle(base, 0.25, i + 1));
}

async function relaxClusters(count: number): Promise<DemoRow> {
  const fire = new FIRE({ model: argon(), convergence: ConvergenceHook.fromFmax(1e-5) });
  const sink = new HostMemorySink();
  const start = performance.now();
  const result = await fire.runStream(clusters(count), { sinks: [sink], maxAtoms: 13 * CLUSTERS_IN_FLIGHT, refillEvery: 10, maxSteps: 2000 });
  const seconds = (performance.now() - start) / 1000;
  const energies = sink.read().map((system) => (system.energy as number) / ARGON_EPSILON);
  const atMinimum = energies.filter((e) => Math.abs(e - LJ13_MINIMUM) < 1e-3).length;
  return {
    job: `FIRE relax LJ13, streamed ${CLUSTERS_IN_FLIGHT} at a time (fmax 1e-5 eV/Å)`,
    systems: count,
    atoms: 13 * count,
    steps: result.steps,
    seconds,
    result: `${result.converged}/${count} converged, ${atMinimum} at E = ${LJ13_MINIMUM} ε, lowest ${Math.min(...energies).toFixed(6)} ε`,
  };
}

async function relaxThenHeat(count: number): Promise<DemoRow> {
  const model = argon();
  const target = 20;
  const heatSteps = 1000;
  const pipeline = new FusedStage({
    stages: [
      new FIRE({ model, convergence: ConvergenceHook.fromFmax(1e-3) }),
      new Langevin({ model, dt: 5, temperature: target, friction: 0.01, seed: 3 }),
    ],
    budgets: [2000, heatSteps],
  });
  const sink = new HostMemorySink();
  const start = performance.now();
  const result = await pipeline.runStream(clusters(count), { sinks: [sink], maxAtoms: 13 * CLUSTERS_IN_FLIGHT, refillEvery: 10, maxSteps: 5000 });
  const seconds = (performance.now() - start) / 1000;
  const finished = sink.read();
  // Counted as every hookmd temperature is (docs/dynamics.md, "Temperature"): 3N − 3 for a free cluster.
  const meanT = temperatures(Batch.fromSystems(finished)).reduce((sum, t) => sum + t, 0) / finished.length;
  return {
    job: `FIRE → Langevin ${target} K fused, streamed (dt 5 fs, ${heatSteps} steps)`,
    systems: count,
    atoms: 13 * count,
    steps: result.steps,
    seconds,
    result: `${result.converged}/${count} through both stages, mean final T ${meanT.toFixed(1)} K`,
  };
}

async function thermalizeCrystal(): Promise<DemoRow> {
  const crystal = repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), [4, 4, 4]);
  const batch = Batch.fromSystems([crystal]);
  const target = 40;
  initializeVelocities(batch, { temperature: target, seed: 7 });
  const md = new Langevin({ model: argon(), dt: 5, temperature: target, friction: 0.01, seed: 7 });
  const start = performance.now();
  const steps = 2000;
  const samples: number[] = [];
  md.register({ stage: DynamicsStage.AFTER_STEP, frequency: 10, call: (ctx) => { if (ctx.stepCount >= steps / 2) samples.push(temperatures(batch)[0]); } });
  await md.run(batch, { steps });
  const seconds = (performance.now() - start) / 1000;
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return {
    job: `Langevin NVT fcc Ar (dt 5 fs, ${target} K)`,
    systems: 1,
    atoms: batch.numAtoms,
    steps,
    seconds,
    result: `mean T over the last ${steps / 2} steps ${mean.toFixed(1)} K, E_pot ${(batch.read('energy')[0] / batch.numAtoms).toFixed(4)} eV/atom`,
  };
}

/** Runs the demo and returns its summary table. */
export async function runDemo(options: { clusters?: number } = {}): Promise<{ rows: DemoRow[]; text: string }> {
  const info = backendInfo();
  const count = options.clusters ?? 256;
  const rows = [await relaxClusters(count), await relaxThenHeat(count), await thermalizeCrystal()];
  const text = `hookmd demo — backend ${info.backend} (${info.device}); Argon LJ ε = ${ARGON_EPSILON} eV, σ = ${ARGON_SIGMA} Å, rc = ${ARGON_CUTOFF} Å\n\n${table(rows)}`;
  return { rows, text };
}

/** Adds `demo` to the program. */
export function registerDemo(program: Command): void {
  const command = program
    .command('demo')
    .description('relax 256 Argon LJ13 clusters through a refilled batch, relax-then-heat them fused, then NVT on an fcc crystal');
  addRuntimeOptions(command).option('--json', 'print the summary as JSON');
  command.action(async (options: Pick<CommonOptions, 'backend' | 'threads' | 'json'>) => {
    applyRuntime(options);
    const { rows, text } = await runDemo();
    process.stdout.write(`${options.json === true ? JSON.stringify(rows, null, 2) : text}\n`);
  });
}
