#!/usr/bin/env node
// Whole steps on the GPU against the cpu backend (every core), in one run: the numbers of docs/cuda.md.
// - in.lj NVE (VelocityVerlet + LennardJones, fcc ρ 0.8442, T 1.44, rc 2.5, skin 0.3, dt 0.005, fp64) at
//   4·cells³ atoms, in atom-steps/s with neighbor rebuilds included;
// - batched FIRE of rattled LJ13 clusters (as bench/batch-fire, fmax 1e-3, cutoff 10) in systems/s;
// - the cost of one no-op JS hook every 100 steps, as a percentage of the NVE throughput without it.
// Each backend runs in a child process of its own (the backend is chosen once per process). Every rate runs
// for at least --seconds after a warm-up; the steps per call are sized from the warm-up.
//
// Usage: node bench/gpu-step.mjs [--sizes 20,64,100] [--fire 65536] [--seconds 3] [--backends cpu,cuda]
// Needs dist/ (npm run build), the CPU addon and the CUDA build (npm run native:cmake); exits 0 with a
// message when cuda is not usable.
import {
  childMain, fmt, machineLine, markdownTable, parseArgs, runChild, sci, timed,
} from './lib/harness.mjs';
import { ljMeltBatch, ljMeltModel, rattledLj13 } from './lib/systems.mjs';

const HOOK_EVERY = 100;
const FIRE_MAX_STEPS = 10_000;

/** Steps of `md` on `batch` per second of wall time, over at least `seconds`, chunked as `chunk` steps. */
async function stepsPerSecond(md, batch, seconds) {
  const warm = await timed(() => md.run(batch, { steps: 10 }));
  const perStep = Math.max(warm.wallSeconds / 10, 1e-6);
  const steps = Math.max(HOOK_EVERY, Math.ceil(seconds / perStep / HOOK_EVERY) * HOOK_EVERY);
  const { wallSeconds } = await timed(() => md.run(batch, { steps }));
  return { steps, rate: steps / wallSeconds };
}

// --- child: one backend ---------------------------------------------------------------------------------
async function backendRun({ sizes, fire, seconds }) {
  const hookmd = await import('../dist/index.js');
  const info = hookmd.backendInfo();
  const nve = [];
  for (const cells of sizes) {
    const batch = ljMeltBatch(hookmd, cells);
    const model = ljMeltModel(hookmd);
    const md = new hookmd.VelocityVerlet({ model, dt: 0.005 });
    const plain = await stepsPerSecond(md, batch, seconds);
    const builds0 = model.neighborStats().builds;
    const hooked = new hookmd.VelocityVerlet({ model, dt: 0.005 });
    hooked.register({ stage: hookmd.DynamicsStage.BEFORE_STEP, frequency: HOOK_EVERY, name: 'noop', call: () => {} });
    const withHook = await stepsPerSecond(hooked, batch, seconds);
    const energy = batch.read('energy')[0] / batch.numAtoms;
    nve.push({
      atoms: batch.numAtoms, steps: plain.steps, stepsPerSecond: plain.rate, hookStepsPerSecond: withHook.rate,
      builds: model.neighborStats().builds - builds0, energyPerAtom: energy,
    });
  }
  let fireResult;
  if (fire > 0) {
    const symbols = Array(13).fill('Ar');
    const clusters = rattledLj13(fire, 0.1);
    const relax = () => {
      const batch = hookmd.Batch.fromSystems(clusters.map((positions) => ({ symbols, positions })), { units: 'lj' });
      const model = new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });
      const engine = new hookmd.FIRE({ model, convergence: hookmd.ConvergenceHook.fromFmax(1e-3) });
      batch.resetTransferStats();
      return engine.run(batch, { steps: FIRE_MAX_STEPS }).then((result) => ({ batch, result, model }));
    };
    await relax();
    const { wallSeconds, value } = await timed(relax);
    const energies = value.batch.read('energy');
    const moved = value.batch.transferStats();
    fireResult = {
      systems: fire, wallSeconds, batchSteps: value.result.steps, builds: value.model.neighborStats().builds,
      bytesPerStep: (moved.toHostBytes + moved.toDeviceBytes) / value.result.steps,
      converged: value.result.converged.reduce((a, b) => a + b, 0),
      meanEnergy: energies.reduce((a, b) => a + b, 0) / energies.length,
    };
  }
  return { backend: info.backend, device: info.device, nve, fire: fireResult };
}

