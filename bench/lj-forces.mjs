// LJ force evaluations and neighbor builds per second on LAMMPS's bench/in.lj geometry (32,000 atoms, fcc
// ρ = 0.8442, rc = 2.5σ, skin 0.3σ), hookmd on 1 thread and on every thread (each in a fresh process),
// against LAMMPS on the same machine (1 process, 1 thread), in two states: the perfect lattice of step 0 and
// the liquid after 300 steps of in.lj (T = 1.44), where pair distances no longer repeat. Rounds interleave
// the codes, and each keeps its best round, so load from other processes biases none of them.
// Usage: node bench/lj-forces.mjs [--cells 20] [--evals 30] [--rounds 5] [--melt-steps 300]
// Needs dist/ (npx tsc -p tsconfig.build.json) and build/Release/hookmd.node (npm run native:gyp).
import { availableParallelism } from 'node:os';

import { childMain, machineLine, markdownTable, parseArgs, runChild } from './lib/harness.mjs';
import { ljMeltBatch, ljMeltModel } from './lib/systems.mjs';
import { HAVE_LAMMPS, firstEnergy, ljInput, neighborBuilds, runLammps, sectionSeconds } from './lib/lammps-lj.mjs';

const options = parseArgs({ cells: 20, evals: 30, rounds: 5, meltSteps: 300 });
const STATES = ['lattice', 'melt'];

/** LAMMPS's `lattice fcc 0.8442` + `create_atoms` in a cells³ box, as one System of flat arrays. */
function lattice(cells) {
  const a = Math.cbrt(4 / 0.8442);
  const basis = [[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]];
  const positions = new Float64Array(12 * cells ** 3);
  let k = 0;
  for (let i = 0; i < cells; i++) for (let j = 0; j < cells; j++) for (let l = 0; l < cells; l++) for (const q of basis) {
    positions[k++] = (i + q[0]) * a;
    positions[k++] = (j + q[1]) * a;
    positions[k++] = (l + q[2]) * a;
  }
  return { positions, atomicNumbers: new Int32Array(4 * cells ** 3).fill(18), cell: [cells * a, 0, 0, 0, cells * a, 0, 0, 0, cells * a], pbc: true };
}

/** Mean seconds per call over `count` calls. */
function perCall(fn, count) {
  const start = performance.now();
  for (let i = 0; i < count; i++) fn(i);
  return (performance.now() - start) / 1000 / count;
}

/** The batch of one state: the lattice, or in.lj's liquid after `meltSteps` NVE steps. */
async function stateBatch(hookmd, { cells, state, meltSteps }) {
  if (state === 'lattice') return hookmd.Batch.fromSystems([lattice(cells)], { units: 'lj' });
  const batch = ljMeltBatch(hookmd, cells);
  await new hookmd.VelocityVerlet({ model: ljMeltModel(hookmd), dt: 0.005 }).run(batch, { steps: meltSteps });
  return batch;
}

/** One hookmd round in a child process: HOOKMD_THREADS sets the pool. */
async function hookmdRound(round) {
  const hookmd = await import('../dist/index.js');
  hookmd.configureNative({ backend: 'cpu' });
  const batch = await stateBatch(hookmd, round);
  const model = new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, skin: 0.3 });
  model.compute(batch);
  const energyPerAtom = batch.energy[0] / batch.numAtoms;
  perCall(() => model.compute(batch), 3);
  const force = perCall(() => model.compute(batch), round.evals);
  // Moving one atom by more than skin/2 makes every call rebuild the list; the difference is the build.
  const positions = batch.positions;
  const withBuild = perCall((i) => {
    positions[0] += i % 2 === 0 ? 0.2 : -0.2;
    model.compute(batch);
  }, round.evals);
  return { threads: hookmd.getThreads(), atoms: batch.numAtoms, pairs: model.neighborStats().pairs, energyPerAtom, force, build: withBuild - force };
}

