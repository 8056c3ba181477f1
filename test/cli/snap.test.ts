// `hookmd relax/md --model snap:<X.snap>` / `mliap:<X.mliap>`, `model: { type: snap | mliap, ... }` in run
// configs, and `hookmd info` listing the kinds, end to end on rattled fcc nickel and bcc tantalum with
// Debian's shipped SNAP and ML-IAP files.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, repeat } from '../../lib/data/index.js';
import { readExtxyz, writeExtxyz } from '../../lib/io/index.js';
import { MLIAP, SNAP } from '../../lib/models/index.js';
import { LAMMPS_POTENTIALS } from '../helpers/lammps.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';

const NI_SNAP = join(LAMMPS_POTENTIALS, 'Ni_Zuo_JPCA2020.snap');
const TA_NN = join(LAMMPS_POTENTIALS, 'Ta06A.nn.mliap');
const available = existsSync(NI_SNAP) && existsSync(TA_NN);
let dir: string;

beforeAll(async () => {
  if (!available) return;
  ensureBuilt();
  dir = workDir();
  await writeExtxyz(join(dir, 'nickel.xyz'), [1, 2].map((seed) => rattle(repeat(bulk('Ni', 'fcc', { a: 3.52, cubic: true }), [2, 2, 2]), 0.05, seed)));
  await writeExtxyz(join(dir, 'tantalum.xyz'), [rattle(repeat(bulk('Ta', 'bcc', { a: 3.31, cubic: true }), [2, 2, 2]), 0.05, 3)]);
});
afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const maxForce = (forces: number[][]): number => Math.max(...forces.map((f) => Math.hypot(...f)));

describe.skipIf(!available)(`hookmd with SNAP and ML-IAP ${available ? '' : '(skipped: no SNAP files; apt-get install lammps-data)'}`, () => {
  it('relax --model snap:<file> relaxes below fmax, as the model computes the result', async () => {
    const result = await runCli(['relax', 'nickel.xyz', '--model', `snap:${NI_SNAP}`, '--fmax', '1e-3', '--max-steps', '2000', '--out', 'ni.xyz'], { cwd: dir });
    expect(result.stderr).not.toContain('hookmd:');
    expect(result.code).toBe(0);
    const relaxed = readExtxyz(join(dir, 'ni.xyz'));
    expect(relaxed).toHaveLength(2);
    const model = SNAP.fromLammps(NI_SNAP);
    for (const system of relaxed) {
      expect(maxForce(system.forces as number[][])).toBeLessThanOrEqual(1e-3);
      const batch = Batch.fromSystems([{ ...system, forces: undefined, energy: undefined }]);
      model.compute(batch);
      expect(batch.energy[0]).toBeCloseTo(system.energy as number, 9);
    }
  });

  it('md takes mliap:file=…,skin=…, and a run config takes { type: snap, coefficients, parameters }', async () => {
    const md = await runCli(['md', 'tantalum.xyz', '--model', `mliap:file=${TA_NN},skin=1`, '--steps', '10', '--dt', '1', '--temperature', '300', '--out', 'md.xyz'], { cwd: dir });
    expect(md.stderr).not.toContain('hookmd:');
    expect(md.code).toBe(0);
    const [last] = readExtxyz(join(dir, 'md.xyz')).slice(-1);
    const batch = Batch.fromSystems([{ ...(last as object), forces: undefined, energy: undefined } as never]);
    MLIAP.fromLammps(TA_NN).compute(batch);
    expect(batch.energy[0]).toBeCloseTo((last as { energy: number }).energy, 8);
    const coefficients = join(LAMMPS_POTENTIALS, 'Ni_Zuo_JPCA2020.snapcoeff');
    const parameters = join(LAMMPS_POTENTIALS, 'Ni_Zuo_JPCA2020.snapparam');
    writeFileSync(
      join(dir, 'snap.yaml'),
      [`model: { type: SNAP, coefficients: ${coefficients}, parameters: ${parameters} }`, 'input: nickel.xyz', 'stages:', '  - { type: fire, fmax: 0.01, steps: 2000 }', 'sinks:', '  - { path: done.xyz }', ''].join('\n'),
    );
    const run = await runCli(['run', 'snap.yaml', '--quiet'], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(readExtxyz(join(dir, 'done.xyz'))).toHaveLength(2);
  });

  it('an include file with other keys beside it, and a structure of another element, are usage errors naming them', async () => {
    const extra = await runCli(['relax', 'nickel.xyz', '--model', `snap:file=${NI_SNAP},elements=Ni`, '--out', 'x.xyz'], { cwd: dir });
    expect(extra.code).toBe(2);
    expect(extra.stderr).toMatch(/elements/);
    const wrong = await runCli(['relax', 'tantalum.xyz', '--model', `snap:${NI_SNAP}`, '--out', 'x.xyz'], { cwd: dir });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/MISSING_SPECIES|Ta/);
  });

  it('hookmd info lists the model kinds, snap and mliap among them', async () => {
    const text = await runCli(['info'], { cwd: dir });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/models\s+.*snap \(SNAP\).*mliap \(MLIAP\)/);
    const json = await runCli(['info', '--json'], { cwd: dir });
    expect(JSON.parse(json.stdout).models).toEqual(expect.arrayContaining(['lj', 'eam', 'tersoff', 'sw', 'snap', 'mliap']));
  });
});
