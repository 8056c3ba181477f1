#!/usr/bin/env node
// Variable-cell relaxation, hookmd batched vs ASE one by one: --count (default 1,024) 32-atom fcc argon cells
// (a = 5.3 Å, 2×2×2 conventional cells), each strained by its own random strain (±3 % along the axes, ±1 %
// shear) and rattled by 0.05 Å; generated here, deterministically, and handed to both codes as the same JSON.
// Argon is LJ ε = 0.0104 eV, σ = 3.4 Å, rc = 8.5 Å (metal units). hookmd relaxes all of them in one batch
// with FIRE through CellFilter (ASE's FrechetCellFilter parametrisation) to fmax --fmax and stress --smax;
// ASE 3.22 relaxes them one by one with FIRE through ExpCellFilter (3.22 predates FrechetCellFilter) and
// its LennardJones, to fmax --fmax over the filter's rows (a cell row ≈ V·σ/N, so --smax defaults to
// fmax·N/V). ASE is timed on the first --ase-count structures and extrapolated linearly to all of them.
//
// Usage: node bench/cell-relax.mjs [--count 1024] [--ase-count 8] [--rounds 2] [--fmax 0.001] [--smax fmax·N/V]
// Needs dist/ (npm run build), build/Release/hookmd.node, and ASE importable by /usr/bin/python3.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { argMin, childMain, fmt, machineLine, markdownTable, parseArgs, runChild, runExternal, sci, tempFile, timed } from './lib/harness.mjs';

const MAX_STEPS = 5000;
const ARGON = { epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 };

/** Deterministic strained, rattled crystals: { positions, cell } each (plain arrays). */
function crystals(count, seed = 2026) {
  let state = seed >>> 0;
  const uniform = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const normal = () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
  const a = 5.3;
  const base = [[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]];
  const sites = [];
  for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) for (let k = 0; k < 2; k++) for (const b of base) sites.push([(i + b[0]) * a, (j + b[1]) * a, (k + b[2]) * a]);
  return Array.from({ length: count }, () => {
    const e = [0, 1, 2].map(() => 0.06 * (uniform() - 0.5));
    const g = [0, 1, 2].map(() => 0.02 * (uniform() - 0.5));
    const t = [[1 + e[0], g[0], g[1]], [g[0], 1 + e[1], g[2]], [g[1], g[2], 1 + e[2]]];
    const apply = (r) => [0, 1, 2].map((c) => r[0] * t[0][c] + r[1] * t[1][c] + r[2] * t[2][c]);
    return {
      positions: sites.map((r) => apply(r.map((x) => x + 0.05 * normal()))),
      cell: [[2 * a, 0, 0], [0, 2 * a, 0], [0, 0, 2 * a]].map(apply),
    };
  });
}

const ASE_SCRIPT = String.raw`
import json, sys, time
import numpy as np
import ase
from ase import Atoms
from ase.calculators.lj import LennardJones
from ase.constraints import ExpCellFilter
from ase.optimize import FIRE
data = json.load(open(sys.argv[1]))
count, fmax = int(sys.argv[2]), float(sys.argv[3])
steps, energies, volumes = [], [], []
t0 = time.perf_counter(); c0 = time.process_time()
for case in data[:count]:
    atoms = Atoms('Ar32', positions=case['positions'], cell=case['cell'], pbc=True)
    atoms.calc = LennardJones(epsilon=${ARGON.epsilon}, sigma=${ARGON.sigma}, rc=${ARGON.cutoff})
    opt = FIRE(ExpCellFilter(atoms), logfile=None)
    opt.run(fmax=fmax, steps=${MAX_STEPS})
    steps.append(opt.get_number_of_steps())
    energies.append(atoms.get_potential_energy() / len(atoms))
    volumes.append(atoms.get_volume())
print(json.dumps({'ase': ase.__version__, 'wallSeconds': time.perf_counter() - t0, 'cpuSeconds': time.process_time() - c0,
                  'steps': steps, 'energies': energies, 'volumes': volumes}))
`;

// --- child: hookmd relaxes the whole set in one batch ---------------------------------------------------
async function hookmdRun({ file, fmax, smax, threads, rounds }) {
  const hookmd = await import('../dist/index.js');
  hookmd.setThreads(threads);
  const cases = JSON.parse(readFileSync(file, 'utf8'));
  const symbols = Array(32).fill('Ar');
  const relax = () => {
    const batch = hookmd.Batch.fromSystems(cases.map(({ positions, cell }) => ({ symbols, positions, cell, pbc: true })));
    const model = new hookmd.LennardJones({ ...ARGON, shift: true });
    const fire = new hookmd.FIRE({ model, cellFilter: new hookmd.CellFilter(), convergence: hookmd.ConvergenceHook.fromFmaxAndStress(fmax, smax) });
    return fire.run(batch, { steps: MAX_STEPS }).then((result) => ({ batch, result }));
  };
  await relax(); // warm-up
  const times = [];
  let last;
  for (let r = 0; r < rounds; r++) {
    const { wallSeconds, cpuSeconds, value } = await timed(relax);
    times.push({ wallSeconds, cpuSeconds });
    last = value;
  }
  const { batch, result } = last;
  const cells = batch.read('cell');
  const volume = (m) => Math.abs(m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]));
  return {
    threads: hookmd.getThreads(),
    times,
    batchSteps: result.steps,
    converged: result.converged.reduce((a, b) => a + b, 0),
    energies: Array.from(batch.read('energy'), (e) => e / 32),
    volumes: Array.from({ length: batch.numSystems }, (_, k) => volume(cells.subarray(9 * k, 9 * k + 9))),
  };
}

