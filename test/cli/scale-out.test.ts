// --shard, --resume and `hookmd merge` end to end: N shard runs merged equal one unsharded run (relax, md
// with Langevin noise, run), each system once; a resumed run after a torn write, a kill -9 or a SIGTERM
// completes the output with each system once; merge refuses duplicates, gaps and torn files.
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { inShard, parseShard, shardSize } from '../../lib/cli/shard.js';
import { readExtxyz } from '../../lib/io/index.js';
import { LJ_MODEL, writeClusters } from './fixtures.js';
import { collect, ensureBuilt, runCli, spawnCli, workDir } from './run-cli.js';

const LJ = ['--model', LJ_MODEL, '--units', 'lj'];
const RELAX = ['--fmax', '1e-3', ...LJ, '--quiet'];
const SYSTEMS = 12;

let dir: string;
let input: string;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir('hookmd-scale-out-');
  input = await writeClusters(dir, SYSTEMS);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Frames = ReturnType<typeof readExtxyz>;
const read = (name: string): Frames => readExtxyz(join(dir, name), { units: 'lj' });
const ids = (frames: Frames): unknown[] => frames.map((f) => f.info?.systemId);

async function cli(args: string[], code = 0): Promise<Awaited<ReturnType<typeof runCli>>> {
  const result = await runCli(args, { cwd: dir, timeoutMs: 90_000 });
  expect(result.code, `hookmd ${args.join(' ')}\n${result.stderr}`).toBe(code);
  return result;
}

/** The merged frames equal the reference run's, system by system, to the last digit. */
function expectSameRun(merged: Frames, reference: Frames): void {
  expect(ids(merged)).toEqual(reference.map((_, k) => k));
  merged.forEach((frame, k) => {
    expect(frame.info?.tag).toBe(reference[k].info?.tag);
    expect(frame.energy).toBe(reference[k].energy);
    expect(frame.positions).toEqual(reference[k].positions);
  });
}

