// `hookmd demo`: the main job on built-in data. Relaxes 256 perturbed Argon LJ13 clusters with FIRE in one
// batch, then runs Langevin NVT on an fcc argon crystal, and prints what happened.
import { Batch, bulk, rattle, repeat } from '../data/index.js';
import { ConvergenceHook, FIRE, initializeVelocities, Langevin, temperatures } from '../dynamics/index.js';
import { LennardJones } from '../models/index.js';
import { backendInfo } from '../native/index.js';
import { ARGON_CUTOFF, ARGON_EPSILON, ARGON_SIGMA, icosahedron13 } from './argon.js';

/** The LJ13 global minimum, −44.326801 ε (Wales & Doye 1997). */
const LJ13_MINIMUM = -44.326801;

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

async function relaxClusters(count: number): Promise<DemoRow> {
  const model = new LennardJones({ epsilon: ARGON_EPSILON, sigma: ARGON_SIGMA, cutoff: ARGON_CUTOFF });
  const base = { symbols: Array(13).fill('Ar'), positions: icosahedron13(1.1 * ARGON_SIGMA) };
  const batch = Batch.fromSystems(Array.from({ length: count }, (_, i) => rattle(base, 0.25, i + 1)));
  const fire = new FIRE({ model, convergence: ConvergenceHook.fromFmax(1e-5) });
  const start = performance.now();
  const result = await fire.run(batch, { steps: 2000 });
  const seconds = (performance.now() - start) / 1000;
  const energies = Array.from(batch.read('energy'), (e) => e / ARGON_EPSILON);
  const atMinimum = energies.filter((e) => Math.abs(e - LJ13_MINIMUM) < 1e-3).length;
  const converged = result.converged.reduce((a, b) => a + b, 0);
  return {
    job: 'FIRE relax LJ13 (fmax 1e-5 eV/Å)',
    systems: count,
    atoms: batch.numAtoms,
    steps: result.steps,
    seconds,
    result: `${converged}/${count} converged, ${atMinimum} at E = ${LJ13_MINIMUM} ε, lowest ${Math.min(...energies).toFixed(6)} ε`,
  };
}

async function thermalizeCrystal(): Promise<DemoRow> {
  const model = new LennardJones({ epsilon: ARGON_EPSILON, sigma: ARGON_SIGMA, cutoff: ARGON_CUTOFF });
  const crystal = repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), [4, 4, 4]);
  const batch = Batch.fromSystems([crystal]);
  const target = 40;
  initializeVelocities(batch, { temperature: target, seed: 7 });
  const md = new Langevin({ model, dt: 5, temperature: target, friction: 0.01, seed: 7 });
  const start = performance.now();
  const steps = 2000;
  const samples: number[] = [];
  md.register({ stage: 7, frequency: 10, call: (ctx) => { if (ctx.stepCount >= steps / 2) samples.push(temperatures(batch)[0]); } });
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
  const rows = [await relaxClusters(options.clusters ?? 256), await thermalizeCrystal()];
  const text = `hookmd demo — backend ${info.backend} (${info.device}); Argon LJ ε = ${ARGON_EPSILON} eV, σ = ${ARGON_SIGMA} Å, rc = ${ARGON_CUTOFF} Å\n\n${table(rows)}`;
  return { rows, text };
}
