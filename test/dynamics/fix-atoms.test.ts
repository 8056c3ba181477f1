// FixAtoms (issue 46, item 5): fixed atoms as an engine constraint, with every temperature counting the
// 3·N_mobile degrees of freedom left. A crystal with its lower half fixed, thermostatted at 300 K, reads
// 300 K on its mobile half; the temperature of its velocities equals ASE's get_temperature with FixAtoms
// and LAMMPS's compute temp of the mobile group (extra/dof 0: fixed atoms take the momentum LAMMPS's
// default 3 would remove).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { Batch, bulk, repeat, type System } from '../../lib/data/index.js';
import { DynamicsStage, FIRE, FixAtoms, FixCom, initializeVelocities, Langevin, NoseHooverChain, temperatures, VelocityVerlet, type Dynamics } from '../../lib/dynamics/index.js';
import { LoggingHook, type LogRow } from '../../lib/dynamics/hooks/logging-hook.js';
import { isHookmdError } from '../../lib/errors.js';
import { formatLammpsData, readTraj } from '../../lib/io/index.js';
import { Morse } from '../../lib/models/index.js';
import { aseSkipReason, runAse } from '../helpers/ase.js';
import { lammpsSkipReason, runLammps, thermoRow } from '../helpers/lammps.js';

const TARGET = 300;
// Girifalco and Weizer's Morse copper.
const copper = (): Morse => new Morse({ D: 0.3429, alpha: 1.3588, r0: 2.866, cutoff: 6.0 });
const crystal = (): System => repeat(bulk('Cu', 'fcc', { a: 3.61, cubic: true }), [3, 3, 3]);
/** The atoms of the lower half (z below half the cell): 54 of 108. */
const lowerHalf = (system: System): number[] => (system.positions as number[][]).map((x) => (x[2] < 0.5 * 3 * 3.61 - 0.1 ? 1 : 0));

async function sampled(engine: Dynamics, batch: Batch, steps: number): Promise<{ mean: number; error: number; logged: number[] }> {
  const samples: number[] = [];
  const logged: number[] = [];
  engine.register({ stage: DynamicsStage.AFTER_STEP, frequency: 10, call: (ctx) => { samples.push(ctx.scalars.temperature[0]); } });
  engine.register(new LoggingHook({ writer: (row: LogRow) => logged.push(Number(row.temperature)), frequency: 1000 }));
  await engine.run(batch, { steps });
  const kept = samples.slice(samples.length / 5);
  const blocks = 20;
  const size = Math.floor(kept.length / blocks);
  const means = Array.from({ length: blocks }, (_, b) => kept.slice(b * size, (b + 1) * size).reduce((a, x) => a + x, 0) / size);
  const mean = means.reduce((a, x) => a + x, 0) / blocks;
  const variance = means.reduce((a, x) => a + (x - mean) ** 2, 0) / (blocks - 1);
  return { mean, error: Math.sqrt(variance / blocks), logged };
}

