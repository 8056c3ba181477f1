// FixSymmetry (issue 46, item 4): the averaged forces and stress equal ASE's FixSymmetry averages
// (ase.spacegroup.symmetrize, with spglib's operations) on a rattled, non-orthogonal crystal; a relaxation
// that leaves its space group without the constraint keeps it with it; and a distorted crystal relaxes,
// cell and positions, to the structure ASE's FixSymmetry relaxation reaches.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, symmetry, type System } from '../../lib/data/index.js';
import { CellFilter, ConvergenceHook, FIRE, FixSymmetry } from '../../lib/dynamics/index.js';
import { isHookmdError } from '../../lib/errors.js';
import { LennardJones } from '../../lib/models/index.js';
import { asePython, aseSkipReason, runAse } from '../helpers/ase.js';

const spglibSkipReason = aseSkipReason !== '' ? aseSkipReason
  : spawnSync(asePython as string, ['-c', 'import spglib'], { stdio: 'ignore' }).status === 0 ? '' : 'skipped: no spglib for Python (apt-get install python3-spglib)';

const lj = (): LennardJones => new LennardJones({ epsilon: 0.1, sigma: 2.3, cutoff: 6.9 });
const flat = (rows: ArrayLike<ArrayLike<number>>): number[] => Array.from(rows, (row) => Array.from(row)).flat();