// --- parent ---------------------------------------------------------------------------------------------
async function main() {
  const options = parseArgs({ sizes: '20,64,100', fire: 65536, seconds: 3, backends: 'cpu,cuda' });
  const sizes = String(options.sizes).split(',').map(Number);
  const started = performance.now();
  const script = new URL(import.meta.url);
  const runs = [];
  for (const backend of String(options.backends).split(',')) {
    process.stderr.write(`[gpu-step] ${backend}\n`);
    try {
      runs.push(await runChild(script, { sizes, fire: Number(options.fire), seconds: Number(options.seconds) },
        { env: { HOOKMD_BACKEND: backend }, retries: 0 }));
    } catch (error) {
      if (backend !== 'cuda') throw error;
      console.log(`bench/gpu-step: the cuda backend is not usable here (${String(error.message).split('\n').find((l) => /BACKEND|CUDA|cuda/.test(l)) ?? 'see stderr'}); nothing to measure.`);
      return;
    }
  }
  console.log(`## gpu-step — whole steps, ${runs.map((r) => `${r.backend}: ${r.device}`).join('; ')}\n`);
  console.log(`${machineLine()}\n`);
  const [base, ...others] = runs;
  const rows = [];
  sizes.forEach((_, i) => {
    for (const run of runs) {
      const row = run.nve[i];
      const ratio = run === base ? '' : `${fmt((row.stepsPerSecond * row.atoms) / (base.nve[i].stepsPerSecond * base.nve[i].atoms), 1)}×`;
      const hookCost = 100 * (1 - row.hookStepsPerSecond / row.stepsPerSecond);
      rows.push([fmt(row.atoms), run.backend, fmt(row.stepsPerSecond, 1), sci(row.stepsPerSecond * row.atoms),
        `${fmt(1e6 / row.stepsPerSecond, 1)}`, `${row.builds}`, `${hookCost.toFixed(1)} %`, row.energyPerAtom.toFixed(6), ratio, run.peakRssMiB.toFixed(1)]);
    }
  });
  console.log(markdownTable(
    ['atoms', 'backend', 'steps/s', 'atom-steps/s', 'µs/step', 'rebuilds', 'no-op JS hook every 100', 'PE/atom at end', `vs ${base.backend}`, 'peak RSS (MiB, the backend\'s process)'],
    rows, ['r', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']));
  if (base.fire !== undefined) {
    console.log('');
    console.log(markdownTable(['FIRE, rattled LJ13', 'backend', 'wall (s)', 'systems/s', 'batch steps', 'system lists built', 'host↔device bytes/step', 'converged', 'mean E', `vs ${base.backend}`, 'peak RSS (MiB, the backend\'s process)'],
      runs.map((run) => [fmt(run.fire.systems), run.backend, run.fire.wallSeconds.toFixed(3), fmt(run.fire.systems / run.fire.wallSeconds),
        `${run.fire.batchSteps}`, fmt(run.fire.builds), fmt(run.fire.bytesPerStep), `${run.fire.converged}`, run.fire.meanEnergy.toFixed(6),
        run === base ? '' : `${fmt(base.fire.wallSeconds / run.fire.wallSeconds, 1)}×`, run.peakRssMiB.toFixed(1)]),
      ['r', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']));
  }
  for (const run of others) {
    run.nve.forEach((row, i) => {
      if (row.atoms !== base.nve[i].atoms) console.log(`warning: sizes differ between ${base.backend} and ${run.backend}`);
    });
  }
  console.log(`\nnode bench/gpu-step.mjs ${process.argv.slice(2).join(' ')}; ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (!(await childMain(backendRun))) await main();