describe('FixAtoms: a crystal with its lower half fixed, at 300 K', () => {
  const engines: ReadonlyArray<[string, (mask: number[]) => Dynamics]> = [
    ['Langevin', (mask) => new Langevin({ model: copper(), dt: 2, temperature: TARGET, friction: 0.02, seed: 11, constraints: [new FixAtoms({ mask })] })],
    ['NoseHooverChain', (mask) => new NoseHooverChain({ model: copper(), dt: 2, temperature: TARGET, tdamp: 100, constraints: [new FixAtoms({ mask })] })],
  ];
  it.each(engines)('%s holds the mobile half at 300 K (3·54 degrees of freedom), and the fixed half does not move', async (_, make) => {
    const system = crystal();
    const mask = lowerHalf(system);
    expect(mask.filter((m) => m === 1).length).toBe(54);
    const batch = Batch.fromSystems([system]);
    initializeVelocities(batch, { temperature: TARGET, seed: 2, frozen: mask, exact: true });
    const { mean, error, logged } = await sampled(make(mask), batch, 30_000);
    // Counting all 3N − 3 = 321 degrees of freedom would read about 151 K; 3·54 reads the target.
    expect(3 * error).toBeLessThan(10);
    expect(Math.abs(mean - TARGET)).toBeLessThan(3 * error);
    const x = batch.read('positions');
    const v = batch.read('velocities');
    (system.positions as number[][]).forEach((start, i) => {
      if (mask[i] !== 1) return;
      for (let c = 0; c < 3; c++) {
        expect(x[3 * i + c]).toBe(start[c]);
        expect(v[3 * i + c]).toBe(0);
      }
    });
    // The log's temperature is the one the thermostat holds: row 0 is the initial 300 K.
    expect(Math.abs(logged[0] - TARGET)).toBeLessThan(1e-9 * TARGET);
    expect(Math.abs(temperatures(batch, { frozen: mask })[0] - logged[logged.length - 1])).toBeLessThan(1e-9 * TARGET);
  });

  it.skipIf(aseSkipReason !== '')(`reads the temperature ASE's get_temperature reads with FixAtoms ${aseSkipReason}`, async () => {
    const system = crystal();
    const mask = lowerHalf(system);
    const batch = Batch.fromSystems([system]);
    initializeVelocities(batch, { temperature: TARGET, seed: 5, frozen: mask });
    const rows: LogRow[] = [];
    await new Langevin({ model: copper(), dt: 2, temperature: TARGET, friction: 0.02, seed: 3, constraints: [new FixAtoms({ mask })], hooks: [new LoggingHook({ writer: (row) => rows.push(row), frequency: 500 })] })
      .run(batch, { steps: 500 });
    const ase = runAse<number>(`
import json, sys
import numpy as np
from ase import Atoms
from ase.constraints import FixAtoms
from ase.units import fs
case = json.load(sys.stdin)
atoms = Atoms('Cu%d' % len(case['mask']), positions=np.zeros((len(case['mask']), 3)))
atoms.set_velocities(np.array(case['velocities']).reshape(-1, 3) / fs)
atoms.set_constraint(FixAtoms(mask=[bool(m) for m in case['mask']]))
print(json.dumps(atoms.get_temperature()))
`, { velocities: Array.from(batch.read('velocities')), mask });
    // Within the constants (ASE's units are CODATA 2014's).
    expect(Math.abs(Number(rows[rows.length - 1].temperature) / ase - 1)).toBeLessThan(3e-6);
  });

  it.skipIf(lammpsSkipReason !== '')(`reads the temperature LAMMPS's compute temp reads on the mobile group ${lammpsSkipReason}`, async () => {
    const system = crystal();
    const mask = lowerHalf(system);
    const batch = Batch.fromSystems([system]);
    initializeVelocities(batch, { temperature: TARGET, seed: 9, frozen: mask });
    await new Langevin({ model: copper(), dt: 2, temperature: TARGET, friction: 0.02, seed: 4, constraints: [new FixAtoms({ mask })] }).run(batch, { steps: 200 });
    const v = batch.read('velocities');
    const mobile = mask.flatMap((m, i) => (m === 1 ? [] : [i + 1]));
    // LAMMPS's metal velocities are Å/ps.
    const velocities = mask.map((_, i) => `set atom ${i + 1} vx ${1000 * v[3 * i]} vy ${1000 * v[3 * i + 1]} vz ${1000 * v[3 * i + 2]}`);
    const script = ['units metal', 'atom_style atomic', 'boundary p p p', 'read_data data.lmp', 'pair_style zero 5.0', 'pair_coeff * *', ...velocities,
      `group mobile id ${mobile.join(' ')}`, 'compute hot mobile temp', 'compute_modify hot extra/dof 0',
      'thermo_style custom step c_hot', 'thermo_modify format float %.17g', 'run 0'].join('\n');
    const [, lammps] = thermoRow(runLammps(script, { 'data.lmp': formatLammpsData(batch.toSystems()[0]) }).stdout, 'Step c_hot');
    // Within the constants: LAMMPS's metal units take k_B = 8.617343e-5 eV/K, hookmd CODATA 2018's.
    expect(Math.abs(temperatures(batch, { frozen: mask })[0] / lammps - 1)).toBeLessThan(3e-6);
  });
});

