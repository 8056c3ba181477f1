#!/usr/bin/env node
// The GPU engine's workloads (issue 25), cpu (every core) against cuda in one run, each backend in a child
// process of its own (the backend is chosen once per process), with the device ledger's counts per step next
// to each row (docs/cuda.md, "The device ledger"):
// - batched FIRE of 65,536 rattled LJ13 clusters (cutoff 10σ, fmax 1e-3): systems/s, timing the relaxation
//   only, as the PyTorch reference does (202,000/s on an H200); the batch is built before the clock starts;
// - in.lj NVE at 1,048,576 atoms (fcc ρ 0.8442, T 1.44, rc 2.5, skin 0.3, dt 0.005, fp64), rebuilds included;
// - one 4,000-atom system of the same liquid, µs per step;
// - the cost of one no-op JS hook every 100 steps at 32,000 atoms;
// - construction: Batch.fromSystems against Batch.fromArrays for the 65,536 clusters;
// - on cpu: the small-system path against the general path for the same FIRE batch (HOOKMD_SMALL_SYSTEMS=0).
// Kernels still dark run when HOOKMD_CUDA_UNVERIFIED=1 is set (scripts/gpu-check.sh bench sets it).
//
// --rounds R runs the FIRE relaxations R times, interleaved (small path, general path, small, ...), and the
// two constructions likewise (their order alternating from round to round), and keeps the best of each;
// --fire-only skips the MD rows (for the CPU comparison on a small machine). Each construction starts from a
// settled heap: the garbage and dropped batches of what ran before are collected and their native memory
// freed first, so neither constructor pays for the other's leftovers or for the relaxations' batches.
// Usage: node bench/gpu.mjs [--fire 65536] [--cells 64,10,20] [--seconds 2] [--backends cpu,cuda] [--rounds 1] [--fire-only]
// Needs dist/ (npm run build), the CPU addon and, for the cuda rows, the CUDA build (npm run native:cmake) and
// a GPU; without one it measures the cpu rows and says why.
import v8 from 'node:v8';
import vm from 'node:vm';

import { childMain, fmt, machineLine, markdownTable, parseArgs, peakRssMiB, runChild, sci, timed } from './lib/harness.mjs';
import { ljMeltBatch, ljMeltModel, rattledLj13 } from './lib/systems.mjs';

const HOOK_EVERY = 100;
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc');
const FIRE_MAX_STEPS = 20_000;

/** The ledger between two readings (or since a reset), per step. */
function perStep(after, steps, before = undefined) {
  const out = {};
  for (const key of Object.keys(after)) out[key] = (after[key] - (before?.[key] ?? 0)) / Math.max(steps, 1);
  return out;
}

/** The clusters as flat arrays, as Batch.fromArrays takes them. */
function clusterArrays(clusters) {
  const positions = new Float64Array(39 * clusters.length);
  clusters.forEach((cluster, k) => cluster.forEach((p, i) => positions.set(p, 39 * k + 3 * i)));
  return { positions, atomicNumbers: new Int32Array(13 * clusters.length).fill(18), numAtomsPerSystem: new Int32Array(clusters.length).fill(13) };
}

/**
 * Collects garbage, then lets Node run the finalizers of the native handles it collected (on a later turn of
 * the event loop), so the batches dropped so far give their memory back before the next timed construction.
 */
async function settleHeap() {
  for (let pass = 0; pass < 2; pass++) {
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The clusters of `arrays` as the System objects Batch.fromSystems takes (positions as [x, y, z] rows). */
function clusterSystems(arrays, symbols) {
  const { positions, numAtomsPerSystem } = arrays;
  return Array.from(numAtomsPerSystem, (count, k) =>
    ({ symbols, positions: Array.from({ length: count }, (_, i) => Array.from(positions.subarray(39 * k + 3 * i, 39 * k + 3 * i + 3))) }));
}

/** FIRE over `arrays`, timing run() only; the ledger per batch step. */
async function relaxClusters(hookmd, arrays) {
  const batch = hookmd.Batch.fromArrays(arrays, { units: 'lj' });
  const model = new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });
  const engine = new hookmd.FIRE({ model, convergence: hookmd.ConvergenceHook.fromFmax(1e-3) });
  batch.resetDeviceStats();
  batch.resetTransferStats();
  const { wallSeconds, cpuSeconds, value: result } = await timed(() => engine.run(batch, { steps: FIRE_MAX_STEPS }));
  const ledger = batch.deviceStats();
  const moved = batch.transferStats();
  const energies = batch.read('energy');
  return {
    systems: batch.numSystems, wallSeconds, cpuSeconds, steps: result.steps, converged: result.converged.reduce((a, b) => a + b, 0),
    meanEnergy: energies.reduce((a, b) => a + b, 0) / energies.length, ledger: perStep(ledger, result.steps),
    bytesPerStep: (moved.toHostBytes + moved.toDeviceBytes) / result.steps,
  };
}

