// `hookmd run <config>` end to end: a fused relax → heat pipeline from YAML and from JSON, hooks by
// registered name (built-ins and a plugin's), sinks, and the progress bar on a real terminal.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readExtxyz, readZarr } from '../../lib/io/index.js';
import { writeClusters } from './fixtures.js';
import { BIN, ensureBuilt, runCli, workDir } from './run-cli.js';

let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  await writeClusters(dir, 8);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PIPELINE = `# relax, then heat: two stages fused into one engine
units: lj
model: { type: lj, epsilon: 1, sigma: 1, cutoff: 2.5 }
input: clusters.xyz
stages:
  - { type: fire, fmax: 0.001, steps: 1000 }
  - { type: langevin, dt: 0.005, temperature: 0.1, seed: 4, steps: 100 }
hooks:
  - { type: LoggingHook, path: pipeline.csv, frequency: 25 }
  - { type: ConvergedSnapshotHook, path: relaxed.xyz }
  - { type: NaNDetectorHook, frequency: 10 }
  - { type: EnergyDriftMonitorHook, enabled: false }
sinks:
  - { path: done.xyz }
  - { path: done.zarr, capacity: 4 }
stream: { maxAtoms: 52, refillEvery: 5 }
`;

describe('hookmd run', () => {
  it('streams every structure through fused FIRE → Langevin into the sinks, with hooks by name', async () => {
    writeFileSync(join(dir, 'pipeline.yaml'), PIPELINE);
    const result = await runCli(['run', 'pipeline.yaml', '--json', '--quiet'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      command: 'run', systems: 8, processed: 8, converged: 8, interrupted: null, outputs: ['done.xyz', 'done.zarr', 'pipeline.csv', 'relaxed.xyz'],
    });
    const done = readExtxyz(join(dir, 'done.xyz'), { units: 'lj' });
    expect(done.map((s) => s.info?.tag)).toEqual([...Array(8).keys()]);
    expect(done.every((s) => s.info?.status === 2)).toBe(true);
    expect(await readZarr(join(dir, 'done.zarr'))).toHaveLength(8);
    // ConvergedSnapshotHook fires as each system leaves the FIRE stage: relaxed, before the heating.
    const relaxed = readExtxyz(join(dir, 'relaxed.xyz'), { units: 'lj' });
    expect(relaxed).toHaveLength(8);
    for (const s of relaxed) expect(Math.max(...(s.forces as number[][]).map((f) => Math.hypot(...f)))).toBeLessThanOrEqual(1e-3);
    const log = readFileSync(join(dir, 'pipeline.csv'), 'utf8').trimEnd().split('\n');
    expect(log[0]).toBe('step,time[τ],system,systemId,status,temperature[ε/k_B],energy[ε],kineticEnergy[ε],totalEnergy[ε],fmax[ε/σ]');
    // Status is the sub-stage: rows from both the FIRE (0) and the Langevin (1) stage, and the last state
    // of each system as it leaves the pipeline, finished (2).
    expect(new Set(log.slice(1).map((row) => row.split(',')[4]))).toEqual(new Set(['0', '1', '2']));
    // The time column is each system's time in the Langevin stage (issue 39, item 36): empty while it relaxes.
    for (const row of log.slice(1).map((line) => line.split(','))) expect(row[1] === '', row.join(',')).toBe(row[4] === '0');
  });

  it('reads JSON configs, loads plugins that register hook types, and applies their arguments', async () => {
    writeFileSync(join(dir, 'count-hook.mjs'), `
      import { registerHookType, DynamicsStage } from 'hookmd';
      registerHookType('CountConvergedHook', (args) => ({
        stage: DynamicsStage.ON_CONVERGE, frequency: 1, name: 'CountConvergedHook', count: 0,
        call(ctx) { this.count += ctx.convergedMask.reduce((a, b) => a + b, 0); },
        close() { process.stderr.write(args.label + ': ' + this.count + '\\n'); },
      }));
    `);
    const config = {
      units: 'lj',
      plugins: ['count-hook.mjs'],
      model: { type: 'lj', epsilon: 1, sigma: 1, cutoff: 2.5 },
      input: 'clusters.xyz',
      stages: [{ type: 'fire2', fmax: 0.01 }],
      hooks: [{ type: 'CountConvergedHook', label: 'converged so far' }],
      sinks: [{ path: 'fire2.xyz' }],
    };
    writeFileSync(join(dir, 'plugin.json'), JSON.stringify(config, null, 2));
    const result = await runCli(['run', 'plugin.json', '--quiet'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('converged so far: 8\n');
    expect(readExtxyz(join(dir, 'fire2.xyz'), { units: 'lj' })).toHaveLength(8);
  });

  const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
  it.skipIf(!hasScript)('draws a progress bar with ETA, steps/s and the converged count on a terminal', () => {
    writeFileSync(join(dir, 'pipeline.yaml'), PIPELINE);
    rmSync(join(dir, 'done.zarr'), { recursive: true, force: true });
    // util-linux `script` gives the command a pseudo-terminal, as an interactive shell would.
    const tty = spawnSync('script', ['-qec', `${process.execPath} ${BIN} run pipeline.yaml`, '/dev/null'], { cwd: dir, encoding: 'utf8', input: '' });
    expect(tty.status).toBe(0);
    const screen = tty.stdout.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b[78]/g, '');
    expect(screen).toMatch(/run \[[█░]+\] 100% \| 8\/8 systems \| step \d+ \| \d+ steps\/s \| 8 finished \| ETA \S+/);
    expect(screen).toContain('\r');
    expect(screen).toMatch(/run: 8\/8 systems written, 8 finished, 0 unfinished/);
  });
});
