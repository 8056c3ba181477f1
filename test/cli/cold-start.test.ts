// Issue 39, item 1 through the CLI: a config whose Nosé–Hoover stage gets systems at rest (input without
// velocities, no optimizer before it) is COLD_START, a usage error (exit 2) naming velocities: { … }.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { bulk, repeat } from '../../lib/data/index.js';
import { writeExtxyz } from '../../lib/io/index.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';

let dir: string;
beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  await writeExtxyz(join(dir, 'crystal.xyz'), [repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), [2, 2, 2])]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hookmd run: a Nosé–Hoover stage on input at rest', () => {
  it('exits 2 with COLD_START naming velocities: { temperature, seed }; with them it runs', async () => {
    const config = (velocities: string): string => `model: { type: lj, epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 }
input: crystal.xyz
stages:
  - { type: nhc, dt: 2, temperature: 40, steps: 10${velocities} }
sinks:
  - { path: out.xyz }
`;
    writeFileSync(join(dir, 'cold.yaml'), config(''));
    const cold = await runCli(['run', 'cold.yaml', '--quiet'], { cwd: dir });
    expect(cold.code).toBe(2);
    expect(cold.stderr).toContain('is at rest, and NoseHooverChain only rescales the velocities it is given');
    expect(cold.stderr).toContain('velocities: { temperature: 40, seed: 1 }');
    writeFileSync(join(dir, 'warm.yaml'), config(', velocities: { temperature: 40, seed: 1 }'));
    rmSync(join(dir, 'out.xyz'), { force: true });
    const warm = await runCli(['run', 'warm.yaml', '--quiet'], { cwd: dir });
    expect(warm.code).toBe(0);
  });
});
