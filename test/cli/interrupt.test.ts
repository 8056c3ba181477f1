// Ctrl-C (and SIGTERM) mid-run: the command finishes the current step, flushes sinks and logs, and exits 130; the files
// it leaves parse, and the log ends with a whole row.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readExtxyz } from '../../lib/io/index.js';
import { LJ_MODEL, writeClusters } from './fixtures.js';
import { collect, ensureBuilt, spawnCli, waitForLines, workDir } from './run-cli.js';

let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  await writeClusters(dir, 4, 'few.xyz');
  await writeClusters(dir, 4000, 'many.xyz');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The csv log's rows, checking that each is whole: as many cells as the header, every number finite. */
function wholeRows(file: string): string[][] {
  const text = readFileSync(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  const [header, ...rows] = text.trimEnd().split('\n').map((line) => line.split(','));
  for (const row of rows) {
    expect(row).toHaveLength(header.length);
    for (const cell of row) expect(Number.isFinite(Number(cell))).toBe(true);
  }
  return rows;
}

describe('signals mid-run', () => {
  it('md: exits 130 with a trajectory that parses, a whole log, and the final frames', async () => {
    const child = spawnCli(['md', 'few.xyz', '--units', 'lj', '--model', LJ_MODEL, '--ensemble', 'langevin', '--temperature', '0.2',
      '--steps', '100000000', '--traj', 'traj.xyz', '--traj-every', '500', '--log', 'md.csv', '--log-every', '50', '--out', 'final.xyz', '--json'], { cwd: dir });
    const done = collect(child);
    await waitForLines(join(dir, 'md.csv'), 40, child);
    child.kill('SIGINT');
    const result = await done;
    expect(result.code).toBe(130);
    const summary = JSON.parse(result.stdout) as { steps: number; interrupted: string };
    expect(summary.interrupted).toBe('SIGINT');
    expect(result.stderr).toContain('hookmd md: stopping after the current step');
    const rows = wholeRows(join(dir, 'md.csv'));
    expect(rows.length % 4).toBe(0);
    // The run ends with the state it stopped in, as any run does; only a Ctrl-C that lands while a
    // trajectory write is pending abandons that step and ends the log at the last multiple of 50.
    const last = Number(rows.at(-1)?.[0]);
    const stoppedCleanly = last === summary.steps;
    if (!stoppedCleanly) expect(last).toBe(50 * Math.floor((summary.steps - 1) / 50));
    const traj = readExtxyz(join(dir, 'traj.xyz'), { units: 'lj' });
    const frames = stoppedCleanly ? Math.floor(summary.steps / 500) + 1 + (summary.steps % 500 === 0 ? 0 : 1) : Math.floor((summary.steps - 1) / 500) + 1;
    expect(traj.length).toBe(4 * frames);
    const final = readExtxyz(join(dir, 'final.xyz'), { units: 'lj' });
    expect(final.map((s) => s.info?.step)).toEqual(Array(4).fill(summary.steps));
  });

  it('relax: exits 130 after writing every structure it started, each exactly once', async () => {
    const child = spawnCli(['relax', 'many.xyz', '--units', 'lj', '--model', LJ_MODEL, '--fmax', '1e-6', '--max-atoms', '130',
      '--out', 'partial.xyz', '--log', 'relax.csv', '--json'], { cwd: dir });
    const done = collect(child);
    await waitForLines(join(dir, 'relax.csv'), 200, child);
    child.kill('SIGINT');
    const result = await done;
    expect(result.code).toBe(130);
    const summary = JSON.parse(result.stdout) as { systems: number; processed: number; converged: number; interrupted: string };
    expect(summary).toMatchObject({ systems: 4000, interrupted: 'SIGINT' });
    expect(summary.processed).toBeLessThan(4000);
    const written = readExtxyz(join(dir, 'partial.xyz'), { units: 'lj' });
    expect(written).toHaveLength(summary.processed);
    // Input order is kept, so the written structures are exactly the first `processed` ones.
    expect(written.map((s) => s.info?.tag)).toEqual([...Array(summary.processed).keys()]);
    expect(written.filter((s) => s.info?.converged === true)).toHaveLength(summary.converged);
    expect(written.filter((s) => s.info?.converged === false).length).toBeGreaterThan(0);
    wholeRows(join(dir, 'relax.csv'));
  });

  it('run: SIGTERM is handled the same way and exits 143', async () => {
    writeFileSync(join(dir, 'heat.yaml'), `units: lj
model: { type: lj, epsilon: 1, sigma: 1, cutoff: 2.5 }
input: many.xyz
stages:
  - { type: fire, fmax: 0.001, steps: 200 }
  - { type: nve, steps: 100000 }
hooks:
  - { type: LoggingHook, path: heat.csv, frequency: 20, bufferRows: 1 }
sinks:
  - { path: heat.xyz }
stream: { maxAtoms: 130 }
`);
    const child = spawnCli(['run', 'heat.yaml', '--json'], { cwd: dir });
    const done = collect(child);
    await waitForLines(join(dir, 'heat.csv'), 100, child);
    child.kill('SIGTERM');
    const result = await done;
    expect(result.code).toBe(143);
    const summary = JSON.parse(result.stdout) as { processed: number; interrupted: string };
    expect(summary.interrupted).toBe('SIGTERM');
    expect(readExtxyz(join(dir, 'heat.xyz'), { units: 'lj' })).toHaveLength(summary.processed);
    wholeRows(join(dir, 'heat.csv'));
  });
});
