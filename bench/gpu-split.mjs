#!/usr/bin/env node
// Where the GPU engine's time goes (docs/cuda.md, "Profiling on a device"): one device call that replaces the
// estimates of the GPU issues with measurements.
// - Batched FIRE of rattled LJ13 clusters (cutoff 10σ, fmax 1e-3), split into its parts: the start (the
//   first forces and their hooks: `run(batch, { steps: 0 })`), the steps (the same engine continuing:
//   `run(batch, { steps })`) and the read-back of positions and energies; beside it the same relaxation as
//   one `run()` on a fresh batch, which is the baseline the parts must add up to. Interleaved rounds, best of
//   each part.
// - in.lj NVE (fcc ρ 0.8442, T* 1.44, rc 2.5, skin 0.3, dt 0.005) at 1,048,576 and 4,000 atoms, as ten
//   consecutive 256-step runs of one batch: µs per step, and the device ledger and the host/device transfers
//   of each run, so a run that replays steps, regrows rows or recaptures a graph shows as the run it happened in.
// Each backend runs in a child process of its own (the backend is chosen once per process). The ledger is
// zero on cpu, which has no device; on mirror it is what cuda would do.
// Usage: node bench/gpu-split.mjs [--backends cuda] [--fire 65536] [--rounds 3] [--cells 64,10] [--runs 10]
//          [--steps 256] [--json out.jsonl]
// Needs dist/ (npm run build) and, for cuda, the CUDA build and a GPU (scripts/gpu-check.sh split runs it with
// HOOKMD_CUDA_UNVERIFIED=1, so the dark kernels are in the figures).
import { appendFileSync } from 'node:fs';

import { childMain, fmt, machineLine, markdownTable, parseArgs, runChild, timed } from './lib/harness.mjs';
import { ljMeltBatch, ljMeltModel, rattledLj13 } from './lib/systems.mjs';

const FIRE_MAX_STEPS = 20_000;

/** The clusters as the flat arrays Batch.fromArrays takes. */
function clusterArrays(clusters) {
  const positions = new Float64Array(39 * clusters.length);
  clusters.forEach((cluster, k) => cluster.forEach((p, i) => positions.set(p, 39 * k + 3 * i)));
  return { positions, atomicNumbers: new Int32Array(13 * clusters.length).fill(18), numAtomsPerSystem: new Int32Array(clusters.length).fill(13) };
}

function fireEngine(hookmd) {
  const model = new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });
  return new hookmd.FIRE({ model, convergence: hookmd.ConvergenceHook.fromFmax(1e-3) });
}

/** What `batch` counted since its counters were last reset. */
function counters(batch) {
  return { ledger: batch.deviceStats(), transfers: batch.transferStats() };
}

function resetCounters(batch) {
  batch.resetDeviceStats();
  batch.resetTransferStats();
}

/** One split relaxation: start, steps and read-back timed apart, each with its own counters. */
async function splitFire(hookmd, arrays) {
  const batch = hookmd.Batch.fromArrays(arrays, { units: 'lj' });
  const engine = fireEngine(hookmd);
  resetCounters(batch);
  const start = await timed(() => engine.run(batch, { steps: 0 }));
  const startCounters = counters(batch);
  resetCounters(batch);
  const steps = await timed(() => engine.run(batch, { steps: FIRE_MAX_STEPS }));
  const stepCounters = counters(batch);
  resetCounters(batch);
  const readBack = await timed(() => [batch.read('positions'), batch.read('energy')]);
  const energies = readBack.value[1];
  return {
    start: { seconds: start.wallSeconds, ...startCounters },
    steps: { seconds: steps.wallSeconds, steps: steps.value.steps, ...stepCounters },
    readBack: { seconds: readBack.wallSeconds, ...counters(batch) },
    converged: steps.value.converged.reduce((a, b) => a + b, 0),
    meanEnergy: energies.reduce((a, b) => a + b, 0) / energies.length,
  };
}

/** The same relaxation as one run() on a fresh batch, read back at the end: the baseline of the split. */
async function wholeFire(hookmd, arrays) {
  const batch = hookmd.Batch.fromArrays(arrays, { units: 'lj' });
  const engine = fireEngine(hookmd);
  resetCounters(batch);
  const run = await timed(async () => {
    const result = await engine.run(batch, { steps: FIRE_MAX_STEPS });
    return { result, energies: batch.read('energy'), positions: batch.read('positions') };
  });
  const { result, energies } = run.value;
  return {
    seconds: run.wallSeconds, steps: result.steps, converged: result.converged.reduce((a, b) => a + b, 0),
    meanEnergy: energies.reduce((a, b) => a + b, 0) / energies.length, ...counters(batch),
  };
}

const best = (runs, pick) => runs.reduce((a, b) => (pick(b) < pick(a) ? b : a));

/** Ten (or `runs`) consecutive `steps`-step NVE runs of one in.lj batch, each with its own counters. */
async function mdRuns(hookmd, cells, runs, steps) {
  const batch = ljMeltBatch(hookmd, cells);
  const md = new hookmd.VelocityVerlet({ model: ljMeltModel(hookmd), dt: 0.005 });
  const out = [];
  for (let run = 0; run < runs; ++run) {
    resetCounters(batch);
    const { wallSeconds } = await timed(() => md.run(batch, { steps }));
    out.push({ run, microsecondsPerStep: (1e6 * wallSeconds) / steps, ...counters(batch) });
  }
  return { atoms: batch.numAtoms, steps, runs: out };
}

