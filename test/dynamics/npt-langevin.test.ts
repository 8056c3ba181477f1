import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { DynamicsStage, initializeVelocities, NPTLangevin, type DynamicsHookContext } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { lammpsSkipReason, runLammps } from '../helpers/lammps.js';
import { ljBatch, ljFcc } from './lj-systems.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });

// The same ensemble from a different barostat: 500 atoms of in.lj at T 1.5, P 1.0 under LAMMPS's fix npt
// (MTK, pdamp 1), against NPTLangevin (Langevin + stochastic cell rescaling). Averages every 10 steps after
// equilibration; volumes fluctuate by ~2 % per sample at this size, hence the longer run and the wider bound.
const EQUILIBRATE = 4000;
const PRODUCTION = 40000;
const LAMMPS_NPT_500 = `
units lj
atom_style atomic
lattice fcc 0.8442
region box block 0 5 0 5 0 5
create_box 1 box
create_atoms 1 box
mass 1 1.0
velocity all create 1.5 87287 loop geom
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
neighbor 0.3 bin
neigh_modify delay 0 every 1 check yes
fix 1 all npt temp 1.5 1.5 0.5 iso 1.0 1.0 1.0
run ${EQUILIBRATE}
reset_timestep 0
variable t equal c_thermo_temp
variable p equal c_thermo_press
variable v equal vol
fix 2 all ave/time 10 ${PRODUCTION / 10} ${PRODUCTION} v_t v_p v_v
thermo_style custom step f_2[1] f_2[2] f_2[3]
thermo ${PRODUCTION}
run ${PRODUCTION}
`;

function averages(batch: Batch, engine: NPTLangevin, from: number): { t: number; p: number; v: number; n: number } {
  const sums = { t: 0, p: 0, v: 0, n: 0 };
  const dof = 3 * batch.read('numAtoms')[0] - 3;
  engine.register({
    stage: DynamicsStage.AFTER_STEP, frequency: 10, name: 'average',
    call: (ctx: DynamicsHookContext) => {
      if (ctx.stepCount < from) return;
      sums.t += (2 * ctx.scalars.kineticEnergy[0]) / dof;
      sums.p += ctx.scalars.pressure[0];
      sums.v += ctx.scalars.volume[0];
      sums.n += 1;
    },
  });
  return sums;
}

describe.skipIf(lammpsSkipReason !== '')(`NPTLangevin against LAMMPS fix npt ${lammpsSkipReason}`, () => {
  it('samples the same ensemble: mean volume within 1.5 %, temperature within 1 %, pressure within 3 %', async () => {
    const log = runLammps(LAMMPS_NPT_500).stdout;
    const rows = [...log.matchAll(new RegExp(`^\\s*${PRODUCTION}\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s*$`, 'gm'))];
    expect(rows.length).toBeGreaterThan(0);
    const [temperature, pressure, volume] = rows[rows.length - 1].slice(1).map(Number);
    const batch = ljBatch([ljFcc(5)]);
    initializeVelocities(batch, { temperature: 1.5, seed: 2 });
    const npt = new NPTLangevin({ model: lj(), dt: 0.005, temperature: 1.5, pressure: 1.0, friction: 1, compressibility: 0.2, tauP: 1, seed: 9 });
    const sums = averages(batch, npt, EQUILIBRATE + 10);
    await npt.run(batch, { steps: EQUILIBRATE + PRODUCTION + 1 });
    expect(Math.abs(sums.v / sums.n / volume - 1)).toBeLessThan(0.015);
    expect(Math.abs(sums.t / sums.n / temperature - 1)).toBeLessThan(0.01);
    expect(Math.abs(sums.p / sums.n / pressure - 1)).toBeLessThan(0.03);
  }, 300_000);
});

describe('NPTLangevin', () => {
  it('relaxes from far away: a crystal squeezed to almost three times the liquid density expands towards it, keeping its cell shape', async () => {
    const system = ljFcc(4);
    const squeeze = (row: number[]): number[] => row.map((x) => x * 0.8);
    const batch = Batch.fromSystems([{ ...system, positions: (system.positions as number[][]).map(squeeze), cell: (system.cell as number[][]).map(squeeze) }], { units: 'lj' });
    initializeVelocities(batch, { temperature: 1.5, seed: 3 });
    const start = batch.read('cell')[0] ** 3;
    await new NPTLangevin({ model: lj(), dt: 0.002, temperature: 1.5, pressure: 1.0, friction: 1, compressibility: 0.05, tauP: 0.5, seed: 1 }).run(batch, { steps: 3000 });
    const cell = batch.read('cell');
    // The liquid at T 1.5, P 1.0 has ~1.74 σ³ per atom; the squeezed crystal starts at 0.61.
    expect(cell[0] * cell[4] * cell[8]).toBeGreaterThan(2 * start);
    expect(cell[4] / cell[0]).toBeCloseTo(1, 12);
    expect(cell[1]).toBe(0);
  });

  it('rejects bad options with typed errors', () => {
    const base = { model: lj(), dt: 0.005, temperature: 1, pressure: 1, friction: 1, compressibility: 0.1 };
    expect(() => new NPTLangevin({ ...base, compressibility: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
    expect(() => new NPTLangevin({ ...base, tauP: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
    expect(() => new NPTLangevin({ ...base, pdamp: 1 } as never)).toThrow(expect.objectContaining({ code: 'UNKNOWN_OPTION' }));
  });
});
