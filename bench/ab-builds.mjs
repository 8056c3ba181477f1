#!/usr/bin/env node
// Two builds of the CPU addon, paired on LAMMPS's in.lj (32,000 atoms at the default 20 cells). Short runs
// alternate between the builds, and the bench prints the median of the per-round time ratios (B / A). On a
// shared VM whose CPUs change speed from minute to minute, separate best-of-3 runs cannot show a change of
// 1–2%. Paired rounds a second apart can, because both builds see the same minute. With no builds given, it
// runs the current addon against itself: that ratio is the noise floor, and a change only counts when its
// ratio falls outside it (bench/RESULTS.md, "Issue 31's two open rows again").
//
// Each build runs in a child process of its own, which loads its addon and its own dist once and then times
// a run whenever the parent asks: two addons whose classes differ in layout crash one process that holds
// both, and an older build's dist may differ from today's.
//
// Usage: node bench/ab-builds.mjs [--a build/Release/hookmd.node] [--b <same as a>] [--a-dist dist]
//          [--b-dist <same as a-dist>] [--threads 2] [--rounds 30] [--steps 200] [--cells 20]
// Needs dist/ (npm run build). Build B first, copy its hookmd.node elsewhere, then rebuild A (or the reverse);
// for a build of another commit, pass that checkout's dist as its --*-dist.
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { machineLine, markdownTable, median, parseArgs } from './lib/harness.mjs';
import { ljMeltBatch, ljMeltModel } from './lib/systems.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The child: loads `dist` bound to `binary`, builds in.lj, warms up, then times one run per message. */
async function serveRuns(binary, dist, threads, cells, steps) {
  process.env.HOOKMD_BINARY = binary;
  const hookmd = await import(pathToFileURL(join(dist, 'index.js')).href);
  // The addon loads on first use; checking it here also proves the variable took.
  const loaded = hookmd.backendInfo().binary;
  if (loaded !== binary) throw new Error(`loaded ${loaded}, not ${binary}`);
  hookmd.setThreads(threads);
  const batch = ljMeltBatch(hookmd, cells);
  const md = new hookmd.VelocityVerlet({ model: ljMeltModel(hookmd), dt: 0.005 });
  const runOnce = async () => {
    const t0 = performance.now();
    await md.run(batch, { steps });
    return (performance.now() - t0) / 1000;
  };
  await runOnce();
  const rssMiB = () => process.resourceUsage().maxRSS / 1024;
  process.on('message', async () => process.send({ seconds: await runOnce(), rssMiB: rssMiB() }));
  process.send({ ready: true, rssMiB: rssMiB() });
}

/** One build's child process, started once the other is warm; `request()` resolves with its next reply. */
function startChild(binary, dist, opts) {
  const child = fork(fileURLToPath(import.meta.url), ['--child', binary, dist, String(opts.threads), String(opts.cells), String(opts.steps)]);
  const waiting = [];
  child.on('message', (message) => waiting.shift()?.resolve(message));
  child.on('exit', (code) => {
    for (const pending of waiting.splice(0)) pending.reject(new Error(`the run of ${binary} exited with code ${code}`));
  });
  const reply = () => new Promise((resolveReply, reject) => waiting.push({ resolve: resolveReply, reject }));
  const ready = reply();
  return {
    ready,
    /** Times one run: { seconds, rssMiB }. */
    run: () => {
      const replied = reply();
      child.send('run');
      return replied;
    },
    stop: () => child.kill(),
  };
}

async function main() {
  const opts = parseArgs({ a: join(root, 'build', 'Release', 'hookmd.node'), b: undefined, aDist: join(root, 'dist'), bDist: undefined, threads: 2, rounds: 30, steps: 200, cells: 20 });
  for (const key of ['threads', 'rounds', 'steps', 'cells']) {
    if (!Number.isInteger(opts[key]) || opts[key] < 1) throw new RangeError(`--${key} must be a positive integer, got ${opts[key]}`);
  }
  const builds = {
    A: { binary: resolve(String(opts.a)), dist: resolve(String(opts.aDist)) },
    B: { binary: resolve(String(opts.b ?? opts.a)), dist: resolve(String(opts.bDist ?? opts.aDist)) },
  };
  for (const { binary, dist } of Object.values(builds)) {
    if (!existsSync(binary)) throw new Error(`no addon at ${binary} (build one with npm run native:gyp)`);
    if (!existsSync(join(dist, 'index.js'))) throw new Error(`no dist at ${dist} (npm run build)`);
  }
  const machine = machineLine();
  const runs = {};
  try {
    // One warm-up after the other, so that neither runs beside the other's.
    for (const name of ['A', 'B']) {
      runs[name] = startChild(builds[name].binary, builds[name].dist, opts);
      await runs[name].ready;
    }
    const seconds = { A: [], B: [] };
    const rss = { A: 0, B: 0 };
    for (let round = 0; round < opts.rounds; round++) {
      // Alternate which build goes first, so that neither always follows the other.
      for (const name of round % 2 === 0 ? ['A', 'B'] : ['B', 'A']) {
        const { seconds: taken, rssMiB } = await runs[name].run();
        seconds[name].push(taken);
        rss[name] = rssMiB;
      }
    }
    const ratios = seconds.A.map((a, k) => seconds.B[k] / a);
    const rows = ['A', 'B'].map((name) => [name, builds[name].binary, builds[name].dist, Math.min(...seconds[name]).toFixed(3), median(seconds[name]).toFixed(3), rss[name].toFixed(1)]);
    console.log(`## ab-builds — in.lj (${opts.cells}³ cells), ${opts.steps}-step runs alternating, ${opts.rounds} rounds, ${opts.threads} threads\n`);
    console.log(`${machine}; each build in a process of its own\n`);
    console.log(markdownTable(['build', 'addon', 'dist', 'best (s)', 'median (s)', 'peak RSS (MiB)'], rows, ['l', 'l', 'l', 'r', 'r', 'r']));
    const sorted = [...ratios].sort((x, y) => x - y);
    console.log(`\nB / A, median of the per-round ratios: ${median(ratios).toFixed(4)} (middle half ${sorted[Math.floor(sorted.length / 4)].toFixed(4)}–${sorted[Math.floor((3 * sorted.length) / 4)].toFixed(4)})`);
  } finally {
    for (const run of Object.values(runs)) run.stop();
  }
}

if (process.argv[2] === '--child') {
  const [binary, dist, threads, cells, steps] = process.argv.slice(3);
  await serveRuns(binary, dist, Number(threads), Number(cells), Number(steps));
} else {
  await main();
}
