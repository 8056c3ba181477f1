// `hookmd relax/md --model eam:<file>` and `model: { type: eam, file }` in configs, end to end, on rattled
// copper with Debian's Cu_u3.eam.
import { copyFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, repeat } from '../../lib/data/index.js';
import { readExtxyz, writeExtxyz, writePoscar } from '../../lib/io/index.js';
import { EAM } from '../../lib/models/index.js';
import { LAMMPS_POTENTIALS } from '../helpers/lammps.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';

const CU = join(LAMMPS_POTENTIALS, 'Cu_u3.eam');
const available = existsSync(CU);
let dir: string;

beforeAll(async () => {
  if (!available) return;
  ensureBuilt();
  dir = workDir();
  const structures = [1, 2, 3].map((seed) => rattle(repeat(bulk('Cu', 'fcc', { a: 3.63, cubic: true }), [2, 2, 2]), 0.08, seed));
  await writeExtxyz(join(dir, 'copper.xyz'), structures);
  copyFileSync(CU, join(dir, 'Cu_u3.eam'));
});
afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

function maxForce(forces: number[][]): number {
  return Math.max(...forces.map((f) => Math.hypot(...f)));
}

describe.skipIf(!available)(`hookmd with EAM ${available ? '' : '(skipped: no Cu_u3.eam; apt-get install lammps-data)'}`, () => {
  it('relax --model eam:<file> relaxes to forces below fmax, as the EAM model computes them', async () => {
    const result = await runCli(['relax', 'copper.xyz', '--model', `eam:${CU}`, '--fmax', '1e-3', '--max-steps', '3000', '--out', 'relaxed.xyz'], { cwd: dir });
    expect(result.stderr).not.toContain('hookmd:');
    expect(result.code).toBe(0);
    const relaxed = readExtxyz(join(dir, 'relaxed.xyz'));
    expect(relaxed).toHaveLength(3);
    const model = new EAM({ file: CU });
    for (const system of relaxed) {
      expect(maxForce(system.forces as number[][])).toBeLessThanOrEqual(1e-3);
      const batch = Batch.fromSystems([{ ...system, forces: undefined, energy: undefined }]);
      model.compute(batch);
      expect(batch.energy[0]).toBeCloseTo(system.energy as number, 9);
      // A rattled crystal relaxes back to the perfect lattice energy at this (fixed) cell.
      expect((system.energy as number) / 32).toBeLessThan(-3.53);
    }
  });

  it('md takes eam:file=…,skin=… and a run config takes { type: eam, file } relative to itself', async () => {
    const md = await runCli(['md', 'copper.xyz', '--model', `eam:file=${CU},skin=1`, '--steps', '20', '--dt', '1', '--temperature', '300', '--out', 'md.xyz'], { cwd: dir });
    expect(md.stderr).not.toContain('hookmd:');
    expect(md.code).toBe(0);
    writeFileSync(join(dir, 'eam.yaml'), ['model: { type: eam, file: Cu_u3.eam }', 'input: copper.xyz', 'stages:', '  - { type: fire, fmax: 0.01, steps: 2000 }', 'sinks:', '  - { path: done.xyz }', ''].join('\n'));
    const run = await runCli(['run', 'eam.yaml', '--quiet'], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(readExtxyz(join(dir, 'done.xyz'))).toHaveLength(3);
  });

  it('relax and md read a POSCAR (and the other structure formats) as their input', async () => {
    const crystal = rattle(repeat(bulk('Cu', 'fcc', { a: 3.615, cubic: true }), [2, 2, 2]), 0.08, 9);
    await writePoscar(join(dir, 'POSCAR'), crystal);
    const relax = await runCli(['relax', 'POSCAR', '--model', `eam:${CU}`, '--fmax', '1e-3', '--max-steps', '3000', '--out', 'poscar-relaxed.xyz'], { cwd: dir });
    expect(relax.stderr).not.toContain('hookmd:');
    expect(relax.code).toBe(0);
    const [relaxed] = readExtxyz(join(dir, 'poscar-relaxed.xyz'));
    expect(maxForce(relaxed.forces as number[][])).toBeLessThanOrEqual(1e-3);
    expect(relaxed.positions).toHaveLength(32);
    const md = await runCli(['md', 'POSCAR', '--model', `eam:${CU}`, '--steps', '10', '--dt', '1', '--temperature', '300', '--out', 'poscar-md.xyz'], { cwd: dir });
    expect(md.code).toBe(0);
    writeFileSync(join(dir, 'bad.vasp'), 'x\n1.0\n1 0 0\n0 1 0\n0 0 1\nCu\n1\nDirect\n0 0 q\n');
    const bad = await runCli(['relax', 'bad.vasp', '--model', `eam:${CU}`], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\.vasp:9: atom 1's coordinates: expected a number, got 'q'/);
  });

  it('a malformed EAM file or a bad key is a config error (exit 2) naming the file and line', async () => {
    // Long enough for the 1500 values its header declares, with a word among them on line 4.
    writeFileSync(join(dir, 'broken.eam'), `comment\n29 63.55 3.615 FCC\n500 0.0005 500 0.01 4.95\n1 2 x\n${'0.5 '.repeat(1500)}\n`);
    const broken = await runCli(['relax', 'copper.xyz', '--model', 'eam:broken.eam'], { cwd: dir });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/broken\.eam:4: expected a number in F\(rho\).*got 'x'/);
    const key = await runCli(['relax', 'copper.xyz', '--model', `eam:file=${CU},cutoff=3`], { cwd: dir });
    expect(key.code).toBe(2);
    expect(key.stderr).toContain('cutoff');
  });
});