/** The centre of mass and the mass-weighted mean velocity of the atoms `mask` leaves mobile. */
function mobileCentre(batch: Batch, mask: readonly number[]): { x: number[]; v: number[] } {
  const [x, v, m] = [batch.read('positions'), batch.read('velocities'), batch.read('masses')];
  const sum = { x: [0, 0, 0], v: [0, 0, 0] };
  let mass = 0;
  mask.forEach((fixed, i) => {
    if (fixed === 1) return;
    mass += m[i];
    for (let c = 0; c < 3; c++) {
      sum.x[c] += m[i] * x[3 * i + c];
      sum.v[c] += m[i] * v[3 * i + c];
    }
  });
  return { x: sum.x.map((p) => p / mass), v: sum.v.map((p) => p / mass) };
}

describe('FixCom beside FixAtoms: the mobile half of a crystal, its centre held, at 300 K', () => {
  const engines: ReadonlyArray<[string, (mask: number[]) => Dynamics]> = [
    ['Langevin', (mask) => new Langevin({ model: copper(), dt: 2, temperature: TARGET, friction: 0.02, seed: 12, constraints: [new FixAtoms({ mask }), new FixCom()] })],
    ['NoseHooverChain', (mask) => new NoseHooverChain({ model: copper(), dt: 2, temperature: TARGET, tdamp: 100, constraints: [new FixCom(), new FixAtoms({ mask })] })],
  ];
  it.each(engines)('%s reads 300 K on the mobile half (3·54 − 3 degrees of freedom), its centre held to 1e-12', async (_, make) => {
    const system = crystal();
    const mask = lowerHalf(system);
    const batch = Batch.fromSystems([system]);
    initializeVelocities(batch, { temperature: TARGET, seed: 2, frozen: mask, exact: true });
    const start = mobileCentre(batch, mask);
    const { mean, error } = await sampled(make(mask), batch, 30_000);
    expect(3 * error).toBeLessThan(10);
    expect(Math.abs(mean - TARGET)).toBeLessThan(3 * error);
    const end = mobileCentre(batch, mask);
    end.x.forEach((x, c) => expect(Math.abs(x - (start.x[c] as number))).toBeLessThan(1e-12));
    end.v.forEach((v) => expect(Math.abs(v)).toBeLessThan(1e-12));
    const x = batch.read('positions');
    (system.positions as number[][]).forEach((p, i) => { if (mask[i] === 1) for (let c = 0; c < 3; c++) expect(x[3 * i + c]).toBe(p[c]); });
  });

  it.skipIf(aseSkipReason !== '')(`reads the temperature ASE's get_temperature reads with FixAtoms and FixCom (3N − 3·fixed − 3) ${aseSkipReason}`, async () => {
    const system = crystal();
    const mask = lowerHalf(system);
    const batch = Batch.fromSystems([system]);
    initializeVelocities(batch, { temperature: TARGET, seed: 6, frozen: mask });
    const rows: LogRow[] = [];
    await new Langevin({ model: copper(), dt: 2, temperature: TARGET, friction: 0.02, seed: 5, constraints: [new FixAtoms({ mask }), new FixCom()], hooks: [new LoggingHook({ writer: (row) => rows.push(row), frequency: 500 })] })
      .run(batch, { steps: 500 });
    const ase = runAse<number>(`
import json, sys
import numpy as np
from ase import Atoms
from ase.constraints import FixAtoms, FixCom
from ase.units import fs
case = json.load(sys.stdin)
atoms = Atoms('Cu%d' % len(case['mask']), positions=np.zeros((len(case['mask']), 3)))
atoms.set_velocities(np.array(case['velocities']).reshape(-1, 3) / fs)
atoms.set_constraint([FixAtoms(mask=[bool(m) for m in case['mask']]), FixCom()])
print(json.dumps(atoms.get_temperature()))
`, { velocities: Array.from(batch.read('velocities')), mask });
    // Within the constants (ASE's units are CODATA 2014's); 3·54 degrees of freedom would be 2% off.
    expect(Math.abs(Number(rows[rows.length - 1]?.temperature) / ase - 1)).toBeLessThan(3e-6);
  });
});

