// `hookmd relax/md --model tersoff:<file>` / `sw:<file>` and `model: { type: tersoff | sw, file, elements }` in
// run configs, end to end, on rattled diamond silicon with Debian's Si.tersoff and Si.sw.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, repeat } from '../../lib/data/index.js';
import { readExtxyz, writeExtxyz } from '../../lib/io/index.js';
import { StillingerWeber, Tersoff } from '../../lib/models/index.js';
import { LAMMPS_POTENTIALS } from '../helpers/lammps.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';

const SI_TERSOFF = join(LAMMPS_POTENTIALS, 'Si.tersoff');
const SI_SW = join(LAMMPS_POTENTIALS, 'Si.sw');
const available = existsSync(SI_TERSOFF) && existsSync(SI_SW);
let dir: string;

beforeAll(async () => {
  if (!available) return;
  ensureBuilt();
  dir = workDir();
  const structures = [1, 2].map((seed) => rattle(repeat(bulk('Si', 'diamond', { a: 5.432, cubic: true }), [2, 2, 2]), 0.08, seed));
  await writeExtxyz(join(dir, 'silicon.xyz'), structures);
});
afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const maxForce = (forces: number[][]): number => Math.max(...forces.map((f) => Math.hypot(...f)));

describe.skipIf(!available)(`hookmd with Tersoff and Stillinger–Weber ${available ? '' : '(skipped: no Si.tersoff or Si.sw; apt-get install lammps-data)'}`, () => {
  it.each([
    ['tersoff', SI_TERSOFF, () => new Tersoff({ file: SI_TERSOFF })],
    ['sw', SI_SW, () => new StillingerWeber({ file: SI_SW })],
  ] as const)('relax --model %s:<file> relaxes below fmax, as the model computes the result', async (kind, file, make) => {
    const result = await runCli(['relax', 'silicon.xyz', '--model', `${kind}:${file}`, '--fmax', '1e-3', '--max-steps', '3000', '--out', `${kind}.xyz`], { cwd: dir });
    expect(result.stderr).not.toContain('hookmd:');
    expect(result.code).toBe(0);
    const relaxed = readExtxyz(join(dir, `${kind}.xyz`));
    expect(relaxed).toHaveLength(2);
    const model = make();
    for (const system of relaxed) {
      expect(maxForce(system.forces as number[][])).toBeLessThanOrEqual(1e-3);
      const batch = Batch.fromSystems([{ ...system, forces: undefined, energy: undefined }]);
      model.compute(batch);
      expect(batch.energy[0]).toBeCloseTo(system.energy as number, 9);
    }
  });

  it('md takes sw:file=…,skin=…, and a run config takes { type: tersoff, file, elements }', async () => {
    const md = await runCli(['md', 'silicon.xyz', '--model', `sw:file=${SI_SW},skin=1`, '--steps', '20', '--dt', '1', '--temperature', '300', '--out', 'md.xyz'], { cwd: dir });
    expect(md.stderr).not.toContain('hookmd:');
    expect(md.code).toBe(0);
    writeFileSync(
      join(dir, 'tersoff.yaml'),
      [`model: { type: Tersoff, file: ${SI_TERSOFF}, elements: [Si] }`, 'input: silicon.xyz', 'stages:', '  - { type: fire, fmax: 0.01, steps: 2000 }', 'sinks:', '  - { path: done.xyz }', ''].join('\n'),
    );
    const run = await runCli(['run', 'tersoff.yaml', '--quiet'], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(readExtxyz(join(dir, 'done.xyz'))).toHaveLength(2);
  });

  it('a file without the structure’s element is a usage error naming it', async () => {
    const result = await runCli(['relax', 'silicon.xyz', '--model', `tersoff:${join(LAMMPS_POTENTIALS, 'GaN.tersoff')}`, '--out', 'x.xyz'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/MISSING_SPECIES|Si/);
  });
});