/** Steps per second of `md` on `batch` over at least `seconds`, in whole hundreds of steps, with the ledger per step. */
async function stepsPerSecond(md, batch, seconds) {
  const warm = await timed(() => md.run(batch, { steps: 10 }));
  const perStepSeconds = Math.max(warm.wallSeconds / 10, 1e-6);
  const steps = Math.max(HOOK_EVERY, Math.ceil(seconds / perStepSeconds / HOOK_EVERY) * HOOK_EVERY);
  const before = batch.deviceStats();
  const { wallSeconds } = await timed(() => md.run(batch, { steps }));
  return { steps, rate: steps / wallSeconds, ledger: perStep(batch.deviceStats(), steps, before) };
}

// --- child: one backend ---------------------------------------------------------------------------------
const faster = (best, run) => (best === undefined || run.wallSeconds < best.wallSeconds ? run : best);

async function backendRun({ fire, cells, seconds, compareSmall, rounds, fireOnly }) {
  const hookmd = await import('../dist/index.js');
  const info = hookmd.backendInfo();
  // Only the flat arrays stay alive: a heap holding the clusters as JS arrays would make every garbage
  // collection, and so every construction, slower than it is for a user of either constructor.
  const arrays = clusterArrays(rattledLj13(fire, 0.1));
  // Warm-up: kernels loaded and compiled on a small batch (the same first clusters) first.
  await relaxClusters(hookmd, clusterArrays(rattledLj13(Math.min(fire, 256), 0.1)));
  let fireRun;
  let general;
  for (let round = 0; round < rounds; ++round) {
    fireRun = faster(fireRun, await relaxClusters(hookmd, arrays));
    if (compareSmall) {
      process.env.HOOKMD_SMALL_SYSTEMS = '0';
      general = faster(general, await relaxClusters(hookmd, arrays));
      delete process.env.HOOKMD_SMALL_SYSTEMS;
    }
  }
  const construction = { fromSystems: Infinity, fromArrays: Infinity, rounds: { fromSystems: [], fromArrays: [] } };
  // Each constructor runs beside its own input only, as its user holds it: fromSystems the 65,536 System
  // objects (made again for each of its rounds, outside the clock, from the flat arrays), fromArrays the
  // flat arrays. A batch is dropped as soon as it is timed, as a pipeline drops the batch it is done with.
  const symbols = Array(13).fill('Ar');
  const constructors = [
    ['fromSystems', () => clusterSystems(arrays, symbols), (systems) => hookmd.Batch.fromSystems(systems, { units: 'lj' })],
    ['fromArrays', () => arrays, (input) => hookmd.Batch.fromArrays(input, { units: 'lj' })],
  ];
  for (let round = 0; round < rounds; ++round) {
    for (const [name, input, build] of round % 2 === 0 ? constructors : [...constructors].reverse()) {
      let given = input();
      await settleHeap();
      const { wallSeconds } = await timed(() => build(given));
      given = undefined;
      construction.rounds[name].push(wallSeconds);
      construction[name] = Math.min(construction[name], wallSeconds);
    }
  }
  if (fireOnly) return { backend: info.backend, device: info.device, kernels: info.kernels, fire: fireRun, general, construction, peakRssMiB: peakRssMiB() };

  const [big, small, hooked] = cells;
  const nve = async (size) => {
    const batch = ljMeltBatch(hookmd, size);
    const md = new hookmd.VelocityVerlet({ model: ljMeltModel(hookmd), dt: 0.005 });
    return { atoms: batch.numAtoms, ...(await stepsPerSecond(md, batch, seconds)) };
  };
  const nveBig = await nve(big);
  const nveSmall = await nve(small);
  const hookBatch = ljMeltBatch(hookmd, hooked);
  const model = ljMeltModel(hookmd);
  const plain = await stepsPerSecond(new hookmd.VelocityVerlet({ model, dt: 0.005 }), hookBatch, seconds);
  const withHook = new hookmd.VelocityVerlet({ model, dt: 0.005 });
  withHook.register({ stage: hookmd.DynamicsStage.BEFORE_STEP, frequency: HOOK_EVERY, name: 'noop', call: () => {} });
  const hookedRun = await stepsPerSecond(withHook, hookBatch, seconds);
  return {
    backend: info.backend, device: info.device, kernels: info.kernels, fire: fireRun, general,
    construction, nveBig, nveSmall, hook: { atoms: hookBatch.numAtoms, plain: plain.rate, hooked: hookedRun.rate, ledger: hookedRun.ledger },
    peakRssMiB: peakRssMiB(),
  };
}

// --- parent ---------------------------------------------------------------------------------------------
const ledgerCell = (l) => `${fmt(l.launches, 2)} launches, ${fmt(l.hostSyncs, 3)} waits, ${fmt(l.controlToHostBytes + l.controlToDeviceBytes, 0)} B ctl${l.systemsRebuilt > 0 ? `, ${fmt(l.systemsRebuilt, 1)} rebuilt` : ''}`;

