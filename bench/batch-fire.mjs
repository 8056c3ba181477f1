#!/usr/bin/env node
// Batched FIRE vs ASE: 1,024 rattled LJ13 clusters (icosahedron, nearest neighbour 1.1σ, every coordinate
// displaced by a normal deviate of 0.1σ; generated here, deterministically, and handed to both codes as
// the same JSON) relaxed to fmax 1e-3 (lj units, ε = σ = 1, cutoff 10, no shift). hookmd relaxes all of
// them in one batch with FIRE; ASE 3.22 relaxes them one by one with ase.optimize.FIRE and its
// LennardJones(epsilon=1, sigma=1, rc=10) calculator, in one python process. ASE is timed on the first
// --ase-count structures (default 128) and extrapolated linearly to all of them when that is fewer.
// Reports wall time, structures/s, the speedup, total FIRE steps, peak RSS and the energies reached.
//
// Usage: node bench/batch-fire.mjs [--count 1024] [--ase-count 128] [--rounds 2] [--stdev 0.1] [--fmax 1e-3]
// Needs dist/ (npm run build), build/Release/hookmd.node, and ASE importable by /usr/bin/python3.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

import {
  argMin, childMain, fmt, machineLine, markdownTable, parseArgs, runChild, runExternal, sci, tempFile, timed,
} from './lib/harness.mjs';
import { rattledLj13 } from './lib/systems.mjs';

const MAX_STEPS = 10_000;
const CUTOFF = 10;
// ASE's LennardJones subtracts e0 = E(rc) from every pair inside rc (forces unchanged). All 78 pairs of
// an LJ13 cluster lie inside rc = 10σ, so an unshifted energy is ASE's plus 78·e0.
const ASE_E0 = 4 * (CUTOFF ** -12 - CUTOFF ** -6);
const PAIRS = (13 * 12) / 2;

const ASE_SCRIPT = String.raw`
import json, sys, time
from ase import Atoms
from ase.calculators.lj import LennardJones
from ase.optimize import FIRE
import ase
data = json.load(open(sys.argv[1]))
count, fmax = int(sys.argv[2]), float(sys.argv[3])
steps, energies = [], []
t0 = time.perf_counter(); c0 = time.process_time()
for positions in data[:count]:
    atoms = Atoms('Ar13', positions=positions)
    atoms.calc = LennardJones(epsilon=1.0, sigma=1.0, rc=10.0)
    opt = FIRE(atoms, logfile=None)
    opt.run(fmax=fmax, steps=${MAX_STEPS})
    steps.append(opt.get_number_of_steps())
    energies.append(atoms.get_potential_energy())
print(json.dumps({'ase': ase.__version__, 'wallSeconds': time.perf_counter() - t0, 'cpuSeconds': time.process_time() - c0,
                  'steps': steps, 'energies': energies}))
`;

// --- child: hookmd relaxes the whole set in one batch ---------------------------------------------------
async function hookmdRun({ positionsFile, fmax, threads, rounds }) {
  const hookmd = await import('../dist/index.js');
  hookmd.setThreads(threads);
  const clusters = JSON.parse(readFileSync(positionsFile, 'utf8'));
  const symbols = Array(13).fill('Ar');
  const relax = (record) => {
    const batch = hookmd.Batch.fromSystems(clusters.map((positions) => ({ symbols, positions })), { units: 'lj' });
    const model = new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: CUTOFF });
    const fire = new hookmd.FIRE({ model, convergence: hookmd.ConvergenceHook.fromFmax(fmax) });
    const steps = new Int32Array(clusters.length).fill(-1);
    if (record) {
      // A system that converges during step k has taken k + 1 FIRE steps (ASE's get_number_of_steps()).
      fire.register({
        stage: hookmd.DynamicsStage.ON_CONVERGE,
        frequency: 1,
        name: 'stepCounter',
        call: (ctx) => ctx.convergedMask.forEach((c, s) => { if (c) steps[s] = ctx.stepCount + 1; }),
      });
    }
    return fire.run(batch, { steps: MAX_STEPS }).then((result) => ({ batch, result, steps }));
  };
  await relax(false); // warm-up: JIT and first-touch allocations
  const times = [];
  for (let r = 0; r < rounds; r++) {
    const { wallSeconds, cpuSeconds, value } = await timed(() => relax(false));
    times.push({ wallSeconds, cpuSeconds, batchSteps: value.result.steps });
  }
  // One more run with an ON_CONVERGE hook that records each system's step count (it also shows what a
  // JS hook at ON_CONVERGE costs: native chunks pause at every step where some system converges).
  const counted = await timed(() => relax(true));
  const { batch, result, steps } = counted.value;
  return {
    threads: hookmd.getThreads(),
    times,
    counted: { wallSeconds: counted.wallSeconds, cpuSeconds: counted.cpuSeconds },
    batchSteps: result.steps,
    converged: result.converged.reduce((a, b) => a + b, 0),
    steps: Array.from(steps),
    energies: Array.from(batch.read('energy')),
  };
}

