// The recipes of docs/scale-out.md, run as written: the Slurm array through submit.sh (with a stand-in
// sbatch that runs the array's tasks here, with Slurm's environment variables, preempting one with SIGKILL
// and requeueing it), the Kubernetes Indexed Job's container command once per JOB_COMPLETION_INDEX, and
// the queue (push script, the worker Deployment's command, finish script) against a Redis of its own.
// Each result must equal one plain relax of the whole input, each system once.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

import { readExtxyz, writeExtxyz } from '../../lib/io/index.js';
import { perturbedLj13 } from '../dynamics/lj-systems.js';
import { RedisServer, REDIS_TESTS } from './redis-server.js';
import { BIN, ensureBuilt, ROOT, workDir } from './run-cli.js';

const SYSTEMS = 200;
const doc = readFileSync(join(ROOT, 'docs', 'scale-out.md'), 'utf8');
const files = new Map([...doc.matchAll(/```\w+ title="([^"]+)"\n([\s\S]*?)```/g)].map((m) => [m[1], m[2]] as const));

let root: string;
let env: NodeJS.ProcessEnv;
let reference: ReturnType<typeof readExtxyz>;

// Argon clusters: LJ13 geometries scaled by σ = 3.4 Å.
function candidates(): Parameters<typeof writeExtxyz>[1] {
  return Array.from({ length: SYSTEMS }, (_, k) => {
    const cluster = perturbedLj13(0.08, 0.29 * k);
    return { symbols: Array(13).fill('Ar'), positions: (cluster.positions as number[][]).map((p) => p.map((x) => 3.4 * x)), info: { tag: k } };
  });
}

/** A directory with the input and the recipe files. */
async function stage(name: string): Promise<string> {
  const dir = join(root, name);
  mkdirSync(dir);
  await writeExtxyz(join(dir, 'candidates.xyz'), candidates());
  for (const [file, text] of files) writeFileSync(join(dir, file), text);
  return dir;
}

function sh(command: string, cwd: string, extra: NodeJS.ProcessEnv = {}): string {
  const result = spawnSync('bash', ['-c', command], { cwd, env: { ...env, ...extra }, encoding: 'utf8', timeout: 240_000 });
  expect(result.status, `${command}\n${result.stdout}${result.stderr}`).toBe(0);
  return result.stdout;
}

function expectReference(path: string): void {
  const merged = readExtxyz(path);
  expect(merged.map((f) => f.info?.systemId)).toEqual(reference.map((_, k) => k));
  merged.forEach((frame, k) => {
    expect(frame.info?.tag).toBe(k);
    expect(frame.energy).toBe(reference[k].energy);
  });
}

// sbatch for submit.sh: `--parsable script` runs the #SBATCH --array tasks here (task 1 is preempted once:
// SIGKILLed, with its shell, after its first frames, then run again as --requeue does) and prints a job id;
// `--dependency=afterok:ID --wrap CMD` runs CMD.
const SBATCH = `#!/usr/bin/env node
const { spawn, spawnSync } = require('node:child_process');
const { existsSync, statSync, appendFileSync, readFileSync } = require('node:fs');
const args = process.argv.slice(2);
if (args[0] !== '--parsable') {
  const wrap = args[args.indexOf('--wrap') + 1];
  process.exit(spawnSync('bash', ['-c', wrap], { stdio: 'inherit' }).status);
}
const script = args[1];
const [, first, last] = /#SBATCH --array=(\\d+)-(\\d+)/.exec(readFileSync(script, 'utf8'));
const count = Number(last) - Number(first) + 1;
const task = (id) => spawn('bash', [script], { detached: true, stdio: 'inherit', env: { ...process.env, SLURM_ARRAY_JOB_ID: '4242', SLURM_ARRAY_TASK_ID: String(id), SLURM_ARRAY_TASK_COUNT: String(count), SLURM_CPUS_PER_TASK: '1' } });
const exited = (child) => new Promise((resolve) => child.on('exit', (code) => resolve(code)));
(async () => {
  const codes = [];
  for (let id = Number(first); id <= Number(last); id++) {
    if (id !== 1) { codes.push(exited(task(id))); continue; }
    codes.push((async () => {
      const child = task(id);
      const end = exited(child);
      const out = 'relaxed-1.xyz';
      while (child.exitCode === null && !(existsSync(out) && statSync(out).size > 0)) await new Promise((r) => setTimeout(r, 5));
      if (child.exitCode === null) { process.kill(-child.pid, 'SIGKILL'); appendFileSync('preempted.log', 'task 1 killed\\n'); }
      await end;
      return exited(task(id));
    })());
  }
  const results = await Promise.all(codes);
  if (results.some((code) => code !== 0)) process.exit(1);
  console.log('4242');
})();
`;