async function main() {
  const options = parseArgs({ fire: 65536, cells: '64,10,20', seconds: 2, backends: 'cpu,cuda', rounds: 1, fireOnly: false });
  const fireOnly = options.fireOnly === true;
  const cells = String(options.cells).split(',').map(Number);
  const started = performance.now();
  const script = new URL(import.meta.url);
  const runs = [];
  for (const backend of String(options.backends).split(',')) {
    process.stderr.write(`[gpu] ${backend}\n`);
    try {
      runs.push(await runChild(script, { fire: Number(options.fire), cells, seconds: Number(options.seconds), compareSmall: backend === 'cpu',
        rounds: Number(options.rounds), fireOnly },
        { env: { HOOKMD_BACKEND: backend }, retries: 0 }));
    } catch (error) {
      if (backend !== 'cuda') throw error;
      const reason = /reason: '([^']*)'/.exec(String(error.message))?.[1] ?? 'see stderr';
      console.log(`bench/gpu: the cuda backend is not usable here (${reason}); cpu rows only.\n`);
    }
  }
  const [cpu, gpu] = runs;
  console.log(`## bench/gpu — ${runs.map((r) => `${r.backend}: ${r.device}`).join('; ')}\n`);
  console.log(`${machineLine()}; kernels verified: ${cpu.kernels.verified.join(', ')}; dark: ${cpu.kernels.dark.join(', ') || 'none'}` +
    `${process.env.HOOKMD_CUDA_UNVERIFIED === '1' ? ' (run, HOOKMD_CUDA_UNVERIFIED=1)' : ' (not run)'}\n`);
  const ratio = (a, b) => (b === undefined ? '' : `${fmt(a / b, 1)}×`);
  const rows = [];
  for (const run of runs) {
    const f = run.fire;
    rows.push([`batched FIRE, ${fmt(f.systems)} rattled LJ13`, run.backend, `${fmt(f.systems / f.wallSeconds)} systems/s (${f.steps} steps, ${f.converged} converged)`,
      ledgerCell(f.ledger), run === cpu ? '' : ratio(f.systems / f.wallSeconds, cpu.fire.systems / cpu.fire.wallSeconds), '≥ 2,000,000 systems/s (H200)']);
  }
  const mdRuns = runs.filter((run) => run.nveBig !== undefined);
  for (const run of mdRuns) {
    const r = run.nveBig;
    rows.push([`in.lj NVE, ${fmt(r.atoms)} atoms`, run.backend, `${sci(r.rate * r.atoms)} atom-steps/s`, ledgerCell(r.ledger),
      run === cpu ? '' : ratio(r.rate, cpu.nveBig.rate), '≥ 1.6e9 atom-steps/s (H200)']);
  }
  for (const run of mdRuns) {
    const r = run.nveSmall;
    rows.push([`one ${fmt(r.atoms)}-atom system`, run.backend, `${fmt(1e6 / r.rate, 1)} µs/step`, ledgerCell(r.ledger), run === cpu ? '' : ratio(r.rate, cpu.nveSmall.rate),
      '≤ 20 µs/step']);
  }
  for (const run of mdRuns) {
    const h = run.hook;
    rows.push([`no-op JS hook every ${HOOK_EVERY} steps, ${fmt(h.atoms)} atoms`, run.backend, `${(100 * (1 - h.hooked / h.plain)).toFixed(1)} % of the step rate`,
      ledgerCell(h.ledger), '', '≤ 2 %']);
  }
  for (const run of runs) {
    const c = run.construction;
    const each = (name) => c.rounds[name].map((s) => s.toFixed(3)).join(', ');
    rows.push([`construction, ${fmt(run.fire.systems)} LJ13 (best of ${c.rounds.fromArrays.length}, interleaved)`, run.backend,
      `fromSystems ${c.fromSystems.toFixed(3)} s (${each('fromSystems')}), fromArrays ${c.fromArrays.toFixed(3)} s (${each('fromArrays')})`, '',
      `fromArrays ${fmt(c.fromSystems / c.fromArrays, 1)}× faster`, 'fromArrays ≥ 20× faster']);
  }
  if (cpu.general !== undefined) {
    const small = cpu.fire;
    const general = cpu.general;
    rows.push([`CPU FIRE, ${fmt(small.systems)} LJ13: small-system path`, 'cpu', `${fmt(small.systems / small.wallSeconds)} systems/s`, '', '', '']);
    rows.push([`CPU FIRE, ${fmt(general.systems)} LJ13: general path (today)`, 'cpu', `${fmt(general.systems / general.wallSeconds)} systems/s`, '',
      `small path ${ratio(general.wallSeconds, small.wallSeconds)} by wall time, ${ratio(general.cpuSeconds, small.cpuSeconds)} by CPU time` +
      `${small.steps === general.steps && small.meanEnergy === general.meanEnergy ? '; same steps and energies' : '; RESULTS DIFFER'}`, '≥ 3×']);
  }
  console.log(markdownTable(['workload', 'backend', 'rate', 'ledger per step', 'ratio', 'target (issue 25)'], rows, ['l', 'l', 'r', 'l', 'l', 'l']));
  console.log(`\npeak RSS (host, each backend's process): ${runs.map((r) => `${r.backend} ${r.peakRssMiB.toFixed(1)} MiB`).join(', ')}`);
  console.log(`\nnode bench/gpu.mjs ${process.argv.slice(2).join(' ')}; ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (!(await childMain(backendRun))) await main();