// --- parent ---------------------------------------------------------------------------------------------
/** Without ASE (no `import ase` under /usr/bin/python3): hookmd's rows only. */
function printHookmdOnly(count, fmax, rounds, started, one, all) {
  const best = (run) => Math.min(...run.times.map((t) => t.wallSeconds));
  console.log(`## batch-fire — ${fmt(count)} rattled LJ13 clusters to fmax ${fmax}: hookmd batched FIRE (ASE not found)\n`);
  console.log(`${started}; best of ${rounds} timed runs after one warm-up\n`);
  console.log(markdownTable(['run', 'threads', 'wall for all (s)', 'structures/s', 'total FIRE steps', 'peak RSS (MiB)'],
    [one, all].map((run) => [`hookmd FIRE, one batch of ${count}`, run.threads, best(run).toFixed(3), fmt(count / best(run)),
      fmt(run.steps.reduce((a, b) => a + b, 0)), run.peakRssMiB.toFixed(1)])));
  console.log(`\n${all.converged}/${count} converged; /usr/bin/python3 cannot import ase, so there is no ASE comparison.`);
}

async function main() {
  const options = parseArgs({ count: 1024, aseCount: 128, rounds: 2, stdev: 0.1, fmax: 1e-3 });
  const { count, rounds, stdev, fmax } = options;
  const aseCount = Math.min(options.aseCount, count);
  const started = machineLine();
  const clusters = rattledLj13(count, stdev);
  const file = tempFile('clusters.json', JSON.stringify(clusters));
  const script = new URL(import.meta.url);
  try {
    process.stderr.write(`[batch-fire] hookmd: ${count} clusters, 1 thread and all threads\n`);
    const one = await runChild(script, { positionsFile: file.path, fmax, threads: 1, rounds }, { env: { HOOKMD_THREADS: '1' } });
    const all = await runChild(script, { positionsFile: file.path, fmax, threads: 0, rounds });
    const haveAse = spawnSync('/usr/bin/python3', ['-c', 'import ase'], { stdio: 'ignore' }).status === 0;
    if (!haveAse) {
      printHookmdOnly(count, fmax, rounds, started, one, all);
      return;
    }
    process.stderr.write(`[batch-fire] ASE: ${aseCount} clusters one by one\n`);
    const py = tempFile('ase_fire.py', ASE_SCRIPT);
    let aseOut;
    try {
      aseOut = await runExternal('/usr/bin/python3', [py.path, file.path, String(aseCount), String(fmax)]);
    } finally {
      py.cleanup();
    }
    const ase = JSON.parse(aseOut.stdout.trim().split('\n').pop());

    // Speed.
    const aseFullSeconds = (ase.wallSeconds * count) / aseCount;
    const bestOf = (run) => run.times[argMin(run.times.map((t) => t.wallSeconds))];
    const b1 = bestOf(one);
    const bAll = bestOf(all);
    const perSecond = (seconds, n) => n / seconds;
    const aseRate = perSecond(ase.wallSeconds, aseCount);
    const rows = [
      [`ASE ${ase.ase} FIRE, one by one (${aseCount} timed${aseCount < count ? `, ×${count / aseCount} extrapolated` : ''})`, 1,
        `${aseFullSeconds.toFixed(2)}${aseCount < count ? ' (extrap.)' : ''}`, '—', fmt(aseRate, 1), '1×', aseOut.peakRssMiB.toFixed(1)],
      [`hookmd FIRE, one batch of ${count}`, one.threads, b1.wallSeconds.toFixed(3), one.times.map((t) => t.wallSeconds.toFixed(3)).join(', '),
        fmt(perSecond(b1.wallSeconds, count), 0), `${fmt(perSecond(b1.wallSeconds, count) / aseRate, 0)}×`, one.peakRssMiB.toFixed(1)],
      [`hookmd FIRE, one batch of ${count}`, all.threads, bAll.wallSeconds.toFixed(3), all.times.map((t) => t.wallSeconds.toFixed(3)).join(', '),
        fmt(perSecond(bAll.wallSeconds, count), 0), `${fmt(perSecond(bAll.wallSeconds, count) / aseRate, 0)}×`, all.peakRssMiB.toFixed(1)],
      [`hookmd, same + ON_CONVERGE JS hook counting steps`, all.threads, all.counted.wallSeconds.toFixed(3), '—',
        fmt(perSecond(all.counted.wallSeconds, count), 0), `${fmt(perSecond(all.counted.wallSeconds, count) / aseRate, 0)}×`, '(same process)'],
    ];
    console.log(`## batch-fire — ${fmt(count)} rattled LJ13 clusters to fmax ${fmax}: hookmd batched FIRE vs ASE FIRE\n`);
    console.log(`${started}; hookmd: best of ${rounds} timed runs after one warm-up (Batch.fromSystems + FIRE.run), ASE: one pass\n`);
    console.log(markdownTable(['run', 'threads', 'wall for all (s)', 'every round (s)', 'structures/s', 'speedup vs ASE', 'peak RSS (MiB)'], rows,
      ['l', 'r', 'r', 'r', 'r', 'r', 'r']));

    // Steps and energies, over the structures both relaxed.
    const n = aseCount;
    const ours = all.steps.slice(0, n);
    const theirs = ase.steps;
    const sum = (a) => a.reduce((x, y) => x + y, 0);
    const same = ours.filter((s, i) => s === theirs[i]).length;
    const diffs = ours.map((s, i) => Math.abs(s - theirs[i]));
    const eDiff = all.energies.slice(0, n).map((e, i) => Math.abs(e - (ase.energies[i] + PAIRS * ASE_E0)));
    const lj13 = -44.326801;
    const atMin = (list) => list.filter((e) => Math.abs(e - lj13) < 1e-3).length;
    console.log(`\nFIRE steps and energies on the ${n} structures both codes relaxed:\n`);
    console.log(markdownTable(['quantity', 'hookmd', 'ASE'], [
      ['total FIRE steps', fmt(sum(ours)), fmt(sum(theirs))],
      ['mean / min / max steps per structure', `${(sum(ours) / n).toFixed(1)} / ${Math.min(...ours)} / ${Math.max(...ours)}`,
        `${(sum(theirs) / n).toFixed(1)} / ${Math.min(...theirs)} / ${Math.max(...theirs)}`],
      ['structures with identical step counts', `${same} / ${n}`, ''],
      ['largest step-count difference', String(Math.max(...diffs)), ''],
      ['structures at the LJ13 minimum (E within 1e-3 of −44.326801)', `${atMin(all.energies.slice(0, n))} / ${n}`,
        `${atMin(ase.energies.map((e) => e + PAIRS * ASE_E0))} / ${n}`],
      ['largest per-structure energy difference (ASE + 78·e0, see below)', sci(Math.max(...eDiff)), ''],
    ], ['l', 'r', 'r']));
    console.log(`\nhookmd over all ${count}: ${all.converged}/${count} converged, ${fmt(sum(all.steps))} FIRE steps in total, ` +
      `the batch ran ${all.batchSteps} steps (until its slowest structure converged). ASE's LennardJones shifts each pair by ` +
      `e0 = 4(rc⁻¹² − rc⁻⁶) = ${sci(ASE_E0, 3)}, so ASE energies are compared as E + 78·e0. ASE CPU ${ase.cpuSeconds.toFixed(2)} s for ${aseCount}.`);
  } finally {
    file.cleanup();
  }
}

if (!(await childMain(hookmdRun))) await main();
