// Issue 27, item 3: barostats and cell filters move all three lattice vectors, so on a slab or a cluster
// they would scale the vacuum. They refuse such systems with INVALID_PBC before anything moves, as LAMMPS's
// fix npt refuses a non-periodic dimension; and wrapping a slab whose vacuum vector is zero wraps its
// periodic directions (ASE's complete_cell) instead of silently doing nothing.
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { Batch, bulk, repeat } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { CellFilter, DynamicsStage, FIRE, NPT, NPTLangevin, VelocityVerlet, WrapPeriodicHook, type Dynamics } from '../../lib/dynamics/index.js';
import { writeExtxyz } from '../../lib/io/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { LJ_MODEL } from '../cli/fixtures.js';
import { ensureBuilt, runCli, workDir } from '../cli/run-cli.js';
import { lammps, lammpsSkipReason, runLammps } from '../helpers/lammps.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });
const a = (4 / 0.8442) ** (1 / 3);

/** A 3×3×3 fcc LJ crystal with the given periodicity; a vacuum gap of 10σ above it along z. */
function crystal(pbc: [boolean, boolean, boolean]): System {
  const base = repeat(bulk('Ar', 'fcc', { a, cubic: true }), [3, 3, 3]);
  const cell = (base.cell as number[][]).map((row) => [...row]);
  if (!pbc[2]) cell[2][2] += 10;
  return { ...base, cell, pbc };
}

const engines: Array<{ name: string; make: () => Dynamics }> = [
  { name: 'NPT', make: () => new NPT({ model: lj(), dt: 0.005, temperature: 1, pressure: 1, pdamp: 1, velocities: { temperature: 1, seed: 1 } }) },
  { name: 'NPTLangevin', make: () => new NPTLangevin({ model: lj(), dt: 0.005, temperature: 1, pressure: 1, compressibility: 1, friction: 1 }) },
  { name: 'CellFilter', make: () => new FIRE({ model: lj(), cellFilter: new CellFilter({ scalarPressure: 0.1 }) }) },
];

describe.each(engines)('$name on a system that is not periodic in x, y and z', ({ name, make }) => {
  it.each([
    { what: 'a slab (pbc [true, true, false])', pbc: [true, true, false] as [boolean, boolean, boolean], axis: /along z \(pbc \[true, true, false\]\)/ },
    { what: 'a wire (pbc [false, false, true])', pbc: [false, false, true] as [boolean, boolean, boolean], axis: /along x and y/ },
  ])('refuses $what with INVALID_PBC before the cell or an atom moves', async ({ pbc, axis }) => {
    const batch = Batch.fromSystems([crystal([true, true, true]), crystal(pbc)], { units: 'lj' });
    const cell = Array.from(batch.cell);
    const positions = Array.from(batch.positions);
    const error = await make().run(batch, { steps: 5 }).then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_PBC', message: expect.stringMatching(new RegExp(`^${name}: system 1 is not periodic`)) });
    expect((error as Error).message).toMatch(axis);
    expect(Array.from(batch.cell)).toEqual(cell);
    expect(Array.from(batch.positions)).toEqual(positions);
  });

  it('still runs a fully periodic crystal', async () => {
    const batch = Batch.fromSystems([crystal([true, true, true])], { units: 'lj' });
    await make().run(batch, { steps: 3 });
    expect(Number.isFinite(batch.cell[0])).toBe(true);
  });
});

describe('LAMMPS refuses the same', () => {
  it.skipIf(lammps === undefined)(`fix npt on a slab is an error there too ${lammpsSkipReason}`, () => {
    const input = ['units lj', 'boundary p p f', 'lattice fcc 0.8442', 'region box block 0 3 0 3 0 3', 'create_box 1 box', 'create_atoms 1 box', 'mass 1 1.0',
      'pair_style lj/cut 2.5', 'pair_coeff 1 1 1.0 1.0 2.5', 'fix 1 all npt temp 1 1 0.5 iso 1 1 5', 'run 1', ''].join('\n');
    expect(() => runLammps(input)).toThrow(/Cannot use fix nvt\/npt\/nph on a non-periodic dimension/);
  });
});

describe('WrapPeriodicHook on a slab whose vacuum vector is zero', () => {
  // Periodic in x and y with a 4σ square cell; the third lattice vector is left zero, as docs/models.md allows.
  const slab = (): System => ({
    symbols: ['Ar', 'Ar'],
    positions: [[5.5, -1, 7], [-0.5, 9, -3]],
    cell: [[4, 0, 0], [0, 4, 0], [0, 0, 0]],
    pbc: [true, true, false],
  });
  const wrapped = [[1.5, 3, 7], [3.5, 1, -3]];

  it('wraps x and y into the cell and leaves z alone, natively in an engine', async () => {
    const batch = Batch.fromSystems([slab()], { units: 'lj' });
    // The two atoms are 10σ apart along z, beyond the cutoff: nothing moves them but the wrap.
    const engine = new VelocityVerlet({ model: new LennardJones({ epsilon: 1, sigma: 1, cutoff: 1 }), dt: 1e-9, hooks: [new WrapPeriodicHook()] });
    await engine.run(batch, { steps: 1 });
    const x = Array.from(batch.positions);
    wrapped.flat().forEach((value, i) => expect(x[i]).toBeCloseTo(value, 9));
  });

  it('wraps the same when called from JS', () => {
    const batch = Batch.fromSystems([slab()], { units: 'lj' });
    new WrapPeriodicHook().call({ batch } as never);
    const x = Array.from(batch.positions);
    wrapped.flat().forEach((value, i) => expect(x[i]).toBeCloseTo(value, 12));
    expect(DynamicsStage.AFTER_POST_UPDATE).toBe(new WrapPeriodicHook().stage);
  });
});

describe('the CLI refuses a slab under a barostat or a cell filter', () => {
  let dir = '';
  afterAll(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('md --ensemble npt and relax --cell exit 2 with INVALID_PBC on a slab', async () => {
    ensureBuilt();
    dir = workDir();
    await writeExtxyz(join(dir, 'slab.xyz'), [crystal([true, true, false])], { units: 'lj' });
    const md = await runCli(['md', 'slab.xyz', '--units', 'lj', '--model', LJ_MODEL, '--ensemble', 'npt', '--temperature', '1', '--pressure', '1', '--steps', '10', '--out', 'md.xyz', '--quiet'], { cwd: dir });
    expect(md.code).toBe(2);
    expect(md.stderr).toMatch(/NPT: system 0 is not periodic along z/);
    const relax = await runCli(['relax', 'slab.xyz', '--units', 'lj', '--model', LJ_MODEL, '--cell', '--out', 'relaxed.xyz', '--quiet'], { cwd: dir });
    expect(relax.code).toBe(2);
    expect(relax.stderr).toMatch(/CellFilter: system 0 is not periodic along z/);
  });
});
