import { describe, expect, it } from 'vitest';

import { Batch, bulk, repeat } from '../../lib/data/index.js';
import { DynamicsStage, initializeVelocities, NPT, type DynamicsHookContext } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { lammpsSkipReason, runLammps } from '../helpers/lammps.js';
import { ljBatch, ljFcc } from './lj-systems.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });

// bench/in.lj (fcc 0.8442, 10×10×10 cells: 4,000 atoms, lj/cut 2.5, skin 0.3) under fix npt at T 1.5, P 1.0,
// tdamp 0.5 = 100·dt, pdamp 5 = 1000·dt: equilibrate, then average temperature (3N − 3 dof, as LAMMPS's
// thermo), pressure and volume every 10 steps.
const EQUILIBRATE = 4000;
const PRODUCTION = 8000;
const LAMMPS_NPT = `
units lj
atom_style atomic
lattice fcc 0.8442
region box block 0 10 0 10 0 10
create_box 1 box
create_atoms 1 box
mass 1 1.0
velocity all create 1.5 87287 loop geom
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
neighbor 0.3 bin
neigh_modify delay 0 every 1 check yes
fix 1 all npt temp 1.5 1.5 0.5 iso 1.0 1.0 5.0
thermo 1000
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

describe.skipIf(lammpsSkipReason !== '')(`NPT against LAMMPS fix npt ${lammpsSkipReason}`, () => {
  it('the in.lj liquid at T 1.5, P 1.0 (lj units): mean volume, pressure and temperature within 1% of LAMMPS', async () => {
    const log = runLammps(LAMMPS_NPT).stdout;
    const rows = [...log.matchAll(new RegExp(`^\\s*${PRODUCTION}\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s*$`, 'gm'))];
    expect(rows.length).toBeGreaterThan(0);
    const [temperature, pressure, volume] = rows[rows.length - 1].slice(1).map(Number);

    const batch = ljBatch([ljFcc(10)]);
    initializeVelocities(batch, { temperature: 1.5, seed: 11 });
    const npt = new NPT({ model: lj(), dt: 0.005, temperature: 1.5, pressure: 1.0, tdamp: 0.5, pdamp: 5.0, couple: 'iso' });
    const sums = { t: 0, p: 0, v: 0, n: 0 };
    const dof = 3 * 4000 - 3;
    npt.register({
      stage: DynamicsStage.AFTER_STEP, frequency: 10, name: 'average',
      call: (ctx: DynamicsHookContext) => {
        if (ctx.stepCount < EQUILIBRATE + 10) return;
        sums.t += (2 * ctx.scalars.kineticEnergy[0]) / dof;
        sums.p += ctx.scalars.pressure[0];
        sums.v += ctx.scalars.volume[0];
        sums.n += 1;
      },
    });
    await npt.run(batch, { steps: EQUILIBRATE + PRODUCTION + 1 });
    expect(sums.n).toBe(PRODUCTION / 10);
    expect(Math.abs(sums.v / sums.n / volume - 1)).toBeLessThan(0.01);
    expect(Math.abs(sums.p / sums.n / pressure - 1)).toBeLessThan(0.01);
    expect(Math.abs(sums.t / sums.n / temperature - 1)).toBeLessThan(0.01);
  }, 600_000);
});

describe('NPT', () => {
  it('per-system targets: of two identical liquids the one at higher pressure ends denser, each near its own temperature', async () => {
    const batch = ljBatch([ljFcc(4), ljFcc(4)]);
    initializeVelocities(batch, { temperature: 1.5, seed: 2 });
    const npt = new NPT({ model: lj(), dt: 0.005, temperature: [1.5, 1.2], pressure: [0.5, 3.0], pdamp: 2.0 });
    const temperatures = [0, 0];
    let samples = 0;
    npt.register({
      stage: DynamicsStage.AFTER_STEP, frequency: 10, trigger: undefined,
      call: (ctx: DynamicsHookContext) => {
        if (ctx.stepCount < 1500) return;
        ctx.scalars.temperature.forEach((t, s) => { temperatures[s] += t; });
        samples++;
      },
    });
    await npt.run(batch, { steps: 3000 });
    const cell = batch.read('cell');
    expect(cell[0] * cell[4] * cell[8]).toBeGreaterThan(cell[9] * cell[13] * cell[17]);
    expect(temperatures[0] / samples).toBeCloseTo(1.5, 0);
    expect(temperatures[1] / samples).toBeCloseTo(1.2, 0);
  });

  it("couple 'aniso' moves the three box lengths apart from a strained start; 'iso' keeps their ratios", async () => {
    const strained = (): Batch => {
      const system = ljFcc(4);
      const scale = [1.1, 1.0, 0.92];
      const stretch = (row: number[]): number[] => row.map((x, c) => x * scale[c]);
      return Batch.fromSystems([{ ...system, positions: (system.positions as number[][]).map(stretch), cell: (system.cell as number[][]).map(stretch) }], { units: 'lj' });
    };
    const run = async (couple: 'iso' | 'aniso'): Promise<number[]> => {
      const batch = strained();
      initializeVelocities(batch, { temperature: 1.5, seed: 4 });
      await new NPT({ model: lj(), dt: 0.005, temperature: 1.5, pressure: 1.0, pdamp: 1.0, couple }).run(batch, { steps: 600 });
      const c = batch.read('cell');
      return [c[0], c[4], c[8]];
    };
    const iso = await run('iso');
    expect(iso[1] / iso[0]).toBeCloseTo(1.0 / 1.1, 12);
    expect(iso[2] / iso[0]).toBeCloseTo(0.92 / 1.1, 12);
    const aniso = await run('aniso');
    // The liquid relaxes the imposed shape: the long axis shrinks relative to the short one.
    expect(aniso[0] / aniso[2]).toBeLessThan(1.1 / 0.92 - 0.02);
  });

  it('rejects triclinic cells and bad options with typed errors', async () => {
    const sheared = bulk('Ar', 'fcc', { a: 1.6 });
    const batch = Batch.fromSystems([repeat(sheared, [3, 3, 3])], { units: 'lj' });
    await expect(new NPT({ model: lj(), dt: 0.005, temperature: 1, pressure: 1, velocities: { temperature: 1, seed: 1 } }).run(batch, { steps: 2 })).rejects.toMatchObject({ code: 'INVALID_CELL' });
    expect(() => new NPT({ model: lj(), dt: 0.005, temperature: 1, pressure: 1, couple: 'xyz' as never })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
    expect(() => new NPT({ model: lj(), dt: 0.005, temperature: 1, pressure: Number.NaN })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
    expect(() => new NPT({ model: lj(), dt: 0.005, temperature: 1, pressure: 1, pdamp: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
  });
});