// --- parent ---------------------------------------------------------------------------------------------
async function main() {
  const options = parseArgs({ count: 1024, aseCount: 8, rounds: 2, fmax: 0.001, smax: 0 });
  const { count, rounds, fmax } = options;
  const cases = crystals(count);
  const volume = (2 * 5.3) ** 3;
  const smax = options.smax > 0 ? options.smax : (fmax * 32) / volume;
  const aseCount = Math.min(options.aseCount, count);
  const started = machineLine();
  const file = tempFile('crystals.json', JSON.stringify(cases));
  const script = new URL(import.meta.url);
  try {
    process.stderr.write(`[cell-relax] hookmd: ${count} cells, 1 thread and all threads\n`);
    const one = await runChild(script, { file: file.path, fmax, smax, threads: 1, rounds }, { env: { HOOKMD_THREADS: '1' } });
    const all = await runChild(script, { file: file.path, fmax, smax, threads: 0, rounds });
    if (spawnSync('/usr/bin/python3', ['-c', 'import ase'], { stdio: 'ignore' }).status !== 0) {
      console.log(`hookmd: ${one.times.map((t) => t.wallSeconds.toFixed(3)).join(', ')} s (1 thread); /usr/bin/python3 cannot import ase, no comparison.`);
      return;
    }
    process.stderr.write(`[cell-relax] ASE: ${aseCount} cells one by one\n`);
    const py = tempFile('ase_cell.py', ASE_SCRIPT);
    let aseOut;
    try {
      aseOut = await runExternal('/usr/bin/python3', [py.path, file.path, String(aseCount), String(fmax)]);
    } finally {
      py.cleanup();
    }
    const ase = JSON.parse(aseOut.stdout.trim().split('\n').pop());
    const asePerSystem = ase.wallSeconds / aseCount;
    const best = (run) => run.times[argMin(run.times.map((t) => t.wallSeconds))].wallSeconds;
    const row = (label, run) => [label, run.threads, best(run).toFixed(3), run.times.map((t) => t.wallSeconds.toFixed(3)).join(', '),
      sci(best(run) / count, 3), `${fmt(asePerSystem / (best(run) / count), 0)}×`, run.peakRssMiB.toFixed(1)];
    console.log(`## cell-relax — ${fmt(count)} strained, rattled 32-atom fcc argon cells: hookmd batched FIRE + CellFilter vs ASE FIRE + ExpCellFilter\n`);
    console.log(`${started}; hookmd: best of ${rounds} timed runs after one warm-up, fmax ${fmax} eV/Å and |σ| ≤ ${sci(smax, 2)} eV/Å³; ASE ${ase.ase}: fmax ${fmax} over the filter's rows\n`);
    console.log(markdownTable(['run', 'threads', 'wall for all (s)', 'every round (s)', 's per system', 'per-system speedup vs ASE', 'peak RSS (MiB)'], [
      [`ASE ${ase.ase} FIRE + ExpCellFilter, one by one (${aseCount} timed)`, 1, `${(asePerSystem * count).toFixed(1)} (extrap.)`, '—', sci(asePerSystem, 3), '1×', aseOut.peakRssMiB.toFixed(1)],
      row(`hookmd FIRE + CellFilter, one batch of ${count}`, one),
      row(`hookmd FIRE + CellFilter, one batch of ${count}`, all),
    ], ['l', 'r', 'r', 'r', 'r', 'r', 'r']));
    const n = aseCount;
    const eDiff = Math.max(...ase.energies.map((e, i) => Math.abs(e - all.energies[i])));
    const vDiff = Math.max(...ase.volumes.map((v, i) => Math.abs(v / all.volumes[i] - 1)));
    console.log(`\nhookmd: ${all.converged}/${count} converged, the batch ran ${all.batchSteps} steps (its slowest cell). ASE took ` +
      `${ase.steps.join(', ')} FIRE steps. Over the ${n} cells both relaxed: largest |ΔE/atom| ${sci(eDiff, 2)} eV, largest relative volume difference ${sci(vDiff, 2)}.`);
  } finally {
    file.cleanup();
  }
}

if (!(await childMain(hookmdRun))) await main();
