#!/usr/bin/env node
// High-throughput relaxation: N structures of mixed sizes (LJ13 … LJ147 spherical fcc cut-outs, rattled)
// relaxed with FIRE, once through runStream's in-flight refill and once as fixed batches filled to the same
// atom budget, in separate child-free phases of one run. Reports systems/s, total steps and peak RSS.
// Usage: node bench/pipeline.mjs [--count 10000] [--max-atoms 4096] [--fmax 5e-3] [--refill-every 10]
import { Batch, ConvergenceHook, FIRE, LennardJones, rattle } from '../dist/index.js';
import { machineLine, markdownTable, parseArgs, peakRssMiB, timed } from './lib/harness.mjs';

const opts = parseArgs({ count: 10_000, maxAtoms: 4096, fmax: 1e-3, refillEvery: 10, maxSteps: 3000, rattle: 0.15 });
const SIZES = [13, 19, 26, 38, 55, 79, 100, 147];

/** The `n` fcc lattice sites nearest the origin (spacing 2^(1/6)·√2 σ), a compact cluster of n atoms. */
function fccCluster(n) {
  const a = 2 ** (1 / 6) * Math.SQRT2;
  const sites = [];
  const r = Math.ceil(Math.cbrt(n)) + 1;
  for (let i = -r; i <= r; i++) for (let j = -r; j <= r; j++) for (let k = -r; k <= r; k++) {
    if ((i + j + k) % 2 !== 0) continue;
    sites.push([(i * a) / 2, (j * a) / 2, (k * a) / 2]);
  }
  sites.sort((p, q) => Math.hypot(...p) - Math.hypot(...q));
  return { symbols: Array(n).fill('Ar'), positions: sites.slice(0, n) };
}

const templates = SIZES.map(fccCluster);
function structure(i) {
  return rattle(templates[(i * 7919) % SIZES.length], opts.rattle, i + 1);
}

const model = () => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });
const engine = () => new FIRE({ model: model(), convergence: ConvergenceHook.fromFmax(opts.fmax) });

async function refill() {
  let seen = 0;
  const sink = { write: (systems) => { seen += systems.length; } };
  function* source() { for (let i = 0; i < opts.count; i++) yield structure(i); }
  const result = await engine().runStream(source(), { sinks: [sink], maxAtoms: opts.maxAtoms, refillEvery: opts.refillEvery, maxSteps: opts.maxSteps, units: 'lj' });
  if (seen !== opts.count) throw new Error(`refill lost systems: ${seen} of ${opts.count}`);
  return { steps: result.steps, converged: result.converged };
}

async function fixedBatches() {
  let steps = 0;
  let converged = 0;
  let i = 0;
  while (i < opts.count) {
    const group = [];
    let atoms = 0;
    while (i < opts.count) {
      const s = structure(i);
      if (group.length > 0 && atoms + s.positions.length > opts.maxAtoms) break;
      group.push(s);
      atoms += s.positions.length;
      i++;
    }
    const batch = Batch.fromSystems(group, { units: 'lj' });
    const result = await engine().run(batch, { steps: opts.maxSteps });
    steps += result.steps;
    converged += result.converged.reduce((a, b) => a + b, 0);
  }
  return { steps, converged };
}

console.log(`hookmd pipeline bench — ${machineLine()}`);
console.log(`${opts.count} structures (LJ${SIZES.join('/')}, rattled ${opts.rattle}σ), FIRE to fmax ${opts.fmax} ε/σ, atom budget ${opts.maxAtoms}, refillEvery ${opts.refillEvery}\n`);
const rows = [];
for (const [label, fn] of [['fixed batches', fixedBatches], ['runStream refill', refill]]) {
  const rssBefore = peakRssMiB();
  const { value, wallSeconds } = await timed(fn);
  rows.push([label, value.converged, value.steps, wallSeconds.toFixed(1), (opts.count / wallSeconds).toFixed(1), peakRssMiB().toFixed(0), rssBefore.toFixed(0)]);
}
const speedup = Number(rows[0][3]) / Number(rows[1][3]);
console.log(markdownTable(['mode', 'converged', 'engine steps', 'wall s', 'systems/s', 'peak RSS MiB (cumulative)', 'peak RSS before'], rows));
console.log(`\nrefill vs fixed batches: ${speedup.toFixed(2)}× the throughput`);
