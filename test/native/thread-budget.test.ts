// The default size of the CPU thread pool (docs/performance.md, "Threads"): HOOKMD_THREADS when set, else the
// tightest of the affinity mask, the cgroup CPU quota and the cores, and backendInfo() says which applied.
// The cgroup files are faked under a temporary root handed to the addon's policy; the affinity mask and
// HOOKMD_THREADS are checked in child processes (taskset, env), where the pool is sized at load.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { backendInfo, getThreads, loadBinding, setThreads } from '../../lib/native/index.js';
import { ensureBuilt, ROOT } from '../cli/run-cli.js';

const LIBRARY = pathToFileURL(join(ROOT, 'dist', 'index.js')).href;
const CPUS = availableParallelism();
const initial = getThreads();
afterAll(() => setThreads(initial));

/** A directory standing for "/" that holds `files` (path → contents). */
function fakeRoot(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'hookmd-cgroup-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function decide(files: Record<string, string>, hookmdThreads?: string) {
  return loadBinding().decideThreadBudget(fakeRoot(files), hookmdThreads);
}

/** backendInfo() of a fresh process started with `env` (and under `prefix`, e.g. taskset). */
function childInfo(env: Record<string, string | undefined>, prefix: string[] = []) {
  const code = `const h = await import(${JSON.stringify(LIBRARY)}); process.stdout.write(JSON.stringify(h.backendInfo()));`;
  const command = [...prefix, process.execPath, '--input-type=module', '-e', code];
  const child = spawnSync(command[0], command.slice(1), { encoding: 'utf8', env: { ...process.env, HOOKMD_BACKEND: 'cpu', ...env } });
  return child;
}

describe('thread budget', () => {
  beforeAll(() => ensureBuilt());

  it('a cgroup v2 quota of half a CPU limits the pool to one thread', () => {
    const budget = decide({ 'proc/self/cgroup': '0::/box\n', 'sys/fs/cgroup/box/cpu.max': '50000 100000\n' });
    expect(budget.threads).toBe(1);
    expect(budget.cpus).toBe(1);
    if (CPUS > 1) {
      expect(budget.limit).toBe('cgroup');
      expect(budget.detail).toContain('cpu.max 50000 100000');
    }
  });

  it('rounds a fractional quota up to whole CPUs, and takes the tightest ancestor', () => {
    const budget = decide({
      'proc/self/cgroup': '0::/box/job\n',
      'sys/fs/cgroup/box/job/cpu.max': 'max 100000\n',
      'sys/fs/cgroup/box/cpu.max': '150000 100000\n',
      'sys/fs/cgroup/cpu.max': '400000 100000\n',
    });
    expect(budget.threads).toBe(Math.min(2, CPUS));
    if (CPUS > 2) expect(budget.detail).toContain('1.5 CPUs');
  });

  it('reads a cgroup v1 CFS quota; -1 means none', () => {
    const limited = decide({
      'proc/self/cgroup': '9:name=systemd:/\n4:cpu,cpuacct:/job\n',
      'sys/fs/cgroup/cpu,cpuacct/job/cpu.cfs_quota_us': '50000\n',
      'sys/fs/cgroup/cpu,cpuacct/job/cpu.cfs_period_us': '100000\n',
    });
    expect(limited.threads).toBe(1);
    if (CPUS > 1) expect(limited.limit).toBe('cgroup');
    const unlimited = decide({
      'proc/self/cgroup': '1:cpu:/\n',
      'sys/fs/cgroup/cpu/cpu.cfs_quota_us': '-1\n',
      'sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n',
    });
    expect(unlimited.threads).toBe(CPUS);
    expect(['affinity', 'cores']).toContain(unlimited.limit);
  });

  it('without cgroup files, or with unreadable ones, the CPUs decide', () => {
    const cases: Record<string, string>[] = [{}, { 'proc/self/cgroup': '0::/x\n', 'sys/fs/cgroup/x/cpu.max': 'garbage\n' }];
    for (const files of cases) {
      const budget = decide(files);
      expect(budget.threads).toBe(CPUS);
      expect(['affinity', 'cores']).toContain(budget.limit);
    }
  });

  it('HOOKMD_THREADS is taken as given, even above the quota', () => {
    const budget = decide({ 'proc/self/cgroup': '0::/\n', 'sys/fs/cgroup/cpu.max': '50000 100000\n' }, '3');
    expect(budget).toMatchObject({ threads: 3, limit: 'HOOKMD_THREADS', cpus: 1, detail: 'HOOKMD_THREADS=3' });
  });

  it('backendInfo() names the limit: setThreads, then the default again', () => {
    setThreads(1);
    expect(backendInfo()).toMatchObject({ threads: 1, threadLimit: 'setThreads', threadLimitDetail: 'setThreads(1)' });
    setThreads();
    const info = backendInfo();
    expect(info.threads).toBe(process.env.HOOKMD_THREADS === undefined ? CPUS : Number(process.env.HOOKMD_THREADS));
    expect(info.cpus).toBeLessThanOrEqual(CPUS);
  });

  it('a process pinned to one CPU starts one thread and says it was the affinity mask', () => {
    const child = childInfo({ HOOKMD_THREADS: undefined }, ['taskset', '-c', '0']);
    expect(child.stderr).toBe('');
    const info = JSON.parse(child.stdout);
    expect(info).toMatchObject({ threads: 1, cpus: 1 });
    if (CPUS > 1) expect(info.threadLimit).toBe('affinity');
  });

  it('HOOKMD_THREADS sizes the pool at load, and a bad value is a typed error', () => {
    expect(JSON.parse(childInfo({ HOOKMD_THREADS: '3' }).stdout)).toMatchObject({ threads: 3, threadLimit: 'HOOKMD_THREADS' });
    const bad = childInfo({ HOOKMD_THREADS: 'all' });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('INVALID_THREADS');
    expect(bad.stderr).toContain('HOOKMD_THREADS: must be an integer from 1 to 1024, got "all"');
  });
});
