// LJ force evaluations and neighbor builds per second, cpu backend (every core) against cuda backend, in one
// run of the CUDA build (build-cuda/Release/hookmd_cuda.node), on LAMMPS's bench/in.lj geometry: fcc
// ρ = 0.8442 σ⁻³, ε = σ = 1, rc 2.5σ, skin 0.3σ, fp64, at about 32,000 and 1,000,000 atoms. A build is
// forced by nudging the skin (setSkin drops the lists without moving any positions, so no transfer is
// timed); its cost is the difference from a plain evaluation. Each rate runs for at least --seconds.
// Usage: node bench/gpu.mjs [--seconds 2] [--sizes 20,63]   (cells per edge; 4·cells³ atoms)
// Needs `npm run native:cmake`; exits 0 with a message when there is no build or no usable GPU.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { fmt, machineLine, markdownTable, parseArgs, peakRssMiB, sci } from './lib/harness.mjs';
import { LJ_FCC_A } from './lib/systems.mjs';

const options = parseArgs({ seconds: 2, sizes: '20,63' });
const BINARY = fileURLToPath(new URL('../build-cuda/Release/hookmd_cuda.node', import.meta.url));
const SKIN = 0.3;

if (!existsSync(BINARY)) {
  console.log(`bench/gpu: ${BINARY} is missing (run \`npm run native:cmake\` on a machine with nvcc); nothing to measure.`);
  process.exit(0);
}
const binding = createRequire(import.meta.url)(BINARY);
const cuda = binding.backends().find((entry) => entry.name === 'cuda');
if (cuda?.available !== true) {
  console.log(`bench/gpu: no usable CUDA device (${cuda?.reason ?? 'this build has no cuda backend'}); nothing to measure.`);
  process.exit(0);
}

/** The in.lj lattice (cells³ conventional fcc cells in a periodic cube) in a native batch of `backend`. */
function latticeBatch(backend, cells) {
  const atoms = 4 * cells ** 3;
  const positions = new Float64Array(3 * atoms);
  const basis = [[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]];
  let k = 0;
  for (let i = 0; i < cells; i++) for (let j = 0; j < cells; j++) for (let l = 0; l < cells; l++) for (const q of basis) {
    positions[k++] = (i + q[0]) * LJ_FCC_A;
    positions[k++] = (j + q[1]) * LJ_FCC_A;
    positions[k++] = (l + q[2]) * LJ_FCC_A;
  }
  const side = cells * LJ_FCC_A;
  const batch = new binding.NativeBatch(backend);
  batch.resize(atoms, 1);
  batch.write('positions', positions);
  batch.write('masses', new Float64Array(atoms).fill(1));
  batch.write('atomicNumbers', new Int32Array(atoms).fill(18));
  batch.write('systemIndex', new Int32Array(atoms));
  batch.write('numAtoms', Int32Array.of(atoms));
  batch.write('ptr', Int32Array.of(0, atoms));
  batch.write('cell', Float64Array.of(side, 0, 0, 0, side, 0, 0, 0, side));
  batch.write('pbc', Uint8Array.of(1, 1, 1));
  return batch;
}

/** Calls per second of fn(i), over at least `seconds` and 3 calls, after one warm-up call. */
function rate(fn, seconds) {
  fn(0);
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  while (calls < 3 || elapsed < seconds) {
    fn(++calls);
    elapsed = (performance.now() - start) / 1000;
  }
  return calls / elapsed;
}

function measure(backend, cells) {
  const batch = latticeBatch(backend, cells);
  const model = new binding.LennardJones(Float64Array.of(0, 0, 1, 1, 2.5), false, 0, SKIN);
  model.compute(batch, true, false);
  const energyPerAtom = batch.hostView('energy', false)[0] / batch.numAtoms;
  const evals = rate(() => model.compute(batch, true, false), options.seconds);
  // Alternating skins one part in 1e9 apart: every call rebuilds, and no position leaves the host.
  const withBuilds = rate((i) => {
    model.setSkin(i % 2 === 0 ? SKIN : SKIN * (1 + 1e-9));
    model.compute(batch, true, false);
  }, options.seconds);
  const buildSeconds = Math.max(1 / withBuilds - 1 / evals, 1e-9);
  return { atoms: batch.numAtoms, energyPerAtom, evals, builds: 1 / buildSeconds, pairs: model.neighborStats().pairs, peakRssMiB: peakRssMiB() };
}

const start = performance.now();
console.log(`bench/gpu: ${machineLine()}`);
console.log(`cpu backend: ${binding.getThreads()} threads; cuda backend: ${cuda.device}`);
const rows = [];
for (const cells of String(options.sizes).split(',').map(Number)) {
  const cpu = measure('cpu', cells);
  const gpu = measure('cuda', cells);
  if (cpu.pairs !== gpu.pairs || Math.abs(cpu.energyPerAtom - gpu.energyPerAtom) > 1e-12 * Math.abs(cpu.energyPerAtom)) {
    console.log(`warning: ${cpu.atoms} atoms: cpu and cuda disagree (E/N ${cpu.energyPerAtom} vs ${gpu.energyPerAtom}, pairs ${cpu.pairs} vs ${gpu.pairs})`);
  }
  // Both backends share this process: the peak RSS is the process's so far (host memory only).
  rows.push([fmt(cpu.atoms), 'cpu', fmt(cpu.evals, 1), fmt(cpu.builds, 1), sci(cpu.evals * cpu.atoms), '', cpu.peakRssMiB.toFixed(1)]);
  rows.push([fmt(gpu.atoms), 'cuda', fmt(gpu.evals, 1), fmt(gpu.builds, 1), sci(gpu.evals * gpu.atoms),
    `${fmt(gpu.evals / cpu.evals, 1)}× evals, ${fmt(gpu.builds / cpu.builds, 1)}× builds`, gpu.peakRssMiB.toFixed(1)]);
}
console.log(markdownTable(['atoms', 'backend', 'force evals/s', 'neighbor builds/s', 'atom-evals/s', 'cuda / cpu', 'peak RSS so far (MiB, host)'], rows,
  ['r', 'l', 'r', 'r', 'r', 'l', 'r']));
console.log(`in.lj geometry (fcc ρ 0.8442, rc 2.5, skin 0.3, fp64); ${((performance.now() - start) / 1000).toFixed(1)} s`);
