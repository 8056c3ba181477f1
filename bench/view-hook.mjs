#!/usr/bin/env node
// What a ViewHook costs a run that nobody watches: the LJ melt of bench/lj-melt.mjs (default 4,000 atoms:
// 10×10×10 fcc cells, T 1.44, rc 2.5, skin 0.3, dt 0.005, VelocityVerlet, 2,000 steps) with a
// ViewHook({ frequency: 100 }) serving on 127.0.0.1 and no browser connected, against the same run without
// it. The hook still records every firing's frames (4,000 positions) and scalars for pages that open later,
// so this is its whole cost when no page is open. Each round runs both variants back to back from the same
// start, in an order rotated every round, after a warm-up of each. Reports atom-steps/s and the throughput
// lost against "no hook", from the best run of each and as the median of the per-round ratios, and the
// time spent inside the hook's calls as a share of the run: on a shared machine the wall-time ratios carry
// the other jobs' noise, the time inside the hook does not.
//
// Usage: node bench/view-hook.mjs [--cells 10] [--steps 2000] [--rounds 5] [--threads 1]  (threads 0: all)
import { childMain, fmt, machineLine, markdownTable, median, parseArgs, runChild, timed } from './lib/harness.mjs';
import { ljMeltBatch, ljMeltModel } from './lib/systems.mjs';

const VARIANTS = [
  { name: 'no hook', view: false },
  { name: 'ViewHook every 100 steps, no browser', view: true },
];

// --- child: every round of both variants in one process --------------------------------------------------
async function measure({ cells, steps, rounds, threads }) {
  const hookmd = await import('../dist/index.js');
  hookmd.setThreads(threads);
  const runOnce = async (variant, n) => {
    const batch = ljMeltBatch(hookmd, cells);
    const md = new hookmd.VelocityVerlet({ model: ljMeltModel(hookmd), dt: 0.005 });
    let inHook = 0;
    if (variant.view) {
      const view = new hookmd.ViewHook({ frequency: 100 });
      await view.start();
      const call = view.call.bind(view);
      view.call = (ctx, stage) => {
        const t0 = performance.now();
        call(ctx, stage);
        inHook += performance.now() - t0;
      };
      md.register(view);
    }
    const t = await timed(() => md.run(batch, { steps: n }));
    return { wallSeconds: t.wallSeconds, cpuSeconds: t.cpuSeconds, hookSeconds: inHook / 1000, atoms: batch.numAtoms };
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
  const options = parseArgs({ cells: 10, steps: 2000, rounds: 5, threads: 1 });
  const { cells, steps, rounds, threads } = options;
  const started = machineLine();
  process.stderr.write(`[view-hook] ${rounds} rounds × ${VARIANTS.length} variants, ${4 * cells ** 3} atoms, ${steps} steps\n`);
  const env = threads > 0 ? { HOOKMD_THREADS: String(threads) } : {};
  const { threads: used, runs, peakRssMiB } = await runChild(new URL(import.meta.url), { cells, steps, rounds, threads }, { env });
  const atoms = runs[0][0].atoms;
  const rate = (s) => (atoms * steps) / s;
  const best = runs.map((list) => Math.min(...list.map((x) => x.wallSeconds)));
  const bestCpu = runs.map((list) => Math.min(...list.map((x) => x.cpuSeconds)));
  const ratio = runs.map((list) => median(list.map((x) => x.wallSeconds / runs[0].find((b) => b.round === x.round).wallSeconds)));
  const pct = (x) => `${(100 * x).toFixed(2)}%`;
  const rows = VARIANTS.map((variant, v) => [
    variant.name,
    variant.view ? Math.ceil(steps / 100) : 0,
    best[v].toFixed(3),
    runs[v].map((x) => x.wallSeconds.toFixed(3)).join(', '),
    fmt(rate(best[v])),
    v === 0 ? '—' : pct(1 - best[0] / best[v]),
    v === 0 ? '—' : pct(1 - 1 / ratio[v]),
    v === 0 ? '—' : pct(1 - bestCpu[0] / bestCpu[v]),
    v === 0 ? '—' : `${pct(median(runs[v].map((x) => x.hookSeconds / x.wallSeconds)))} (${(1000 * median(runs[v].map((x) => x.hookSeconds)) / Math.ceil(steps / 100)).toFixed(2)} ms/update)`,
    peakRssMiB.toFixed(1),
  ]);
  console.log(`## view-hook — ViewHook with no browser on the LJ melt (${fmt(atoms)} atoms, ${steps} steps, ${used} thread${used > 1 ? 's' : ''})\n`);
  console.log(`${started}; ${rounds} rounds, both variants interleaved in rotated order, after one warm-up run each\n`);
  console.log(markdownTable(
    ['variant', 'updates recorded', 'best time (s)', 'every round (s)', 'atom-steps/s (best)', 'throughput lost (best vs best)',
      'throughput lost (median per-round ratio)', 'CPU lost (best vs best)', 'time in the hook (median share of the run)', 'peak RSS (MiB, both variants: one process)'],
    rows,
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  ));
  console.log('\n"Throughput lost" is 1 − rate(variant)/rate(no hook); a negative value means the variant ran faster (noise).');
}

if (!(await childMain(measure))) await main();
