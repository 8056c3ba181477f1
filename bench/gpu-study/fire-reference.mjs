#!/usr/bin/env node
// The reference of the FIRE prototype (fire_lj13.cu): the rattled LJ13 clusters bench/gpu.mjs relaxes and, per
// system, the step at which hookmd's cpu FIRE converged it and its final energy, so the prototype's run on a
// GPU is checked against hookmd itself, step count for step count.
// Writes <dir>/lj13-<N>.pos.bin (f64, N × 13 × 3) and <dir>/lj13-<N>.ref.bin (f64, N × [step, energy]).
// Usage: node bench/gpu-study/fire-reference.mjs [N=65536] [dir=.]   (from the repository root, dist/ built)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { rattledLj13 } from '../lib/systems.mjs';

const hookmd = await import('../../dist/index.js');
hookmd.configureNative({ backend: 'cpu' });
const count = Number(process.argv[2] ?? 65536);
const dir = process.argv[3] ?? '.';
const clusters = rattledLj13(count, 0.1);
const positions = new Float64Array(count * 39);
clusters.forEach((cluster, s) => cluster.forEach((p, i) => positions.set(p, 39 * s + 3 * i)));
const batch = hookmd.Batch.fromArrays(
  { positions, atomicNumbers: new Int32Array(13 * count).fill(18), numAtomsPerSystem: new Int32Array(count).fill(13) }, { units: 'lj' });
const model = new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });
const engine = new hookmd.FIRE({ model, convergence: hookmd.ConvergenceHook.fromFmax(1e-3) });
const convergedAt = new Float64Array(count).fill(-1);
engine.register({
  stage: hookmd.DynamicsStage.ON_CONVERGE, frequency: 1, name: 'converged-at',
  call: (ctx) => ctx.convergedMask?.forEach((converged, s) => { if (converged === 1) convergedAt[s] = ctx.stepCount; }),
});
const result = await engine.run(batch, { steps: 10_000 });
const energies = batch.read('energy');
const reference = new Float64Array(count * 2);
for (let s = 0; s < count; s++) reference.set([convergedAt[s], energies[s]], 2 * s);
writeFileSync(join(dir, `lj13-${count}.pos.bin`), positions);
writeFileSync(join(dir, `lj13-${count}.ref.bin`), reference);
console.log(JSON.stringify({ systems: count, steps: result.steps, converged: result.converged.reduce((a, b) => a + b, 0) }));
