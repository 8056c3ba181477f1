#!/usr/bin/env node
// Cost of crossing into native code and of touching a Batch view, each next to a plain-JS baseline measured
// in the same run. Usage: node bench/native-call.mjs   (after `npm install`, which builds dist/)
import { Batch, backendInfo } from '../dist/index.js';
import { loadBinding } from '../dist/native/index.js';
import { nativeBatchOf } from '../dist/data/index.js';

const ITERATIONS = 5_000_000;

function time(label, fn) {
  fn(1000); // warm up the JIT on the same code path
  const start = process.hrtime.bigint();
  const sink = fn(ITERATIONS);
  const ns = Number(process.hrtime.bigint() - start) / ITERATIONS;
  return { label, ns, sink, peakRssMiB: process.resourceUsage().maxRSS / 1024 };
}

const binding = loadBinding();
const batch = Batch.fromSystems([{ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, 3.8]] }]);
const native = nativeBatchOf(batch);
const plainArray = new Float64Array(6);
const plainObject = { threads: binding.getThreads(), getThreads() { return this.threads; } };

const rows = [
  [time('native call: binding.getThreads()', (n) => { let s = 0; for (let i = 0; i < n; i++) s += binding.getThreads(); return s; }),
    time('JS baseline: object method', (n) => { let s = 0; for (let i = 0; i < n; i++) s += plainObject.getThreads(); return s; })],
  [time('native accessor: NativeBatch.numAtoms', (n) => { let s = 0; for (let i = 0; i < n; i++) s += native.numAtoms; return s; }),
    time('JS baseline: plain property', (n) => { let s = 0; for (let i = 0; i < n; i++) s += plainArray.length; return s; })],
  [time('view access: batch.positions[i] (getter + element)', (n) => { let s = 0; for (let i = 0; i < n; i++) s += batch.positions[i % 6]; return s; }),
    time('JS baseline: Float64Array element', (n) => { let s = 0; for (let i = 0; i < n; i++) s += plainArray[i % 6]; return s; })],
  [time('view write: batch.positions[i] = x', (n) => { for (let i = 0; i < n; i++) batch.positions[i % 6] = i; return 0; }),
    time('JS baseline: Float64Array write', (n) => { for (let i = 0; i < n; i++) plainArray[i % 6] = i; return 0; })],
];

const info = backendInfo();
console.log(`hookmd native-call bench — backend ${info.backend} (${info.device}), node ${process.version}`);
// One process measures every row, so a row's peak RSS is the process's up to and including it.
console.log('| operation | ns/op | baseline | baseline ns/op | ratio | peak RSS so far (MiB) |');
console.log('|---|---:|---|---:|---:|---:|');
for (const [op, base] of rows) {
  console.log(`| ${op.label} | ${op.ns.toFixed(2)} | ${base.label} | ${base.ns.toFixed(2)} | ${(op.ns / base.ns).toFixed(1)}× | ${base.peakRssMiB.toFixed(1)} |`);
}
