// Issue 46: constraints from the command line and the run config. `--fix-atoms 0-3,7` (and `constraints.fixAtoms`)
// fixes atoms of every input structure, `--fix-com` holds each centre of mass, `--symmetry` keeps each space
// group; each run ends where the library's engine with the same constraints ends. `md` also holds the atoms a
// POSCAR's selective dynamics fixes. Bad values are usage or config errors naming the flag or key.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, repeat, symmetry, type System } from '../../lib/data/index.js';
import { ConvergenceHook, FIRE, FixAtoms, FixSymmetry } from '../../lib/dynamics/index.js';
import { formatPoscar, readExtxyz, readStructures, writeExtxyz } from '../../lib/io/index.js';
import { EAM } from '../../lib/models/index.js';
import { LAMMPS_POTENTIALS } from '../helpers/lammps.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';

const CU = join(LAMMPS_POTENTIALS, 'Cu_u3.eam');
const available = existsSync(CU);
let dir: string;
const structures: System[] = [1, 2].map((seed) => rattle(repeat(bulk('Cu', 'fcc', { a: 3.63, cubic: true }), [2, 1, 1]), 0.05, seed));

beforeAll(async () => {
  if (!available) return;
  ensureBuilt();
  dir = workDir('hookmd-constraints-');
  await writeExtxyz(join(dir, 'copper.xyz'), structures);
});
afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** `system` relaxed by the library's FIRE to fmax 1e-3 with `constraints`. */
async function relaxed(system: System, constraints: ConstructorParameters<typeof FIRE>[0]['constraints']): Promise<number[][]> {
  const batch = Batch.fromSystems([system]);
  await new FIRE({ model: new EAM({ file: CU }), convergence: ConvergenceHook.fromFmax(1e-3), constraints }).run(batch, { steps: 5000 });
  return batch.toSystems()[0]?.positions as number[][];
}

const close = (a: number[][], b: number[][], tolerance: number): void => a.forEach((x, i) => x.forEach((v, c) => expect(Math.abs(v - (b[i]?.[c] as number))).toBeLessThan(tolerance)));

