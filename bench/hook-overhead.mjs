#!/usr/bin/env node
// What JS hooks cost an NVE run: the LJ melt of bench/lj-melt.mjs (default 4,000 atoms: 10×10×10 fcc cells,
// T 1.44, rc 2.5, skin 0.3, dt 0.005, VelocityVerlet, 1,000 steps) with a JS no-op hook at AFTER_STEP due
// every step, every 100 steps, or no hook at all. Each round runs the three variants back to back from the
// same start (same trajectory, same neighbor builds), in an order rotated every round; every variant is
// warmed up first. Reports atom-steps/s and the throughput lost against "no hooks", from the best run of
// each variant and as the median of the per-round ratios (adjacent runs share the machine's load).
//
// Usage: node bench/hook-overhead.mjs [--cells 10] [--steps 1000] [--rounds 5] [--threads 1]  (threads 0: all)
import { childMain, fmt, machineLine, markdownTable, median, parseArgs, runChild, timed } from './lib/harness.mjs';
import { ljMeltBatch, ljMeltModel } from './lib/systems.mjs';

const VARIANTS = [
  { name: 'no hooks', every: 0 },
  { name: 'no-op hook every 100 steps', every: 100 },
  { name: 'no-op hook every step', every: 1 },
];

// --- child: every round of every variant in one process --------------------------------------------------
async function measure({ cells, steps, rounds, threads }) {
  const hookmd = await import('../dist/index.js');
  hookmd.setThreads(threads);
  const runOnce = async (variant, n) => {
    const batch = ljMeltBatch(hookmd, cells);
    const model = ljMeltModel(hookmd);
    const md = new hookmd.VelocityVerlet({ model, dt: 0.005 });
    let calls = 0;
    if (variant.every > 0) {
      md.register({ stage: hookmd.DynamicsStage.AFTER_STEP, frequency: variant.every, name: 'noop', call: () => { calls += 1; } });
    }
    const t = await timed(() => md.run(batch, { steps: n }));
    return { wallSeconds: t.wallSeconds, cpuSeconds: t.cpuSeconds, calls, builds: model.neighborStats().builds, atoms: batch.numAtoms };
  };
  for (const variant of VARIANTS) await runOnce(variant, Math.min(steps, 200));
  const runs = VARIANTS.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < VARIANTS.length; k++) {
      const v = (k + r) % VARIANTS.length;
      runs[v].push({ round: r, ...(await runOnce(VARIANTS[v], steps)) });
    }
  }
  return { threads: hookmd.getThreads(), runs };
}

// --- parent ---------------------------------------------------------------------------------------------
async function main() {
  const options = parseArgs({ cells: 10, steps: 1000, rounds: 5, threads: 1 });
  const { cells, steps, rounds, threads } = options;
  const started = machineLine();
  process.stderr.write(`[hook-overhead] ${rounds} rounds × ${VARIANTS.length} variants, ${4 * cells ** 3} atoms, ${steps} steps\n`);
  const env = threads > 0 ? { HOOKMD_THREADS: String(threads) } : {};
  const { threads: used, runs, peakRssMiB } = await runChild(new URL(import.meta.url), { cells, steps, rounds, threads }, { env });
  const atoms = runs[0][0].atoms;
  const rate = (s) => (atoms * steps) / s;
  const best = runs.map((list) => Math.min(...list.map((x) => x.wallSeconds)));
  const bestCpu = runs.map((list) => Math.min(...list.map((x) => x.cpuSeconds)));
  // Per round: this variant's time over "no hooks" in the same round.
  const ratio = runs.map((list) => median(list.map((x) => x.wallSeconds / runs[0].find((b) => b.round === x.round).wallSeconds)));
  const pct = (x) => `${(100 * x).toFixed(2)}%`;
  const rows = VARIANTS.map((variant, v) => [
    variant.name,
    runs[v][0].calls,
    best[v].toFixed(3),
    runs[v].map((x) => x.wallSeconds.toFixed(3)).join(', '),
    fmt(rate(best[v])),
    v === 0 ? '—' : pct(1 - best[0] / best[v]),
    v === 0 ? '—' : pct(1 - 1 / ratio[v]),
    v === 0 ? '—' : pct(1 - bestCpu[0] / bestCpu[v]),
    runs[v][0].builds,
    peakRssMiB.toFixed(1),
  ]);
  console.log(`## hook-overhead — JS no-op hooks on the LJ melt (${fmt(atoms)} atoms, ${steps} steps, ${used} thread${used > 1 ? 's' : ''})\n`);
  console.log(`${started}; ${rounds} rounds, the three variants interleaved in rotated order, after one warm-up run each\n`);
  console.log(markdownTable(
    ['variant', 'hook calls', 'best time (s)', 'every round (s)', 'atom-steps/s (best)', 'throughput lost (best vs best)',
      'throughput lost (median per-round ratio)', 'CPU lost (best vs best)', 'neighbor builds', 'peak RSS (MiB, all variants: one process)'],
    rows,
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  ));
  console.log('\n"Throughput lost" is 1 − rate(variant)/rate(no hooks); a negative value means the variant ran faster (noise).');
}

if (!(await childMain(measure))) await main();