async function lammpsRound({ cells, state, meltSteps }) {
  const steps = 100;
  const melt = state === 'melt' ? meltSteps : 0;
  const plainRun = await runLammps(ljInput({ cells, steps, neighEvery: 20, thermo: steps, melt }));
  const rebuiltRun = await runLammps(ljInput({ cells, steps, neighEvery: 1, thermo: steps, melt }));
  const plain = plainRun.log;
  const rebuilt = rebuiltRun.log;
  return {
    peakRssMiB: Math.max(plainRun.peakRssMiB, rebuiltRun.peakRssMiB),
    force: sectionSeconds(plain, 'Pair') / steps,
    build: sectionSeconds(rebuilt, 'Neigh') / neighborBuilds(rebuilt),
    energyPerAtom: melt > 0 ? undefined : firstEnergy(plain),
  };
}

if (!(await childMain(hookmdRound))) {
  const start = machineLine();
  const threadCounts = [...new Set([1, availableParallelism()])];
  const bestOf = (rounds) => ({
    ...rounds[0],
    force: Math.min(...rounds.map((r) => r.force)),
    build: Math.min(...rounds.map((r) => r.build)),
    peakRssMiB: Math.max(...rounds.map((r) => r.peakRssMiB)),
  });
  const runs = new Map();
  const record = (key, value) => runs.set(key, [...(runs.get(key) ?? []), value]);
  for (let round = 0; round < options.rounds; round++) {
    for (const state of STATES) {
      const args = { ...options, state };
      if (HAVE_LAMMPS) record(`${state} lammps`, await lammpsRound(args));
      for (const threads of threadCounts) {
        record(`${state} ${threads}`, await runChild(new URL(import.meta.url), args, { env: { HOOKMD_THREADS: String(threads) } }));
      }
    }
  }
  const ms = (s) => (1000 * s).toFixed(2);
  const rate = (s) => (1 / s).toFixed(1);
  const lattice = bestOf(runs.get('lattice 1'));
  console.log(`## lj-forces — bench/in.lj geometry (${lattice.atoms} atoms), force evaluations and neighbor builds\n`);
  console.log(`${start}; \`node bench/lj-forces.mjs --cells ${options.cells} --evals ${options.evals} --rounds ${options.rounds} --melt-steps ${options.meltSteps}\`, best of ${options.rounds} interleaved rounds.`);
  const lammpsLattice = HAVE_LAMMPS ? bestOf(runs.get('lattice lammps')) : undefined;
  console.log(`Lattice E/atom: hookmd ${lattice.energyPerAtom.toFixed(7)}, LAMMPS ${lammpsLattice?.energyPerAtom ?? '—'}; ${lattice.pairs} half-list pairs.\n`);
  const table = [];
  for (const state of STATES) {
    const lammps = HAVE_LAMMPS ? bestOf(runs.get(`${state} lammps`)) : undefined;
    const ratio = (key, row) => (lammps === undefined ? '—' : `${(lammps[key] / row[key]).toFixed(2)}×`);
    if (lammps !== undefined) table.push([state, 'LAMMPS 29 Sep 2021 lj/cut', 1, ms(lammps.force), rate(lammps.force), ms(lammps.build), rate(lammps.build), '1.00×', '1.00×', lammps.peakRssMiB.toFixed(1)]);
    for (const threads of threadCounts) {
      const row = bestOf(runs.get(`${state} ${threads}`));
      table.push([state, 'hookmd LennardJones', row.threads, ms(row.force), rate(row.force), ms(row.build), rate(row.build), ratio('force', row), ratio('build', row), row.peakRssMiB.toFixed(1)]);
    }
  }
  console.log(markdownTable(['state', 'code', 'threads', 'force eval (ms)', 'evals/s', 'neighbor build (ms)', 'builds/s', 'speed vs LAMMPS, forces', 'speed vs LAMMPS, builds', 'peak RSS (MiB)'], table, ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']));
  if (!HAVE_LAMMPS) console.log('\nLAMMPS (lmp) not found: no reference rows.');
}
