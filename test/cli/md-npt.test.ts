// `hookmd md --ensemble npt` end to end, as a spawned process, on an fcc LJ crystal in lj units.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { bulk, repeat } from '../../lib/data/index.js';
import { readExtxyz, writeExtxyz } from '../../lib/io/index.js';
import { LJ_MODEL } from './fixtures.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';
import { columnName } from '../../lib/dynamics/hooks/log-units.js';

let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  const a = (4 / 0.8442) ** (1 / 3);
  await writeExtxyz(join(dir, 'crystal.xyz'), [repeat(bulk('Ar', 'fcc', { a, cubic: true }), [4, 4, 4])], { units: 'lj' });
  // The primitive fcc cell: triclinic (60° between its vectors).
  await writeExtxyz(join(dir, 'primitive.xyz'), [repeat(bulk('Ar', 'fcc', { a }), [4, 4, 4])], { units: 'lj' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hookmd md --ensemble npt', () => {
  it('runs at constant T and P: the cell changes, and the log shows volume and pressure', async () => {
    const result = await runCli(['md', 'crystal.xyz', '--units', 'lj', '--model', LJ_MODEL, '--ensemble', 'npt', '--temperature', '1.5', '--pressure', '1.0',
      '--pdamp', '1.0', '--steps', '400', '--log', 'npt.csv', '--log-every', '100', '--out', 'final.xyz', '--quiet'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [header, ...rows] = readFileSync(join(dir, 'npt.csv'), 'utf8').trimEnd().split('\n');
    const columns = header.split(',').map(columnName);
    expect(header.split(',')).toEqual(expect.arrayContaining(['volume[σ^3]', 'pressure[ε/σ^3]']));
    const volumes = rows.map((row) => Number(row.split(',')[columns.indexOf('volume')]));
    // Steps 0, 100, 200, 300 and 400; step 0 is the input, whose cell has not moved yet.
    expect(volumes).toHaveLength(5);
    const start = (4 / 0.8442) * 64;
    expect(volumes[0]).toBeCloseTo(start, 9);
    // The crystal melts and expands at T 1.5, P 1.0.
    expect(volumes[4]).toBeGreaterThan(start * 1.02);
    const [final] = readExtxyz(join(dir, 'final.xyz'), { units: 'lj' });
    const cell = (final.cell as number[][]).flat();
    expect(cell[0] * cell[4] * cell[8]).toBeGreaterThan(start * 1.02);
  });

  it('needs --pressure, and --pdamp only goes with npt', async () => {
    const missing = await runCli(['md', 'crystal.xyz', '--units', 'lj', '--model', LJ_MODEL, '--ensemble', 'npt', '--temperature', '1', '--steps', '2', '--out', 'x.xyz', '--quiet'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--pressure: required with --ensemble npt');
    const stray = await runCli(['md', 'crystal.xyz', '--units', 'lj', '--model', LJ_MODEL, '--ensemble', 'nhc', '--temperature', '1', '--pdamp', '1', '--steps', '2', '--out', 'x.xyz', '--quiet'], { cwd: dir });
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--pdamp: only with --ensemble npt');
  });
});

describe('a triclinic cell under NPT (issue 39 item 14)', () => {
  const run = (ensemble: string, extra: string[] = []) => runCli(['md', 'primitive.xyz', '--units', 'lj', '--model', LJ_MODEL, '--ensemble', ensemble, '--temperature', '1.5', '--pressure', '1.0',
    '--pdamp', '1.0', '--steps', '200', '--out', `${ensemble}.xyz`, '--quiet', ...extra], { cwd: dir });

  it('npt exits 2 (an input the user changes, as a slab is), naming the ensembles that keep any cell shape', async () => {
    const result = await run('npt');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/has a triclinic cell; NPT .* needs orthorhombic .*NPTLangevin keeps any cell shape, and Langevin or NoseHooverChain run any cell at constant volume/);
  });

  it('--ensemble npt-langevin runs it: the volume changes and the cell keeps its shape', async () => {
    const result = await run('npt-langevin', ['--compressibility', '0.05', '--friction', '1']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [final] = readExtxyz(join(dir, 'npt-langevin.xyz'), { units: 'lj' });
    const [start] = readExtxyz(join(dir, 'primitive.xyz'), { units: 'lj' });
    const flat = (cell: unknown): number[] => (cell as number[][]).flat();
    const ratio = flat(final.cell)[1] / flat(start.cell)[1];
    expect(Math.abs(ratio - 1)).toBeGreaterThan(1e-3);
    flat(final.cell).forEach((v, k) => expect(v).toBeCloseTo(ratio * flat(start.cell)[k], 9));
  });

  it('npt-langevin needs --compressibility in lj units, and takes it only there', async () => {
    const missing = await run('npt-langevin');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--compressibility: required with --ensemble npt-langevin in lj units');
    const stray = await run('npt', ['--compressibility', '0.05']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--compressibility: only with --ensemble npt-langevin');
  });
});
