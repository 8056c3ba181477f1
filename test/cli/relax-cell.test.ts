// `hookmd relax --cell` and `--optimizer lbfgs`, and the `cell` option of a config stage, end to end as
// spawned processes on strained, rattled fcc argon in metal units.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, repeat, type System } from '../../lib/data/index.js';
import { readExtxyz, writeExtxyz } from '../../lib/io/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';

let dir: string;

const ARGON = 'lj:epsilon=0.0104,sigma=3.4,cutoff=8.5';
const GPA = 1 / 160.21766208;

/** 32-atom fcc crystals, each strained along the axes by its own factors and rattled. */
function crystals(): System[] {
  return [[1.05, 0.97, 1.0], [0.96, 1.02, 1.03], [1.0, 1.0, 1.06]].map((strain, k) => {
    const crystal = rattle(repeat(bulk('Ar', 'fcc', { a: 5.3, cubic: true }), [2, 2, 2]), 0.05, k + 1);
    const scale = (row: number[]): number[] => row.map((x, c) => x * strain[c]);
    return { ...crystal, positions: (crystal.positions as number[][]).map(scale), cell: (crystal.cell as number[][]).map(scale) };
  });
}

/** The stress of each relaxed structure, evaluated afresh by the model. */
function stresses(systems: System[]): Float64Array {
  const batch = Batch.fromSystems(systems);
  new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 }).compute(batch, { stress: true });
  return batch.read('stress');
}

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  await writeExtxyz(join(dir, 'crystals.xyz'), crystals());
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hookmd relax --cell', () => {
  it.each(['fire', 'lbfgs'])('--optimizer %s relaxes cells to the target pressure and logs volume and pressure', async (optimizer) => {
    const pressure = GPA;
    const result = await runCli(['relax', 'crystals.xyz', '--model', ARGON, '--optimizer', optimizer, '--cell', '--pressure', `${pressure}eV/A^3`,
      '--fmax', '1e-5', '--smax', '1e-7 eV/A^3', '--max-steps', '3000', '--out', `${optimizer}.xyz`, '--log', `${optimizer}.csv`], { cwd: dir });
    expect(result.stderr).not.toContain('hookmd:');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/3 converged, 0 unconverged/);
    const relaxed = readExtxyz(join(dir, `${optimizer}.xyz`));
    const stress = stresses(relaxed);
    for (let s = 0; s < 3; s++) {
      for (let k = 0; k < 9; k++) expect(Math.abs(stress[9 * s + k] + (k % 4 === 0 ? pressure : 0))).toBeLessThanOrEqual(1.001e-7);
    }
    const [header] = readFileSync(join(dir, `${optimizer}.csv`), 'utf8').split('\n');
    expect(header.split(',')).toEqual(expect.arrayContaining(['volume[Å^3]', 'pressure[eV/Å^3]']));
  });

  it('--pressure without --cell is a usage error naming the flag', async () => {
    const result = await runCli(['relax', 'crystals.xyz', '--model', ARGON, '--pressure', '1GPa', '--quiet'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--pressure: only with --cell');
  });

  it('a config stage with `cell` relaxes the cell in `hookmd run`', async () => {
    writeFileSync(join(dir, 'cell.yaml'), `model: { type: lj, epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 }
input: crystals.xyz
stages:
  - { type: lbfgs, fmax: 1e-5, cell: { pressure: 0 bar, stress: 1e-7 eV/A^3 } }
sinks:
  - { path: run.xyz }
`);
    const result = await runCli(['run', 'cell.yaml', '--quiet'], { cwd: dir });
    expect(result.code).toBe(0);
    const stress = stresses(readExtxyz(join(dir, 'run.xyz')));
    for (const value of stress) expect(Math.abs(value)).toBeLessThanOrEqual(1.001e-7);
  });
});
