#!/usr/bin/env node
// Scale-out: 10,000 rattled LJ13 clusters (lj units, ε = σ = 1, cutoff 2.5, FIRE to fmax 1e-3) relaxed by
// W processes of one thread each, W = 1, 2, 4: split by `hookmd relax --shard i/W` (the baseline), and
// through the queue (`hookmd queue push` in chunks of --chunk, then W `hookmd queue work
// --exit-when-empty`) on a redis-server this script starts on a free port and stops by its PID. Reports
// systems/s (input size over the wall time from the first process start to the last exit, merge not
// included, the same for both), queue/shard, the push time, and the queue's overhead per chunk: the extra
// worker-seconds of the queue run over the shard run, divided by the chunks. Rounds are interleaved (for
// each round: every W, shard then queue) and the best of the rounds is kept.
//
// Usage: node bench/scale-out.mjs [--count 10000] [--workers 1,2,4] [--chunk 250] [--rounds 3] [--stdev 0.1]
// Needs dist/ (npm run build), build/Release/hookmd.node and redis-server (apt-get install redis-server).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

import { fmt, machineLine, markdownTable, parseArgs, runExternal } from './lib/harness.mjs';
import { rattledLj13 } from './lib/systems.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '..', 'bin', 'hookmd.js');
const options = parseArgs({ count: 10_000, workers: '1,2,4', chunk: 250, rounds: 3, stdev: 0.1 });
const workerCounts = String(options.workers).split(',').map(Number);
const RELAX = ['--model', 'lj:epsilon=1,sigma=1,cutoff=2.5', '--units', 'lj', '--fmax', '1e-3'];

async function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startRedis(dir) {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  while (spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout.trim() !== 'PONG') {
    if (child.exitCode !== null) throw new Error('redis-server exited');
    await sleep(50);
  }
  return { url: `redis://127.0.0.1:${port}`, pid: child.pid, stop: () => new Promise((resolve) => { child.once('exit', resolve); process.kill(child.pid, 'SIGTERM'); }) };
}

/** Runs `hookmd args` for each of `argsList` at once; wall seconds until the last exits, and the largest peak RSS. */
async function together(argsList) {
  const t0 = performance.now();
  const runs = await Promise.all(argsList.map((args) => runExternal(process.execPath, [BIN, ...args])));
  return { wallSeconds: (performance.now() - t0) / 1000, peakRssMiB: Math.max(...runs.map((r) => r.peakRssMiB)), runs };
}

async function shardRun(input, dir, workers) {
  const out = mkdtempSync(join(dir, 'shard-'));
  const result = await together(Array.from({ length: workers }, (_, i) => ['relax', input, ...RELAX, '--shard', `${i}/${workers}`, '--threads', '1', '--quiet', '--out', join(out, `part-${i}.xyz`)]));
  rmSync(out, { recursive: true, force: true });
  return result;
}

let queues = 0;
async function queueRun(input, dir, workers, redis) {
  const queue = `bench-${process.pid}-${queues++}`;
  const out = mkdtempSync(join(dir, 'queue-'));
  const pushStart = performance.now();
  await runExternal(process.execPath, [BIN, 'queue', 'push', input, '--redis', redis.url, '--queue', queue, '--chunk', String(options.chunk), '--quiet', '--', 'relax', ...RELAX]);
  const pushSeconds = (performance.now() - pushStart) / 1000;
  const work = ['queue', 'work', '--redis', redis.url, '--queue', queue, '--out', out, '--exit-when-empty', '--stalled-interval', '2000', '--threads', '1', '--json'];
  const result = await together(Array.from({ length: workers }, () => work));
  const chunks = readdirSync(out).filter((name) => name.endsWith('.extxyz')).length;
  if (chunks !== Math.ceil(options.count / options.chunk)) throw new Error(`queue run wrote ${chunks} chunk files`);
  // Seconds each chunk spent in its worker's processor (input file, relax, rename), from the JSON events.
  const chunkSeconds = result.runs.flatMap((r) => r.stdout.split('\n').filter((l) => l.includes('"event":"completed"')).map((l) => JSON.parse(l).seconds));
  rmSync(out, { recursive: true, force: true });
  return { ...result, pushSeconds, chunks, chunkSeconds: chunkSeconds.reduce((a, b) => a + b, 0) };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'hookmd-bench-scale-'));
  const redis = await startRedis(dir);
  try {
    const hookmd = await import('../dist/index.js');
    const input = join(dir, 'lj13.xyz');
    const symbols = Array(13).fill('Ar');
    await hookmd.writeExtxyz(input, rattledLj13(options.count, options.stdev).map((positions) => ({ symbols, positions })), { units: 'lj' });
    console.log(machineLine());
    console.log(`${fmt(options.count)} LJ13 relaxations, chunks of ${options.chunk}, ${options.rounds} rounds, workers ${workerCounts.join(', ')}, one thread each\n`);
    const best = new Map();
    const keep = (key, result) => {
      const held = best.get(key);
      if (held === undefined || result.wallSeconds < held.wallSeconds) best.set(key, result);
    };
    for (let round = 0; round < options.rounds; round++) {
      for (const workers of workerCounts) {
        const shard = await shardRun(input, dir, workers);
        keep(`shard-${workers}`, shard);
        const queued = await queueRun(input, dir, workers, redis);
        keep(`queue-${workers}`, queued);
        console.log(`round ${round + 1}, ${workers} workers: shard ${shard.wallSeconds.toFixed(2)} s, queue ${queued.wallSeconds.toFixed(2)} s (push ${queued.pushSeconds.toFixed(2)} s)`);
      }
    }
    const rows = workerCounts.map((workers) => {
      const shard = best.get(`shard-${workers}`);
      const queued = best.get(`queue-${workers}`);
      const overheadMs = ((queued.wallSeconds - shard.wallSeconds) * workers * 1000) / queued.chunks;
      const idleMs = ((queued.wallSeconds * workers - queued.chunkSeconds) * 1000) / queued.chunks;
      return [workers, fmt(options.count / shard.wallSeconds, 0), fmt(options.count / queued.wallSeconds, 0), `${(shard.wallSeconds / queued.wallSeconds).toFixed(2)}×`,
        fmt(queued.pushSeconds, 2), fmt(overheadMs, 0), fmt(idleMs, 0), fmt(Math.max(shard.peakRssMiB, queued.peakRssMiB), 0)];
    });
    console.log(`\n${markdownTable(['workers', 'shard systems/s', 'queue systems/s', 'queue/shard', 'push s', 'queue overhead ms/chunk', 'worker time outside chunks ms/chunk', 'peak RSS MiB (one process)'], rows)}`);
  } finally {
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