describe('--shard i/N', () => {
  it('parses i/N and partitions every input exactly once, round-robin', () => {
    expect(parseShard('3/8')).toEqual({ index: 3, count: 8 });
    for (const bad of ['4/4', '-1/4', '1/0', 'a/b', '1', '1/2/3']) expect(() => parseShard(bad), bad).toThrow();
    for (let total = 0; total <= 40; total++) {
      for (let count = 1; count <= 7; count++) {
        const owners = Array.from({ length: total }, (_, k) => Array.from({ length: count }, (__, i) => i).filter((i) => inShard(k, { index: i, count })));
        expect(owners.every((o) => o.length === 1)).toBe(true);
        for (let i = 0; i < count; i++) expect(shardSize(total, { index: i, count })).toBe(owners.filter((o) => o[0] === i).length);
      }
    }
  });

  it('relax: the shards carry input indices, and merged equal one unsharded run', async () => {
    await cli(['relax', input, ...RELAX, '-o', 'relax-all.xyz']);
    for (let i = 0; i < 3; i++) await cli(['relax', input, ...RELAX, '--shard', `${i}/3`, '-o', `relax-${i}.xyz`]);
    expect(ids(read('relax-1.xyz'))).toEqual([1, 4, 7, 10]);
    expect(read('relax-1.xyz').map((f) => f.info?.inputSystems)).toEqual([12, 12, 12, 12]);
    const merged = await cli(['merge', 'relax-2.xyz', 'relax-0.xyz', 'relax-1.xyz', '-o', 'relax-merged.xyz']);
    expect(merged.stdout).toBe('merge: 12/12 systems from 3 files → relax-merged.xyz\n');
    expectSameRun(read('relax-merged.xyz'), read('relax-all.xyz'));
  });

  it('md: Langevin shards draw the velocities and noise of the unsharded run; trajectory and log carry input indices', async () => {
    const md = ['--ensemble', 'langevin', '--temperature', '0.5', '--dt', '0.005', '--steps', '40', '--seed', '7', ...LJ, '--quiet'];
    await cli(['md', input, ...md, '-o', 'md-all.xyz']);
    for (let i = 0; i < 4; i++) await cli(['md', input, ...md, '--shard', `${i}/4`, '-o', `md-${i}.xyz`, '--traj', `md-${i}.traj.xyz`, '--traj-every', '20', '--log', `md-${i}.csv`, '--log-every', '20']);
    await cli(['merge', 'md-0.xyz', 'md-1.xyz', 'md-2.xyz', 'md-3.xyz', '-o', 'md-merged.xyz']);
    expectSameRun(read('md-merged.xyz'), read('md-all.xyz'));
    const trajectory = ids(read('md-3.traj.xyz'));
    expect(trajectory.length % 3).toBe(0);
    expect(trajectory.slice(0, 6)).toEqual([3, 7, 11, 3, 7, 11]);
    const rows = readFileSync(join(dir, 'md-3.csv'), 'utf8').trimEnd().split('\n').slice(1);
    expect(new Set(rows.map((row) => row.split(',')[3]))).toEqual(new Set(['3', '7', '11']));
  });

  it('run: a sharded pipeline merges to the unsharded one', async () => {
    const config = (out: string): string => JSON.stringify({ units: 'lj', model: { type: 'lj', epsilon: 1, sigma: 1, cutoff: 2.5 }, input: 'clusters.xyz', stages: [{ type: 'fire', fmax: 1e-3 }], sinks: [{ path: out }] });
    writeFileSync(join(dir, 'all.json'), config('run-all.xyz'));
    await cli(['run', 'all.json', '--quiet']);
    for (let i = 0; i < 2; i++) {
      writeFileSync(join(dir, `shard-${i}.json`), config(`run-${i}.xyz`));
      await cli(['run', `shard-${i}.json`, '--shard', `${i}/2`, '--quiet']);
    }
    await cli(['merge', 'run-0.xyz', 'run-1.xyz', '-o', 'run-merged.xyz']);
    expectSameRun(read('run-merged.xyz'), read('run-all.xyz'));
  });

  it('a bad --shard is a usage error naming the rule', async () => {
    const result = await cli(['relax', input, ...RELAX, '--shard', '3/3'], 2);
    expect(result.stderr).toContain('the shard index i must be from 0 to N-1 = 2, got 3');
  });
});