describe.skipIf(spglibSkipReason !== '')(`FixSymmetry against ASE's ${spglibSkipReason}`, () => {
  it('averages the forces and the stress of a rattled hcp crystal as ASE\'s symmetrize_rank1 and symmetrize_rank2 do', async () => {
    const start = rattle(bulk('Mg', 'hcp', { a: 2.6, c: 4.3 }), 0.004, 7);
    const batch = Batch.fromSystems([start]);
    // Unrefined, so that the forces it averages are those of a structure without the symmetry.
    await new FIRE({ model: lj(), cellFilter: new CellFilter(), constraints: [new FixSymmetry({ symprec: 0.01, refine: false })] }).run(batch, { steps: 1 });
    const after = batch.toSystems()[0];
    const raw = Batch.fromSystems([{ ...after, energy: undefined, forces: undefined, stress: undefined }]);
    lj().compute(raw, { stress: true });
    const ase = runAse<{ forces: number[]; stress: number[] }>(`
import json, sys
import numpy as np
from ase import Atoms
from ase.spacegroup.symmetrize import prep_symmetry, symmetrize_rank1, symmetrize_rank2
case = json.load(sys.stdin)
start = Atoms('Mg2', positions=np.array(case['start']).reshape(-1, 3), cell=np.array(case['startCell']).reshape(3, 3), pbc=True)
rot, trans, symm_map = prep_symmetry(start, symprec=0.01)
cell = np.array(case['cell']).reshape(3, 3)
inv = np.linalg.inv(cell)
forces = symmetrize_rank1(cell, inv, np.array(case['forces']).reshape(-1, 3), rot, trans, symm_map)
stress = symmetrize_rank2(cell, inv, np.array(case['stress']).reshape(3, 3), rot)
print(json.dumps({'forces': forces.ravel().tolist(), 'stress': stress.ravel().tolist()}))
`, { start: flat(start.positions as number[][]), startCell: flat(start.cell as number[][]), cell: flat(after.cell as number[][]), forces: Array.from(raw.read('forces')), stress: Array.from(raw.read('stress')) });
    const forces = batch.read('forces');
    const stress = batch.read('stress');
    const fScale = Math.max(...ase.forces.map(Math.abs));
    ase.forces.forEach((f, k) => expect(Math.abs(forces[k] - f)).toBeLessThan(1e-10 * fScale));
    const sScale = Math.max(...ase.stress.map(Math.abs));
    ase.stress.forEach((s, k) => expect(Math.abs(stress[k] - s)).toBeLessThan(1e-10 * sScale));
    // The raw forces are not symmetric: the average changed them.
    expect(Math.max(...Array.from(raw.read('forces'), (f, k) => Math.abs(f - forces[k])))).toBeGreaterThan(1e-4 * fScale);
  });

  it('relaxes a strained, rattled hcp crystal (c/a 1.75, a 6% off, 2 mÅ noise) to ASE\'s FixSymmetry relaxation: lattice metric and fractional positions to 1e-6', async () => {
    const start: System = rattle(bulk('Mg', 'hcp', { a: 2.45, c: 4.2875 }), 0.002, 5);
    expect(symmetry(start, { symprec: 0.01 }).number).toBe(194);
    expect(symmetry(start, { symprec: 1e-4 }).number).not.toBe(194);
    const batch = Batch.fromSystems([start]);
    const fire = new FIRE({ model: lj(), cellFilter: new CellFilter(), constraints: [new FixSymmetry()], convergence: ConvergenceHook.fromFmaxAndStress(1e-8, 1e-10) });
    const result = await fire.run(batch, { steps: 20_000 });
    expect(result.converged[0]).toBe(1);
    const ours = batch.toSystems()[0];
    const ase = runAse<{ cell: number[]; positions: number[] }>(`
import json, sys
import numpy as np
from ase import Atoms
from ase.calculators.lj import LennardJones
from ase.constraints import ExpCellFilter
from ase.optimize import FIRE
from ase.spacegroup.symmetrize import FixSymmetry
case = json.load(sys.stdin)
atoms = Atoms('Mg2', positions=np.array(case['positions']).reshape(-1, 3), cell=np.array(case['cell']).reshape(3, 3), pbc=True)
atoms.calc = LennardJones(epsilon=0.1, sigma=2.3, rc=6.9)
atoms.set_constraint(FixSymmetry(atoms, symprec=0.01))
FIRE(ExpCellFilter(atoms), logfile=None).run(fmax=1e-9, steps=50000)
print(json.dumps({'cell': atoms.cell.array.ravel().tolist(), 'positions': atoms.positions.ravel().tolist()}))
`, { positions: flat(start.positions as number[][]), cell: flat(start.cell as number[][]) });
    // Invariants of the relaxed crystal, so that the comparison does not depend on ASE's choice of orientation.
    const metric = (c: number[]): number[] => [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => c[3 * i] * c[3 * j] + c[3 * i + 1] * c[3 * j + 1] + c[3 * i + 2] * c[3 * j + 2]));
    const cell = flat(ours.cell as number[][]);
    metric(cell).forEach((g, k) => expect(Math.abs(g - metric(ase.cell)[k])).toBeLessThan(1e-6));
    const fractional = (x: number[], c: number[]): number[] => {
      const m = [[c[0], c[3], c[6]], [c[1], c[4], c[7]], [c[2], c[5], c[8]]];
      const det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
      const out: number[] = [];
      for (let i = 0; i < x.length / 3; i++) {
        const r = x.slice(3 * i, 3 * i + 3);
        // Cramer's rule for s·C = r.
        for (let k = 0; k < 3; k++) {
          const mk = m.map((row, a) => row.map((v, b) => (b === k ? r[a] : v)));
          out.push((mk[0][0] * (mk[1][1] * mk[2][2] - mk[1][2] * mk[2][1]) - mk[0][1] * (mk[1][0] * mk[2][2] - mk[1][2] * mk[2][0]) + mk[0][2] * (mk[1][0] * mk[2][1] - mk[1][1] * mk[2][0])) / det);
        }
      }
      return out.map((s, k) => s - out[k % 3]);
    };
    const ourFractional = fractional(flat(ours.positions as number[][]), cell);
    fractional(ase.positions, ase.cell).forEach((s, k) => expect(Math.abs(s - ourFractional[k])).toBeLessThan(1e-6));
    // The relaxation did move the cell.
    expect(Math.abs(Math.sqrt(metric(cell)[0]) - 2.45)).toBeGreaterThan(0.01);
  });
});

