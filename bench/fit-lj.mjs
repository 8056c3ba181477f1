// Fitting throughput: epochs per second of a Trainer on 1,000 argon configurations of 64 atoms (half
// strained, rattled fcc crystals, half random clusters; labelled with energy, forces and stress by hookmd's
// own LJ), and the cost of one loss-and-gradient evaluation over all of them relative to one plain force
// evaluation (LennardJones.compute on the same 1,000 systems), measured in the same process. Each thread
// count runs in a fresh process (HOOKMD_THREADS); rounds interleave them, and each keeps its best round.
// Usage: node bench/fit-lj.mjs [--configs 1000] [--epochs 10] [--batch-size 32] [--evals 10] [--rounds 3]
// Needs dist/ (npm run build) and build/Release/hookmd.node (npm run native:gyp).
import { availableParallelism } from 'node:os';

import { childMain, fmt, machineLine, markdownTable, parseArgs, runChild } from './lib/harness.mjs';

const options = parseArgs({ configs: 1000, epochs: 10, batchSize: 32, evals: 10, rounds: 3 });
const ARGON = { epsilon: 0.0104, sigma: 3.4, cutoff: 8.5, shift: true };

/** A 64-atom configuration: a 2×2×4 fcc crystal strained by ±3% and rattled, or a random cluster. */
function configuration(hookmd, k) {
  const rng = hookmd.createRng(1000 + k);
  if (k % 2 === 0) {
    const crystal = hookmd.repeat(hookmd.bulk('Ar', 'fcc', { a: 5.26, cubic: true }), [2, 2, 4]);
    const strain = [0, 1, 2].map(() => 1 + 0.06 * (rng.uniform() - 0.5));
    const cell = crystal.cell.map((row, i) => row.map((x) => x * strain[i]));
    const positions = crystal.positions.map((p) => p.map((x, c) => x * strain[c]));
    return hookmd.rattle({ ...crystal, cell, positions }, 0.1, k);
  }
  const positions = [];
  const radius = 3.3 * Math.cbrt(64) * 0.75;
  while (positions.length < 64) {
    const p = [0, 1, 2].map(() => (2 * rng.uniform() - 1) * radius);
    if (Math.hypot(...p) <= radius && positions.every((q) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) >= 3.3)) positions.push(p);
  }
  return { symbols: positions.map(() => 'Ar'), positions };
}

/** Mean seconds per call over `count` calls, after one warm-up call. */
function perCall(fn, count) {
  fn();
  const start = performance.now();
  for (let i = 0; i < count; i++) fn();
  return (performance.now() - start) / 1000 / count;
}

async function hookmdRound({ configs, epochs, batchSize, evals }) {
  const hookmd = await import('../dist/index.js');
  hookmd.configureNative({ backend: 'cpu' });
  const systems = Array.from({ length: configs }, (_, k) => configuration(hookmd, k));
  const truth = new hookmd.LennardJones(ARGON);
  const batch = hookmd.Batch.fromSystems(systems);
  truth.compute(batch, { stress: true });
  const labelled = batch.toSystems().map((s, k) => (k % 2 === 0 ? s : { ...s, stress: undefined }));

  // One force evaluation of all systems (neighbor lists cached after the warm-up call, as in the loss).
  const force = perCall(() => truth.compute(batch), evals);
  const forceStress = perCall(() => truth.compute(batch, { stress: true }), evals);
  const weights = { energy: 1, forces: 1, stress: 1 };
  const start = new hookmd.LennardJones({ ...ARGON, epsilon: 0.02, sigma: 3.0 });
  const loss = new hookmd.ForceMatchingLoss({ model: start, systems: labelled, weights });
  const lossOnly = perCall(() => loss.evaluate(), evals);
  const gradient = perCall(() => loss.evaluate({ gradient: true }), evals);

  const t0 = performance.now();
  const trainer = new hookmd.Trainer({
    model: start, train: labelled, optimizer: new hookmd.Adam({ lr: 0.05 }), epochs, batchSize, lossWeights: weights, seed: 1,
  });
  const setup = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  const history = await trainer.fit();
  const fit = (performance.now() - t1) / 1000;
  return {
    threads: hookmd.getThreads(),
    atoms: batch.numAtoms,
    pairs: truth.neighborStats().pairs,
    force,
    forceStress,
    lossOnly,
    gradient,
    setup,
    epochsPerSecond: epochs / fit,
    stepsPerEpoch: history.stepCount / epochs,
    finalLoss: history.epochs.at(-1).metrics.train_loss,
    parameters: history.parameters,
  };
}

if (!(await childMain(hookmdRound))) {
  const startLine = machineLine();
  const threadCounts = [...new Set([1, availableParallelism()])];
  const runs = new Map();
  for (let round = 0; round < options.rounds; round++) {
    for (const threads of threadCounts) {
      const result = await runChild(new URL(import.meta.url), options, { env: { HOOKMD_THREADS: String(threads) } });
      runs.set(threads, [...(runs.get(threads) ?? []), result]);
    }
  }
  const best = (rounds) => {
    const min = (key) => Math.min(...rounds.map((r) => r[key]));
    return { ...rounds[0], force: min('force'), forceStress: min('forceStress'), lossOnly: min('lossOnly'), gradient: min('gradient'), setup: min('setup'),
      epochsPerSecond: Math.max(...rounds.map((r) => r.epochsPerSecond)), peakRssMiB: Math.max(...rounds.map((r) => r.peakRssMiB)) };
  };
  const ms = (s) => (1000 * s).toFixed(1);
  const first = best(runs.get(threadCounts[0]));
  console.log(`## fit-lj — Trainer epochs/s on ${fmt(options.configs)} argon configurations of 64 atoms; gradient vs force evaluation\n`);
  console.log(`${startLine}; \`node bench/fit-lj.mjs --configs ${options.configs} --epochs ${options.epochs} --batch-size ${options.batchSize} --evals ${options.evals} --rounds ${options.rounds}\`, best of ${options.rounds} interleaved rounds.`);
  console.log(`${fmt(first.atoms)} atoms (${fmt(first.pairs)} half-list pairs in the force model's lists, rc 8.5 Å + 2 Å skin; the loss lists have no skin); LJ ε = 0.0104 eV, σ = 3.40 Å, shifted; fit from ε = 0.02, σ = 3.0 with Adam (lr 0.05), batch ${options.batchSize} (${first.stepsPerEpoch} steps/epoch), energy + forces + stress (stress on the 500 crystals).\n`);
  const rows = threadCounts.map((threads) => {
    const r = best(runs.get(threads));
    return [r.threads, ms(r.force), ms(r.forceStress), ms(r.lossOnly), ms(r.gradient), (r.force / r.gradient).toFixed(2), (r.forceStress / r.gradient).toFixed(2), r.epochsPerSecond.toFixed(2), ms(r.setup), r.peakRssMiB.toFixed(1)];
  });
  console.log(markdownTable(
    ['threads', 'force eval (ms)', 'force + stress eval (ms)', 'loss eval (ms)', 'loss + gradient eval (ms)', 'gradient throughput ÷ force', 'gradient throughput ÷ force+stress', 'epochs/s', 'trainer setup (ms)', 'peak RSS (MiB)'],
    rows,
    ['r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  ));
  const last = best(runs.get(threadCounts.at(-1)));
  console.log(`\nAfter ${options.epochs} epochs: train_loss ${last.finalLoss.toExponential(2)}, ε = ${last.parameters.epsilon.toFixed(5)}, σ = ${last.parameters.sigma.toFixed(4)}.`);
}