describe('hookmd merge', () => {
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) await cli(['relax', input, ...RELAX, '--shard', `${i}/2`, '-o', `half-${i}.xyz`]);
  });

  it('refuses a system twice, a missing one, a torn file, frames without systemId, and outputs of other inputs', async () => {
    expect((await cli(['merge', 'half-0.xyz', 'half-1.xyz', 'half-0.xyz', '-o', 'm.xyz'], 2)).stderr).toContain('system 0 is in half-0.xyz:1 and in half-0.xyz:1');
    expect((await cli(['merge', 'half-1.xyz', '-o', 'm.xyz'], 2)).stderr).toContain('6 of 12 systems are in no output: 0, 2, 4, 6, 8, 10');
    const torn = readFileSync(join(dir, 'half-1.xyz'), 'utf8');
    writeFileSync(join(dir, 'torn.xyz'), torn.slice(0, torn.length - 40));
    expect((await cli(['merge', 'half-0.xyz', 'torn.xyz', '-o', 'm.xyz'], 2)).stderr).toContain('torn.xyz ends in an incomplete frame');
    expect((await cli(['merge', 'clusters.xyz', '-o', 'm.xyz'], 2)).stderr).toContain('clusters.xyz:1: the frame has no systemId');
    writeFileSync(join(dir, 'other.xyz'), readFileSync(join(dir, 'half-0.xyz'), 'utf8').replace(/inputSystems=12/g, 'inputSystems=13'));
    expect((await cli(['merge', 'other.xyz', 'half-1.xyz', '-o', 'm.xyz'], 2)).stderr).toContain('inputs of different sizes');
    expect(existsSync(join(dir, 'm.xyz'))).toBe(false);
  });

  it('--allow-partial writes what there is and says what is missing', async () => {
    const result = await cli(['merge', 'half-0.xyz', 'torn.xyz', '-o', 'partial.xyz', '--allow-partial', '--json']);
    const summary = JSON.parse(result.stdout) as { systems: number; missing: number[]; tornFrames: number };
    expect(summary).toMatchObject({ systems: 11, missing: [11], tornFrames: 1 });
    expect(ids(read('partial.xyz'))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

describe('--resume', () => {
  let many: string;
  beforeAll(async () => {
    await cli(['relax', input, ...RELAX, '-o', 'reference.xyz']);
    many = await writeClusters(dir, 240, 'many.xyz');
  });

  it('cuts a torn last frame, skips the systems already written, and completes the output', async () => {
    await cli(['relax', input, ...RELAX, '--resume', '-o', 'full.xyz']);
    const whole = readFileSync(join(dir, 'full.xyz'), 'utf8');
    const frames = whole.split(/(?=^13\n)/m);
    // Five whole frames, then half of the sixth, as a kill in the middle of an append leaves them.
    writeFileSync(join(dir, 'resumed.xyz'), frames.slice(0, 5).join('') + frames[5].slice(0, frames[5].length / 2));
    const result = await cli(['relax', input, ...RELAX.slice(0, -1), '--resume', '-o', 'resumed.xyz']);
    expect(result.stderr).toContain('dropped an incomplete last frame');
    expect(result.stderr).toContain('--resume: 5 systems already done; 7 to go');
    expect(result.stdout).toContain('relax: 7/7 systems written');
    await cli(['merge', 'resumed.xyz', '-o', 'resumed-merged.xyz']);
    expectSameRun(read('resumed-merged.xyz'), read('reference.xyz'));
    // Nothing left to do: a further --resume writes nothing.
    const again = await cli(['relax', input, ...RELAX.slice(0, -1), '--resume', '-o', 'resumed.xyz']);
    expect(again.stdout).toContain('relax: 0/0 systems written');
    expect(read('resumed.xyz')).toHaveLength(SYSTEMS);
  });

  it('after kill -9, again and again, the output ends complete with each system once; the log holds each row once', async () => {
    const args = ['relax', many, '--fmax', '1e-4', ...LJ, '--max-atoms', '130', '--refill-every', '2', '--resume', '-o', 'killed.xyz', '--log', 'killed.csv', '--log-every', '5', '--quiet'];
    for (let attempt = 0; attempt < 3; attempt++) {
      const child = spawnCli(args, { cwd: dir });
      const done = collect(child, 90_000);
      const path = join(dir, 'killed.xyz');
      const start = existsSync(path) ? statSync(path).size : 0;
      const deadline = Date.now() + 60_000;
      while ((!existsSync(path) || statSync(path).size <= start) && child.exitCode === null && Date.now() < deadline) await sleep(5);
      child.kill('SIGKILL');
      await done;
    }
    await cli(args);
    await cli(['merge', 'killed.xyz', '-o', 'killed-merged.xyz']);
    const merged = read('killed-merged.xyz');
    expect(ids(merged)).toEqual(Array.from({ length: 240 }, (_, k) => k));
    expect(merged.every((frame) => frame.info?.converged === true)).toBe(true);
    const [header, ...rows] = readFileSync(join(dir, 'killed.csv'), 'utf8').trimEnd().split('\n');
    expect(header.split(',')[3]).toBe('systemId');
    const keys = rows.map((row) => row.split(',').slice(0, 4).join(','));
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(rows.map((row) => Number(row.split(',')[3])))).toEqual(new Set(merged.map((_, k) => k)));
  });

  // The kill -9 test above is also the requeue of a preempted task: the lock goes with the killed process.
  it('a second relax --resume on the same output exits 2 while the first runs, naming it (issue 39, item 23)', async () => {
    // Two clusters at a time to a tight fmax: the first run lasts long enough for the second to meet it.
    const args = ['relax', many, '--fmax', '1e-6', ...LJ, '--max-atoms', '26', '--refill-every', '2', '--resume', '-o', 'locked.xyz', '--quiet'];
    const first = spawnCli(args, { cwd: dir });
    const done = collect(first, 120_000);
    const lock = join(dir, 'locked.xyz.lock');
    while (!(existsSync(lock) && readFileSync(lock, 'utf8') !== '') && first.exitCode === null) await sleep(5);
    const second = await runCli(args, { cwd: dir });
    expect(first.exitCode, 'the first run ended before the second met it').toBe(null);
    expect(second.code, `${second.stdout}${second.stderr}`).toBe(2);
    expect(second.stderr).toContain(`--out: locked.xyz is being written by another hookmd process (pid ${first.pid}, lock file locked.xyz.lock)`);
    expect((await done).code).toBe(0);
    expect(existsSync(lock)).toBe(false);
    expect((ids(read('locked.xyz')) as number[]).sort((a, b) => a - b)).toEqual(Array.from({ length: 240 }, (_, k) => k));
  });

  it('a SIGTERM records only finished systems; the next attempt does the rest', async () => {
    const args = ['relax', many, '--fmax', '1e-4', ...LJ, '--max-atoms', '130', '--refill-every', '2', '--resume', '-o', 'termed.xyz', '--quiet'];
    const child = spawnCli(args, { cwd: dir });
    const done = collect(child, 90_000);
    const path = join(dir, 'termed.xyz');
    while ((!existsSync(path) || statSync(path).size === 0) && child.exitCode === null) await sleep(5);
    child.kill('SIGTERM');
    const stopped = await done;
    expect([0, 143]).toContain(stopped.code);
    const written = read('termed.xyz');
    expect(written.every((frame) => frame.info?.converged === true)).toBe(true);
    await cli(args);
    expect(ids(read('termed.xyz')).sort((a, b) => (a as number) - (b as number))).toEqual(Array.from({ length: 240 }, (_, k) => k));
  });

  it('refuses an output that is not its own, and outputs it cannot append to', async () => {
    expect((await cli(['relax', input, ...RELAX, '--resume', '--shard', '0/2', '-o', 'half-1.xyz'], 2)).stderr).toContain('which is not in shard 0/2');
    expect((await cli(['relax', input, ...RELAX, '--resume', '-o', 'clusters.xyz'], 2)).stderr).toContain('has no systemId');
    expect((await cli(['relax', input, ...RELAX, '--resume', '-o', 'r.xyz', '--zarr', 'r.zarr'], 2)).stderr).toContain('--resume appends to extxyz files only');
    expect((await cli(['md', input, ...LJ, '--resume', '--traj', 't.xyz'], 2)).stderr).toContain('md needs --out');
  });

  it('md: systems in --out are skipped, their trajectory kept, the others run again from the start', async () => {
    const md = ['--ensemble', 'langevin', '--temperature', '0.5', '--dt', '0.005', '--steps', '40', '--seed', '3', ...LJ, '--traj-every', '20', '--quiet'];
    await cli(['md', input, ...md, '-o', 'md-ref.xyz', '--traj', 'md-ref.traj.xyz']);
    await cli(['md', input, ...md, '--resume', '-o', 'md-res.xyz', '--traj', 'md-res.traj.xyz']);
    // An earlier attempt finished systems 0-3 and left trajectory frames of every system.
    const out = readFileSync(join(dir, 'md-res.xyz'), 'utf8').split(/(?=^13\n)/m);
    writeFileSync(join(dir, 'md-res.xyz'), out.slice(0, 4).join(''));
    await cli(['md', input, ...md, '--resume', '-o', 'md-res.xyz', '--traj', 'md-res.traj.xyz']);
    await cli(['merge', 'md-res.xyz', '-o', 'md-res-merged.xyz']);
    expectSameRun(read('md-res-merged.xyz'), read('md-ref.xyz'));
    const traj = read('md-res.traj.xyz');
    const seen = traj.map((frame) => `${String(frame.info?.systemId)}@${String(frame.info?.step)}`);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(read('md-ref.traj.xyz').length);
  });
});