beforeAll(async () => {
  ensureBuilt();
  root = workDir('hookmd-scale-out-docs-');
  const bin = join(root, '.bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'hookmd'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  writeFileSync(join(bin, 'sbatch'), SBATCH);
  for (const tool of ['hookmd', 'sbatch']) chmodSync(join(bin, tool), 0o755);
  env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
  const dir = await stage('reference');
  sh('hookmd relax candidates.xyz --model lj:epsilon=0.0104,sigma=3.4,cutoff=8.5 --fmax 0.01 --out single.xyz --quiet', dir);
  reference = readExtxyz(join(dir, 'single.xyz'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('docs/scale-out.md', () => {
  it('has the three recipes', () => {
    expect([...files.keys()]).toEqual(expect.arrayContaining(['relax-array.sh', 'submit.sh', 'relax-job.yaml', 'queue-workers.yaml', 'queue-push.sh', 'queue-finish.sh']));
  });

  it('Slurm: submit.sh runs the array (one task preempted and requeued with --resume), then the merge', async () => {
    const dir = await stage('slurm');
    sh('bash submit.sh', dir);
    expect(readFileSync(join(dir, 'preempted.log'), 'utf8')).toContain('task 1 killed');
    expectReference(join(dir, 'relaxed.xyz'));
  });

  it('Kubernetes Indexed Job: the container command once per JOB_COMPLETION_INDEX, then merge', async () => {
    const dir = await stage('k8s');
    const job = parseAllDocuments(files.get('relax-job.yaml') as string)[0].toJS() as { spec: { completions: number; template: { spec: { containers: Array<{ command: string[]; args: string[] }> } } } };
    const [container] = job.spec.template.spec.containers;
    const pods = Array.from({ length: job.spec.completions }, (_, index) => new Promise<number | null>((resolve) => {
      const pod = spawn(container.command[0], [...container.command.slice(1), ...container.args], { cwd: dir, env: { ...env, JOB_COMPLETION_INDEX: String(index) }, stdio: 'inherit' });
      pod.on('exit', resolve);
    }));
    expect(await Promise.all(pods)).toEqual(Array(job.spec.completions).fill(0));
    sh('hookmd merge relaxed-*.xyz --out relaxed.xyz', dir);
    expectReference(join(dir, 'relaxed.xyz'));
  });

  it.skipIf(!REDIS_TESTS)('queue: push, two workers with the Deployment\'s command (stopped by SIGTERM once done), then finish', async () => {
    const dir = await stage('queue');
    const redis = await RedisServer.start();
    try {
      const manifests = parseAllDocuments(files.get('queue-workers.yaml') as string).map((d) => d.toJS() as { kind: string; metadata: { name: string }; spec: { template: { spec: { containers: Array<{ command: string[]; args: string[]; env: Array<{ name: string; value: string }> }> } } } });
      const [container] = (manifests.find((m) => m.kind === 'Deployment' && m.metadata.name === 'hookmd-workers') as (typeof manifests)[number]).spec.template.spec.containers;
      const podEnv = { ...env, ...Object.fromEntries(container.env.map((e) => [e.name, e.value])), REDIS_URL: redis.url };
      sh('bash queue-push.sh', dir, { REDIS_URL: redis.url });
      const workers = [0, 1].map(() => spawn(container.command[0], [...container.command.slice(1), ...container.args], { cwd: dir, env: podEnv, stdio: 'inherit', detached: true }));
      const exits = workers.map((worker) => new Promise<number | null>((resolve) => worker.on('exit', resolve)));
      const deadline = Date.now() + 180_000;
      while (!/ 0 waiting, 0 active, 25 completed, 0 failed/.test(sh('hookmd queue status --redis "$REDIS_URL" --queue relax-ar', dir, { REDIS_URL: redis.url }))) {
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      for (const worker of workers) process.kill(-(worker.pid as number), 'SIGTERM');
      expect(await Promise.all(exits)).toEqual([143, 143]);
      sh('bash queue-finish.sh', dir, { REDIS_URL: redis.url });
      expectReference(join(dir, 'relaxed.xyz'));
    } finally {
      await redis.close();
    }
  });
});
