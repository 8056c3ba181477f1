// `hookmd info`, `hookmd schema` and `hookmd demo` as spawned processes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt, ROOT, runCli } from './run-cli.js';

beforeAll(() => ensureBuilt());

describe('hookmd info', () => {
  it('reports the version, each backend and why CUDA is or is not used, and the thread count', async () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const result = await runCli(['info', '--json', '--threads', '2']);
    expect(result.code).toBe(0);
    const info = JSON.parse(result.stdout) as { version: string; threads: number; backend: string; backends: Array<{ name: string; available: boolean; device: string | null; reason: string | null }> };
    expect(info.version).toBe(version);
    expect(info.threads).toBe(2);
    expect(info.backends.map((b) => b.name)).toEqual(['cpu', 'mirror', 'cuda']);
    const cuda = info.backends[2];
    // Either the device in use, or the reason there is none: never neither.
    expect(cuda.available ? cuda.device : cuda.reason).toMatch(/\S/);
    // 'auto' takes cuda exactly where the probe found a usable GPU (docs/cuda.md).
    const requested = process.env.HOOKMD_BACKEND ?? 'auto';
    expect(info.backend).toBe(requested === 'auto' ? (cuda.available ? 'cuda' : 'cpu') : requested);
  });

  it('says whether onnxruntime-node (for OnnxModel) is installed, and which execution providers it offers', async () => {
    const result = await runCli(['info', '--json']);
    const info = JSON.parse(result.stdout) as { onnxruntime: { installed: boolean; version: string | null; providers: Array<{ name: string; available: boolean }>; hint: string | null } };
    // onnxruntime-node is a devDependency, so it is installed wherever the tests run.
    expect(info.onnxruntime.installed).toBe(true);
    expect(info.onnxruntime.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(info.onnxruntime.providers).toContainEqual({ name: 'cpu', available: true });
    const table = await runCli(['info']);
    expect(table.stdout).toMatch(/\nonnx +\d+\.\d+\.\d+ \(providers: cpu/);
  });

  it('prints a readable table without --json', async () => {
    const result = await runCli(['info', '--backend', 'cpu']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^version +\d+\.\d+\.\d+\nbackend +cpu \(requested: cpu\)\nthreads +\d+\ncpu +available: .+\nmirror +available: .+\ncuda +(available|unavailable): .+\n/);
  });
});

describe('hookmd info --backend cuda', () => {
  it('is a diagnostic: where cuda cannot run it reports the fallback and why, and exits 0', async () => {
    const result = await runCli(['info', '--backend', 'cuda', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const info = JSON.parse(result.stdout) as { backend: string; requested: string; fallback: string | null; backends: Array<{ name: string; available: boolean; reason: string | null }> };
    expect(info.requested).toBe('cuda');
    const cuda = info.backends.find((b) => b.name === 'cuda');
    if (info.backend === 'cuda') expect([info.fallback, cuda?.available]).toEqual([null, true]);
    else expect([info.backend, cuda?.available, cuda?.reason]).toEqual(['cpu', false, info.fallback]);
    const table = await runCli(['info', '--backend', 'cuda']);
    expect(table.code).toBe(0);
    if (info.backend !== 'cuda') expect(table.stdout).toContain(`backend  cpu (requested: cuda; it cannot run here: ${info.fallback}`);
  });
});

describe('hookmd schema', () => {
  it('prints the schema published as docs/config.schema.json', async () => {
    const result = await runCli(['schema']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(readFileSync(join(ROOT, 'docs', 'config.schema.json'), 'utf8'));
  });
});

describe('hookmd demo', () => {
  it('runs the main job through the pipeline and prints its table', async () => {
    const result = await runCli(['demo', '--json'], { timeoutMs: 60_000 });
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.stdout) as Array<{ job: string; systems: number; result: string }>;
    expect(rows.map((r) => r.systems)).toEqual([256, 256, 1]);
    expect(rows[0].result).toMatch(/^256\/256 converged, 256 at E = -44\.326801 ε/);
    // 256 clusters of 36 degrees of freedom (3N − 3) at 20 K: the mean is within ±0.9 K (3σ); counting 3N
    // would read 20·36/39 = 18.5 K.
    expect(rows[1].result).toMatch(/^256\/256 through both stages, mean final T (19|20)\.\d K$/);
    expect(rows[2].result).toMatch(/^mean T over the last 1000 steps (3[5-9]|4[0-5])\.\d K/);
  });
});