describe('FixAtoms from the files that carry fixed atoms', () => {
  it.skipIf(aseSkipReason !== '')(`fixes the atoms of an ASE trajectory's FixAtoms (readTraj), and a relaxation leaves them in place ${aseSkipReason}`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hookmd-fixatoms-'));
    try {
      const path = join(dir, 'fixed.traj');
      runAse<null>(`
import json, sys
from ase.build import bulk
from ase.constraints import FixAtoms
from ase.io import write
case = json.load(sys.stdin)
atoms = bulk('Cu', 'fcc', a=3.61, cubic=True).repeat((2, 1, 1))
atoms.rattle(0.05, seed=1)
atoms.set_constraint(FixAtoms(indices=[0, 3, 5]))
write(case['path'], atoms)
print('null')
`, { path });
      const systems = readTraj(path);
      const fix = FixAtoms.fromSystems(systems);
      const batch = Batch.fromSystems(systems);
      expect(Array.from(fix.maskFor(batch))).toEqual([1, 0, 0, 1, 0, 1, 0, 0]);
      const start = Array.from(batch.read('positions'));
      await new FIRE({ model: copper(), constraints: [fix] }).run(batch, { steps: 50 });
      const end = batch.read('positions');
      for (let i = 0; i < 8; i++) {
        const moved = Math.hypot(end[3 * i] - start[3 * i], end[3 * i + 1] - start[3 * i + 1], end[3 * i + 2] - start[3 * i + 2]);
        if ([0, 3, 5].includes(i)) expect(moved).toBe(0);
        else expect(moved).toBeGreaterThan(1e-4);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an ASE FixAtoms whose indices lie outside the system', () => {
    const system = { ...crystal(), info: { aseConstraints: [{ name: 'FixAtoms', kwargs: { indices: [200] } }] } };
    expect(() => FixAtoms.fromSystems([system])).toThrow(expect.objectContaining({ code: 'INVALID_MASK' }));
  });
});

describe('constraints bad input', () => {
  const code = async (f: () => unknown): Promise<string | undefined> => {
    try { await f(); } catch (error) { return isHookmdError(error) ? error.code : 'untyped'; }
    return undefined;
  };
  it('refuses a non-array, a hook among the constraints and a bad mask', async () => {
    expect(await code(() => new VelocityVerlet({ model: copper(), dt: 1, constraints: new FixCom() as never }))).toBe('INVALID_CONSTRAINT');
    expect(await code(() => new VelocityVerlet({ model: copper(), dt: 1, constraints: [{ stage: null, call: () => undefined }] as never }))).toBe('INVALID_CONSTRAINT');
    expect(await code(() => new FixAtoms({ indices: [-1] }))).toBe('INVALID_MASK');
    expect(await code(() => new FixAtoms({ indices: [1], mask: [1] }))).toBe('INVALID_MASK');
    const batch = Batch.fromSystems([crystal()]);
    expect(await code(() => new VelocityVerlet({ model: copper(), dt: 1, constraints: [new FixAtoms({ mask: [1] })] }).run(batch, { steps: 1 }))).toBe('INVALID_MASK');
  });
});
