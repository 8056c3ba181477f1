#!/usr/bin/env node
// Two builds of the CPU addon, side by side in one process, on LAMMPS's in.lj (32,000 atoms at the default
// 20 cells). Short runs alternate between the builds, and the bench prints the median of the per-round time
// ratios (B / A). On a shared VM whose CPUs change speed from minute to minute, separate best-of-3 runs
// cannot show a change of 1–2%. Paired rounds a second apart can, because both builds see the same minute.
// With no builds given, it runs the current addon against itself: that ratio is the noise floor, and a
// change only counts when its ratio falls outside it (bench/RESULTS.md, "Issue 31's two open rows again").
//
// Usage: node bench/ab-builds.mjs [--a build/Release/hookmd.node] [--b <same as a>] [--threads 2]
//          [--rounds 30] [--steps 200] [--cells 20]
// Needs dist/ (npm run build). Build B first, copy its hookmd.node elsewhere, then rebuild A (or the reverse).
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { machineLine, markdownTable, median, parseArgs } from './lib/harness.mjs';
import { ljMeltBatch, ljMeltModel } from './lib/systems.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const defaultBuild = join(root, 'build', 'Release', 'hookmd.node');
const opts = parseArgs({ a: defaultBuild, b: undefined, threads: 2, rounds: 30, steps: 200, cells: 20 });
for (const key of ['threads', 'rounds', 'steps', 'cells']) {
  if (!Number.isInteger(opts[key]) || opts[key] < 1) throw new RangeError(`--${key} must be a positive integer, got ${opts[key]}`);
}
const builds = { A: resolve(String(opts.a)), B: resolve(String(opts.b ?? opts.a)) };
for (const path of Object.values(builds)) {
  if (!existsSync(path)) throw new Error(`no addon at ${path} (build one with npm run native:gyp)`);
}

// Each build needs its own copy of dist: ES modules load once per URL, and the addon loads once per copy.
const scratch = mkdtempSync(join(tmpdir(), 'hookmd-ab-'));
symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'), 'dir');

/** Imports a fresh copy of dist bound to `binary`, and loads the addon at once. */
async function loadCopy(name, binary) {
  const dir = join(scratch, name);
  cpSync(join(root, 'dist'), dir, { recursive: true });
  process.env.HOOKMD_BINARY = binary;
  const hookmd = await import(pathToFileURL(join(dir, 'index.js')).href);
  // The addon loads on first use: without this call both copies would take whichever path the variable
  // holds when they are first used.
  const loaded = hookmd.backendInfo().binary;
  if (loaded !== binary) throw new Error(`copy ${name} loaded ${loaded}, not ${binary}`);
  hookmd.setThreads(opts.threads);
  const batch = ljMeltBatch(hookmd, opts.cells);
  const md = new hookmd.VelocityVerlet({ model: ljMeltModel(hookmd), dt: 0.005 });
  return { name, batch, md };
}

async function runOnce(copy) {
  const t0 = performance.now();
  await copy.md.run(copy.batch, { steps: opts.steps });
  return (performance.now() - t0) / 1000;
}

const machine = machineLine();
try {
  const copies = [await loadCopy('A', builds.A), await loadCopy('B', builds.B)];
  for (const copy of copies) await runOnce(copy);
  const seconds = { A: [], B: [] };
  for (let round = 0; round < opts.rounds; round++) {
    // Alternate which build goes first, so that neither always follows the other's cache state.
    const order = round % 2 === 0 ? copies : [...copies].reverse();
    for (const copy of order) seconds[copy.name].push(await runOnce(copy));
  }
  const ratios = seconds.A.map((a, k) => seconds.B[k] / a);
  const rows = ['A', 'B'].map((name) => [name, builds[name], Math.min(...seconds[name]).toFixed(3), median(seconds[name]).toFixed(3)]);
  console.log(`## ab-builds — in.lj (${opts.cells}³ cells), ${opts.steps}-step runs alternating, ${opts.rounds} rounds, ${opts.threads} threads\n`);
  console.log(`${machine}; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(1)} MiB (both builds)\n`);
  console.log(markdownTable(['build', 'addon', 'best (s)', 'median (s)'], rows, ['l', 'l', 'r', 'r']));
  const sorted = [...ratios].sort((x, y) => x - y);
  console.log(`\nB / A, median of the per-round ratios: ${median(ratios).toFixed(4)} (middle half ${sorted[Math.floor(sorted.length / 4)].toFixed(4)}–${sorted[Math.floor((3 * sorted.length) / 4)].toFixed(4)})`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
