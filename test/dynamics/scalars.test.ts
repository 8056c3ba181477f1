import { describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, repeat } from '../../lib/data/index.js';
import { DynamicsStage, initializeVelocities, LoggingHook, VelocityVerlet, type DynamicsHookContext } from '../../lib/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { aseSkipReason, runAse } from '../helpers/ase.js';
import { ljBatch, ljFcc } from './lj-systems.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });

describe('stress and pressure during dynamics', () => {
  it('the stress a hook reads equals a fresh compute({ stress: true }) at the same positions, on every step it is evaluated', async () => {
    const batch = ljBatch([rattle(ljFcc(3), 0.05, 1), rattle(ljFcc(3), 0.03, 2)]);
    initializeVelocities(batch, { temperature: 1.2, seed: 4 });
    const md = new VelocityVerlet({ model: lj(), dt: 0.005 });
    let checked = 0;
    const computedOnStep: number[] = [];
    md.register({
      stage: DynamicsStage.AFTER_STEP, frequency: 1, name: 'watch',
      call: (ctx: DynamicsHookContext) => { if (ctx.batch.resultValid('stress').every((v) => v === 1)) computedOnStep.push(ctx.stepCount); },
    });
    md.register({
      stage: DynamicsStage.AFTER_STEP, frequency: 7, needs: ['stress'], name: 'pressure',
      call: (ctx: DynamicsHookContext) => {
        const during = ctx.scalars.stress.slice();
        const fresh = Batch.fromSystems(ctx.batch.toSystems(), { units: 'lj' });
        lj().compute(fresh, { stress: true });
        const reference = fresh.read('stress');
        for (let k = 0; k < reference.length; k++) expect(during[k]).toBeCloseTo(reference[k], 12);
        checked++;
      },
    });
    await md.run(batch, { steps: 50 });
    expect(checked).toBe(8);
    // Only the steps a hook needed it for evaluated the stress; the others paid nothing.
    expect(computedOnStep).toEqual([0, 7, 14, 21, 28, 35, 42, 49]);
  });

  it('a hook that reads the pressure without declaring it still gets the stress of the current positions', async () => {
    const batch = ljBatch([rattle(ljFcc(3), 0.05, 3)]);
    initializeVelocities(batch, { temperature: 1.0, seed: 5 });
    const seen: number[] = [];
    const md = new VelocityVerlet({ model: lj(), dt: 0.005, hooks: [{ stage: DynamicsStage.AFTER_STEP, frequency: 10, call: (ctx: DynamicsHookContext) => { seen.push(ctx.scalars.pressure[0]); } }] });
    // The last hook call (step 20) sees the positions the run ends with.
    await md.run(batch, { steps: 21 });
    const fresh = Batch.fromSystems(batch.toSystems(), { units: 'lj' });
    lj().compute(fresh, { stress: true });
    const s = fresh.read('stress');
    const v = fresh.read('velocities');
    let twoKE = 0;
    for (const x of v) twoKE += x * x;
    const volume = (4 / 0.8442) * 27;
    expect(seen).toHaveLength(3);
    expect(seen[2]).toBeCloseTo(twoKE / (3 * volume) - (s[0] + s[4] + s[8]) / 3, 10);
  });

  it('LoggingHook with pressure: true logs volume and pressure', async () => {
    const rows: Array<Record<string, number | string>> = [];
    const batch = ljBatch([ljFcc(3)]);
    initializeVelocities(batch, { temperature: 1.0, seed: 6 });
    await new VelocityVerlet({ model: lj(), dt: 0.005, hooks: [new LoggingHook({ writer: (row) => rows.push(row), frequency: 5, pressure: true })] }).run(batch, { steps: 10 });
    // Steps 0 (the input), 5 and 10.
    expect(rows.map((row) => row.step)).toEqual([0, 5, 10]);
    expect(rows[0].volume).toBeCloseTo((4 / 0.8442) * 27, 9);
    expect(typeof rows[1].pressure).toBe('number');
    expect(() => new LoggingHook({ writer: () => {}, pressure: 'yes' as never })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});

// ASE's pressure with the ideal-gas term, −tr(σ)/3 for get_stress(include_ideal_gas=True), is LAMMPS's
// P = (N·k_B·T_dof·dof/N + tr(W)/3)/V: the same 2·KE/(3V) − tr(σ_virial)/3.
const ASE_THERMO = `
import json, sys
import numpy as np
from ase import Atoms
from ase.calculators.lj import LennardJones
from ase.units import fs
case = json.load(sys.stdin)
atoms = Atoms('Ar%d' % len(case['positions']), positions=case['positions'], cell=case['cell'], pbc=True)
atoms.set_velocities(np.array(case['velocities']) / fs)
atoms.calc = LennardJones(epsilon=0.0104, sigma=3.4, rc=8.5)
stress = atoms.get_stress(voigt=False, include_ideal_gas=True)
print(json.dumps({'pressure': float(-np.trace(stress) / 3), 'volume': float(atoms.get_volume()),
                  'kinetic': float(atoms.get_kinetic_energy()), 'energy': float(atoms.get_potential_energy())}))
`;

describe.skipIf(aseSkipReason !== '')(`ctx.scalars against ASE ${aseSkipReason}`, () => {
  it('pressure (virial + kinetic), volume, kinetic and total energy of moving argon in metal units', async () => {
    const system = rattle(repeat(bulk('Ar', 'fcc', { a: 5.3, cubic: true }), [2, 2, 2]), 0.1, 8);
    const cell = (system.cell as number[][]).map((row, i) => row.map((x) => x * [1.01, 0.99, 1.02][i]));
    const batch = Batch.fromSystems([{ ...system, cell }]);
    initializeVelocities(batch, { temperature: 300, seed: 3 });
    let scalars: { pressure: number; volume: number; kinetic: number; total: number } | undefined;
    const model = new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5, shift: true });
    const md = new VelocityVerlet({ model, dt: 1, hooks: [{ stage: DynamicsStage.AFTER_STEP, frequency: 1, needs: ['stress'], call: (ctx: DynamicsHookContext) => {
      scalars = { pressure: ctx.scalars.pressure[0], volume: ctx.scalars.volume[0], kinetic: ctx.scalars.kineticEnergy[0], total: ctx.scalars.totalEnergy[0] };
    } }] });
    await md.run(batch, { steps: 3 });
    const [final] = batch.toSystems();
    const ase = runAse<{ pressure: number; volume: number; kinetic: number; energy: number }>(ASE_THERMO, { positions: final.positions, cell: final.cell, velocities: final.velocities });
    const got = scalars as NonNullable<typeof scalars>;
    expect(Math.abs(got.pressure - ase.pressure)).toBeLessThan(1e-10);
    expect(got.volume).toBeCloseTo(ase.volume, 9);
    // hookmd's and ASE's fs differ in the 9th digit (CODATA versions), so kinetic energies agree to ~1e-8.
    expect(Math.abs(got.kinetic / ase.kinetic - 1)).toBeLessThan(1e-7);
    expect(Math.abs(got.total - (ase.energy + ase.kinetic))).toBeLessThan(1e-7);
  });
});