// --- child: one backend ---------------------------------------------------------------------------------
async function backendRun({ fire, rounds, cells, runs, steps }) {
  const hookmd = await import('../dist/index.js');
  const info = hookmd.backendInfo();
  const arrays = clusterArrays(rattledLj13(fire, 0.1));
  // Warm-up: kernels loaded and compiled on the first clusters, so the first timed start is not the first launch.
  await wholeFire(hookmd, clusterArrays(rattledLj13(Math.min(fire, 256), 0.1)));
  const split = [];
  const whole = [];
  for (let round = 0; round < rounds; ++round) {
    if (round % 2 === 0) {
      split.push(await splitFire(hookmd, arrays));
      whole.push(await wholeFire(hookmd, arrays));
    } else {
      whole.push(await wholeFire(hookmd, arrays));
      split.push(await splitFire(hookmd, arrays));
    }
  }
  const md = [];
  for (const size of cells) md.push(await mdRuns(hookmd, size, runs, steps));
  return { backend: info.backend, device: info.device, kernels: info.kernels, fire: { systems: fire, split, whole }, md };
}

// --- parent ---------------------------------------------------------------------------------------------
const ms = (seconds) => `${fmt(1000 * seconds, 1)} ms`;
const ledgerCell = (l) =>
  `${fmt(l.launches)} launches, ${fmt(l.graphLaunches)} graphs (${fmt(l.graphCaptures)} captured), ${fmt(l.hostSyncs)} waits, ` +
  `${fmt(l.controlToHostBytes + l.controlToDeviceBytes)} B ctl, ${fmt(l.systemsRebuilt)} rebuilt${l.rowRegrowths > 0 ? `, ${fmt(l.rowRegrowths)} regrown` : ''}`;
const transferCell = (t) => `${fmt(t.toDeviceBytes)} B ↑ (${fmt(t.toDeviceCopies)}), ${fmt(t.toHostBytes)} B ↓ (${fmt(t.toHostCopies)})`;

function fireRows(run) {
  const { split, whole, systems } = run.fire;
  const start = best(split, (s) => s.start.seconds).start;
  const steps = best(split, (s) => s.steps.seconds).steps;
  const readBack = best(split, (s) => s.readBack.seconds).readBack;
  const one = best(whole, (w) => w.seconds);
  const sum = start.seconds + steps.seconds + readBack.seconds;
  const spread = (values) => values.map((s) => (1000 * s).toFixed(1)).join(', ');
  const same = split.every((s) => s.steps.steps === one.steps && s.converged === one.converged && s.meanEnergy === one.meanEnergy);
  return [
    [`FIRE ${fmt(systems)} LJ13: start`, run.backend, ms(start.seconds), ledgerCell(start.ledger), transferCell(start.transfers), spread(split.map((s) => s.start.seconds))],
    [`FIRE: ${fmt(steps.steps)} steps`, run.backend, `${ms(steps.seconds)} (${fmt((1e6 * steps.seconds) / Math.max(steps.steps, 1), 1)} µs/step)`,
      ledgerCell(steps.ledger), transferCell(steps.transfers), spread(split.map((s) => s.steps.seconds))],
    [`FIRE: read-back`, run.backend, ms(readBack.seconds), ledgerCell(readBack.ledger), transferCell(readBack.transfers), spread(split.map((s) => s.readBack.seconds))],
    [`FIRE: one run() (baseline)`, run.backend, `${ms(one.seconds)}; parts ${fmt(sum / one.seconds, 2)}× of it; ${fmt(systems / one.seconds)} systems/s`,
      ledgerCell(one.ledger), transferCell(one.transfers),
      `${spread(whole.map((w) => w.seconds))}${same ? '; same steps and energies as the split' : '; SPLIT DIFFERS'}`],
  ];
}

function mdRowsOf(run) {
  return run.md.flatMap(({ atoms, steps, runs }) =>
    runs.map((r) => [`in.lj NVE ${fmt(atoms)} atoms, run ${r.run + 1} (${steps} steps)`, run.backend, `${fmt(r.microsecondsPerStep, 1)} µs/step`,
      ledgerCell(r.ledger), transferCell(r.transfers), '']));
}

async function main() {
  const options = parseArgs({ backends: 'cuda', fire: 65536, rounds: 3, cells: '64,10', runs: 10, steps: 256, json: '' });
  const cells = String(options.cells).split(',').map(Number);
  const started = performance.now();
  const script = new URL(import.meta.url);
  const results = [];
  for (const backend of String(options.backends).split(',')) {
    process.stderr.write(`[gpu-split] ${backend}\n`);
    const result = await runChild(script, { fire: Number(options.fire), rounds: Number(options.rounds), cells, runs: Number(options.runs), steps: Number(options.steps) },
      { env: { HOOKMD_BACKEND: backend }, retries: 0 });
    results.push(result);
    if (options.json !== '') appendFileSync(String(options.json), `${JSON.stringify(result)}\n`);
  }
  console.log(`## bench/gpu-split — ${results.map((r) => `${r.backend}: ${r.device}`).join('; ')}\n`);
  console.log(`${machineLine()}; dark kernels: ${results[0].kernels.dark.join(', ') || 'none'}` +
    `${process.env.HOOKMD_CUDA_UNVERIFIED === '1' ? ' (run, HOOKMD_CUDA_UNVERIFIED=1)' : ' (not run)'}\n`);
  const rows = results.flatMap((run) => [...fireRows(run), ...mdRowsOf(run)]);
  console.log(markdownTable(['part', 'backend', 'time', 'ledger', 'transfers (copies)', 'rounds (ms)'], rows, ['l', 'l', 'r', 'l', 'l', 'l']));
  console.log(`\npeak RSS (host, each backend's process): ${results.map((r) => `${r.backend} ${r.peakRssMiB.toFixed(1)} MiB`).join(', ')}`);
  console.log(`\nnode bench/gpu-split.mjs ${process.argv.slice(2).join(' ')}; ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (!(await childMain(backendRun))) await main();