describe.skipIf(!available)('constraints on the command line and in configs', () => {
  it('relax --fix-atoms 0-2,5 holds those atoms of every structure and relaxes the rest as FixAtoms does', async () => {
    const result = await runCli(['relax', 'copper.xyz', '--model', `eam:${CU}`, '--fmax', '1e-3', '--fix-atoms', '0-2,5', '--out', 'fixed.xyz', '--quiet'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const out = readExtxyz(join(dir, 'fixed.xyz'));
    for (const [k, system] of structures.entries()) {
      const positions = out[k]?.positions as number[][];
      for (const i of [0, 1, 2, 5]) expect(positions[i]).toEqual((system.positions as number[][])[i]);
      close(positions, await relaxed(system, [new FixAtoms({ indices: [0, 1, 2, 5] })]), 1e-10);
    }
  });

  it('relax --symmetry keeps each space group exactly, as FixSymmetry does', async () => {
    // Within symprec of fcc: FixSymmetry refines it onto fcc; a plain relaxation leaves it within fmax of it.
    const shaken = [rattle(repeat(bulk('Cu', 'fcc', { a: 3.58, cubic: true }), [2, 1, 1]), 0.001, 4)];
    await writeExtxyz(join(dir, 'shaken.xyz'), shaken);
    for (const [flags, out] of [[['--symmetry', '0.01'], 'symmetric.xyz'], [[], 'plain.xyz']] as const) {
      const result = await runCli(['relax', 'shaken.xyz', '--model', `eam:${CU}`, '--fmax', '1e-3', ...flags, '--out', out, '--quiet'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
    }
    expect(symmetry(readExtxyz(join(dir, 'plain.xyz'))[0] as System, { symprec: 1e-6 }).number).not.toBe(225);
    const [out] = readExtxyz(join(dir, 'symmetric.xyz'));
    expect(symmetry(out as System, { symprec: 1e-6 }).number).toBe(225);
    close(out?.positions as number[][], await relaxed(shaken[0] as System, [new FixSymmetry({ symprec: 0.01 })]), 1e-10);
  });

  it('md holds the atoms a POSCAR fixes, and --fix-com the centre of the others', async () => {
    const system = structures[0] as System;
    const fixed = (system.positions as number[][]).map((_, i) => i < 3);
    writeFileSync(join(dir, 'POSCAR'), formatPoscar({ ...system, info: { fixed } }));
    const result = await runCli(['md', 'POSCAR', '--model', `eam:${CU}`, '--ensemble', 'langevin', '--temperature', '300', '--steps', '200', '--fix-com', '--out', 'md.xyz', '--quiet'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const [out] = readExtxyz(join(dir, 'md.xyz'));
    // As md reads them: the POSCAR's Direct coordinates.
    const start = readStructures(join(dir, 'POSCAR'))[0]?.positions as number[][];
    const end = out?.positions as number[][];
    for (let i = 0; i < 3; i++) expect(end[i]).toEqual(start[i]);
    const centre = (x: number[][]): number[] => [0, 1, 2].map((c) => x.slice(3).reduce((sum, p) => sum + (p[c] as number), 0) / (x.length - 3));
    close([centre(end)], [centre(start)], 1e-9);
  });

  it('run takes constraints: { fixAtoms } and holds those atoms', async () => {
    writeFileSync(join(dir, 'fixed.yaml'), [`model: { type: eam, file: ${CU} }`, 'input: copper.xyz', 'stages:', '  - { type: fire, fmax: 0.001, steps: 5000 }',
      'constraints: { fixAtoms: [0, 3] }', 'sinks:', '  - { path: run.xyz }', ''].join('\n'));
    const result = await runCli(['run', 'fixed.yaml', '--quiet'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const out = readExtxyz(join(dir, 'run.xyz'));
    for (const [k, system] of structures.entries()) {
      for (const i of [0, 3]) expect((out[k]?.positions as number[][])[i]).toEqual((system.positions as number[][])[i]);
    }
  });

  it('run holds constraints through fused stages: an optimizer, then MD with the centre held', async () => {
    writeFileSync(join(dir, 'fused.yaml'), [`model: { type: eam, file: ${CU} }`, 'input: copper.xyz', 'stages:', '  - { type: fire, fmax: 0.01, steps: 500 }',
      '  - { type: langevin, temperature: 300, steps: 100, seed: 2 }', 'constraints: { fixAtoms: [0], fixCom: true }', 'sinks:', '  - { path: fused.xyz }', ''].join('\n'));
    const result = await runCli(['run', 'fused.yaml', '--quiet'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const out = readExtxyz(join(dir, 'fused.xyz'));
    const centre = (x: number[][]): number[] => [0, 1, 2].map((c) => x.slice(1).reduce((sum, p) => sum + (p[c] as number), 0) / (x.length - 1));
    for (const [k, system] of structures.entries()) {
      const end = out[k]?.positions as number[][];
      expect(end[0]).toEqual((system.positions as number[][])[0]);
      close([centre(end)], [centre(system.positions as number[][])], 1e-9);
    }
  });

  it.each([
    [['--fix-atoms', '3-1'], /--fix-atoms.*'3-1' is not one/],
    [['--fix-atoms', 'a,b'], /--fix-atoms.*'a' is not one/],
    [['--symmetry', '0'], /--symmetry.*must be a number > 0/],
  ])('relax %j is a usage error', async (flags, message) => {
    const result = await runCli(['relax', 'copper.xyz', '--model', `eam:${CU}`, ...flags, '--out', 'bad.xyz'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('an index past a structure\'s atoms is an error naming the flag, the atom and the structure', async () => {
    const result = await runCli(['relax', 'copper.xyz', '--model', `eam:${CU}`, '--fix-atoms', '8', '--out', 'past.xyz'], { cwd: dir });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/--fix-atoms: atom 8 is outside system 0 of the input, which has 8 atoms/);
  });

  it.each([
    ['constraints: { fixAtoms: [-1] }', /constraints\.fixAtoms\[0\]/],
    ['constraints: { symmetry: 0 }', /constraints\.symmetry/],
    ['constraints: { fixcom: true }', /constraints.*fixcom/],
  ])('a config with %s is a config error naming the key', async (line, message) => {
    writeFileSync(join(dir, 'bad.yaml'), [`model: { type: eam, file: ${CU} }`, 'input: copper.xyz', 'stages:', '  - { type: fire, fmax: 0.01 }', line, 'sinks:', '  - { path: bad.xyz }', ''].join('\n'));
    const result = await runCli(['run', 'bad.yaml'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