describe('FixSymmetry keeps the space group of a relaxation', () => {
  it('bcc under Lennard-Jones slides to fcc (the Bain path) from a rattled, sheared start, and stays Im-3m with FixSymmetry', async () => {
    const start = rattle(bulk('Cu', 'bcc', { a: 2.9, cubic: true }), 0.003, 4);
    start.cell = [[2.9, 0.002, 0], [0, 2.9, 0], [0, 0, 2.9]];
    const relaxed = async (constraints: FixSymmetry[]): Promise<System> => {
      const batch = Batch.fromSystems([start]);
      await new FIRE({ model: lj(), cellFilter: new CellFilter(), constraints, convergence: ConvergenceHook.fromFmaxAndStress(1e-6, 1e-8) }).run(batch, { steps: 3000 });
      return batch.toSystems()[0];
    };
    expect(symmetry(start, { symprec: 0.01 }).number).toBe(229);
    expect(symmetry(await relaxed([]), { symprec: 0.01 }).number).toBe(225);
    // Refined first (as ASE's constructor does), then relaxed inside the group: exactly Im-3m at the end.
    const kept = await relaxed([new FixSymmetry({ symprec: 0.01 })]);
    expect(symmetry(kept, { symprec: 1e-7 }).number).toBe(229);
    const lengths = (kept.cell as number[][]).map((row) => Math.hypot(...row));
    expect(Math.max(...lengths) - Math.min(...lengths)).toBeLessThan(1e-9);
    expect(Math.abs(lengths[0] - 2.9)).toBeGreaterThan(0.01);
    // Without the refinement the start's deviation stays: Im-3m within 0.01 Å, not within 1e-4 Å.
    const unrefined = await relaxed([new FixSymmetry({ symprec: 0.01, refine: false })]);
    expect(symmetry(unrefined, { symprec: 0.01 }).number).toBe(229);
    expect(symmetry(unrefined, { symprec: 1e-4 }).number).not.toBe(229);
  });

  it('holds each system of a batch to its own group (bcc beside a rattled hcp crystal)', async () => {
    const bcc = rattle(bulk('Cu', 'bcc', { a: 2.9, cubic: true }), 0.003, 4);
    const hcp = rattle(bulk('Mg', 'hcp', { a: 2.45, c: 4.2875 }), 0.002, 5);
    const batch = Batch.fromSystems([bcc, hcp]);
    await new FIRE({ model: lj(), cellFilter: new CellFilter(), constraints: [new FixSymmetry()], convergence: ConvergenceHook.fromFmaxAndStress(1e-6, 1e-8) }).run(batch, { steps: 3000 });
    const [first, second] = batch.toSystems();
    expect(symmetry(first as System, { symprec: 1e-7 }).number).toBe(229);
    expect(symmetry(second as System, { symprec: 1e-7 }).number).toBe(194);
  });

  it('refuses a cluster and bad options with typed errors', async () => {
    const code = async (f: () => unknown): Promise<string | undefined> => {
      try { await f(); } catch (error) { return isHookmdError(error) ? error.code : 'untyped'; }
      return undefined;
    };
    expect(await code(() => new FixSymmetry({ symprec: -1 }))).toBe('INVALID_PARAMETER');
    expect(await code(() => new FixSymmetry({ adjust_cell: true } as never))).toBe('UNKNOWN_OPTION');
    expect(await code(() => new FixSymmetry({ refine: 1 } as never))).toBe('INVALID_PARAMETER');
    const cluster = Batch.fromSystems([{ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, 3.8]] }]);
    expect(await code(() => new FIRE({ model: lj(), constraints: [new FixSymmetry()] }).run(cluster, { steps: 1 }))).toBe('NOT_PERIODIC');
    expect(await code(() => new FIRE({ model: lj(), constraints: [{}] as never }))).toBe('INVALID_CONSTRAINT');
  });
});
