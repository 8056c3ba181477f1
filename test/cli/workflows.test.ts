// `hookmd elastic` and `hookmd phonons` end to end: the numbers the library gives, as text and as JSON, and
// usage errors (exit 2) for a supercell that is too small and for a missing model, and their progress on stderr.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { bulk } from '../../lib/data/index.js';
import { writeExtxyz } from '../../lib/io/index.js';
import { LAMMPS_POTENTIALS } from '../helpers/lammps.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';

const SW = join(LAMMPS_POTENTIALS, 'Si.sw');
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  await writeExtxyz(join(dir, 'si.xyz'), [bulk('Si', 'diamond', { a: 5.43, cubic: true })]);
  await writeExtxyz(join(dir, 'ar.xyz'), [bulk('Ar', 'fcc', { a: 5.26 })]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LJ = 'lj:epsilon=0.0104,sigma=3.4,cutoff=10.2,shift=true';

describe('hookmd elastic and hookmd phonons', () => {
  it.skipIf(!existsSync(SW))('elastic prints C_ij and the moduli; --json gives the same numbers', async () => {
    const text = await runCli(['elastic', 'si.xyz', '--model', `sw:${SW}`], { cwd: dir });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^\s+151\.42\s+76\.42\s+76\.42/m);
    const json = await runCli(['elastic', 'si.xyz', '--model', `sw:${SW}`, '--json'], { cwd: dir });
    const report = JSON.parse(json.stdout) as { C: number[][]; bulkModulus: number; unit: string };
    expect(report.unit).toBe('GPa');
    expect(report.C[3]?.[3]).toBeCloseTo(56.45, 1);
    expect(report.bulkModulus).toBeCloseTo(101.42, 1);
  });

  it('phonons prints the frequencies at each q; a thin supercell is a usage error naming the one to use', async () => {
    const run = await runCli(['phonons', 'ar.xyz', '--model', LJ, '--supercell', '7', '--q', '0.5,0,0.5;0.5,0.5,0.5', '--json'], { cwd: dir });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { frequencies: number[][]; unit: string };
    expect(report.unit).toBe('THz');
    expect(report.frequencies[0]?.[2]).toBeCloseTo(2.0261, 3);
    const thin = await runCli(['phonons', 'ar.xyz', '--model', LJ, '--supercell', '3'], { cwd: dir });
    expect(thin.code).toBe(2);
    expect(thin.stderr).toContain('use supercell [7, 7, 7]');
    const none = await runCli(['elastic', 'si.xyz'], { cwd: dir });
    expect(none.code).toBe(2);
  });

  it('show their progress on stderr, stage by stage, as the other commands do; --quiet shows none', async () => {
    // stderr is a pipe here, so progress comes as lines (a bar on a terminal), every line with interval 0.
    const lines = await runCli(['phonons', 'ar.xyz', '--model', LJ, '--supercell', '7', '--progress-interval', '0', '--json'], { cwd: dir });
    expect(lines.code).toBe(0);
    expect(lines.stderr).toMatch(/^phonons: 0\/6 systems \(0%\), step 0, .*forces of the displaced supercells$/m);
    expect(lines.stderr).toMatch(/^phonons: 6\/6 systems \(100%\), step 1, .*forces of the displaced supercells$/m);
    const quiet = await runCli(['phonons', 'ar.xyz', '--model', LJ, '--supercell', '7', '--json', '--quiet'], { cwd: dir });
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toBe(lines.stdout);
  });

  it.skipIf(!existsSync(SW))('elastic reports the cell relaxation, the ion relaxations and the stress call', async () => {
    const run = await runCli(['elastic', 'si.xyz', '--model', `sw:${SW}`, '--progress-interval', '0', '--json'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^elastic: \d+\/20000 steps .*, cell relaxation$/m);
    expect(run.stderr).toMatch(/^elastic: \d+\/20000 steps .*, ion relaxations of the strained cells$/m);
    expect(run.stderr).toMatch(/^elastic: 12\/12 systems \(100%\), .*stress of the strained cells$/m);
    expect((await runCli(['elastic', 'si.xyz', '--model', `sw:${SW}`, '--json', '-q'], { cwd: dir })).stderr).toBe('');
  });
});
