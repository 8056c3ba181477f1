// One temperature convention (docs/dynamics.md, "Temperature"): T = 2·KE/(dof·k_B) with dof = 3N − 3 for a
// system whose total momentum is conserved (periodic or a free cluster: LAMMPS's `compute temp`), and
// dof = 3·N_mobile for a system with frozen atoms, which exchange momentum with the mobile ones (ASE's
// get_temperature with FixAtoms). The thermostats, ctx.scalars, the logs, temperatures() and
// initializeVelocities({ exact }) all count the same degrees of freedom.
import { describe, expect, it } from 'vitest';

import { Batch, bulk, repeat, type System } from '../../lib/data/index.js';
import {
  FreezeAtomsHook,
  initializeVelocities,
  Langevin,
  NoseHooverChain,
  NPT,
  temperatures,
  type Dynamics,
} from '../../lib/dynamics/index.js';
import { LoggingHook, type LogRow } from '../../lib/dynamics/hooks/logging-hook.js';
import { formatLammpsData } from '../../lib/io/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { aseSkipReason, runAse } from '../helpers/ase.js';
import { lammpsSkipReason, runLammps, thermoRow } from '../helpers/lammps.js';

const TARGET = 40;
const argon = (): LennardJones => new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 });
const crystal = (): System => repeat(bulk('Ar', 'fcc', { a: 5.3, cubic: true }), [3, 3, 3]);
// An Ar13 icosahedron-like cluster: no cell, no periodicity.
const cluster = (): System => ({ symbols: Array(13).fill('Ar'), positions: Array.from({ length: 13 }, (_, i) => [3.8 * Math.cos(i), 3.8 * Math.sin(1.7 * i), 1.9 * (i % 3)]) });
const frozenMask = (atoms: number, every: number): number[] => Array.from({ length: atoms }, (_, i) => (i % every === 0 ? 1 : 0));

describe('the temperature every part of hookmd reports', () => {
  it('exact initialization reads back the target to 1e-12 at step 0, in temperatures() and in a thermostat run\'s log', async () => {
    const cases: Array<{ system: System; frozen?: number[] }> = [{ system: crystal() }, { system: cluster() }, { system: crystal(), frozen: frozenMask(108, 9) }];
    for (const { system, frozen } of cases) {
      const batch = Batch.fromSystems([system]);
      initializeVelocities(batch, { temperature: TARGET, seed: 5, exact: true, ...(frozen === undefined ? {} : { frozen }) });
      expect(Math.abs(temperatures(batch, frozen === undefined ? {} : { frozen })[0] - TARGET)).toBeLessThan(1e-12 * TARGET);
      const rows: LogRow[] = [];
      const hooks = [new LoggingHook({ writer: (row) => rows.push(row), frequency: 100 }), ...(frozen === undefined ? [] : [new FreezeAtomsHook({ mask: frozen })])];
      await new NoseHooverChain({ model: argon(), dt: 5, temperature: TARGET, hooks }).run(batch, { steps: 1 });
      expect(rows[0].step).toBe(0);
      expect(Math.abs(Number(rows[0].temperature) - TARGET)).toBeLessThan(1e-12 * TARGET);
    }
  });

  it.skipIf(lammpsSkipReason !== '')(`equals LAMMPS's compute temp for a periodic crystal and for a cluster ${lammpsSkipReason}`, () => {
    for (const system of [crystal(), { ...cluster(), cell: [[30, 0, 0], [0, 30, 0], [0, 0, 30]] }]) {
      const batch = Batch.fromSystems([system]);
      initializeVelocities(batch, { temperature: TARGET, seed: 8, removeDrift: false });
      const script = ['units metal', 'atom_style atomic', 'boundary p p p', 'read_data data.lmp', 'pair_style zero 5.0', 'pair_coeff * *',
        'thermo_style custom step temp', 'thermo_modify format float %.17g', 'run 0'].join('\n');
      const [, lammps] = thermoRow(runLammps(script, { 'data.lmp': formatLammpsData(batch.toSystems()[0]) }).stdout, 'Step Temp');
      // Within the constants: LAMMPS's metal units take k_B = 8.617343e-5 eV/K, hookmd CODATA 2018's.
      expect(Math.abs(temperatures(batch)[0] / lammps - 1)).toBeLessThan(3e-6);
    }
  });

  it.skipIf(aseSkipReason !== '')(`equals ASE's get_temperature with FixAtoms when atoms are frozen ${aseSkipReason}`, () => {
    const batch = Batch.fromSystems([crystal()]);
    initializeVelocities(batch, { temperature: TARGET, seed: 4 });
    const frozen = frozenMask(108, 7);
    const ase = runAse<number>(`
import json, sys
import numpy as np
from ase import Atoms
from ase.constraints import FixAtoms
from ase.units import fs
case = json.load(sys.stdin)
atoms = Atoms('Ar%d' % len(case['frozen']), positions=np.zeros((len(case['frozen']), 3)))
atoms.set_velocities(np.array(case['velocities']).reshape(-1, 3) / fs)
atoms.set_constraint(FixAtoms(mask=[bool(f) for f in case['frozen']]))
print(json.dumps(atoms.get_temperature()))
`, { velocities: Array.from(batch.read('velocities')), frozen });
    // Within the constants (ASE's units are CODATA 2014's).
    expect(Math.abs(temperatures(batch, { frozen })[0] / ase - 1)).toBeLessThan(3e-6);
  });
});

/** Mean of ctx.scalars.temperature sampled every 10 steps after equilibration, with its standard error from 20 blocks. */
async function sampledTemperature(engine: Dynamics, batch: Batch, steps: number): Promise<{ mean: number; error: number }> {
  const samples: number[] = [];
  engine.register({ stage: 7, frequency: 10, call: (ctx) => { samples.push(ctx.scalars.temperature[0]); } });
  await engine.run(batch, { steps });
  const kept = samples.slice(samples.length / 5);
  const blocks = 20;
  const size = Math.floor(kept.length / blocks);
  const means = Array.from({ length: blocks }, (_, b) => kept.slice(b * size, (b + 1) * size).reduce((a, x) => a + x, 0) / size);
  const mean = means.reduce((a, x) => a + x, 0) / blocks;
  const variance = means.reduce((a, x) => a + (x - mean) ** 2, 0) / (blocks - 1);
  return { mean, error: Math.sqrt(variance / blocks) };
}

// 32 atoms: the two conventions differ by T/N = 1.25 K, and the runs are long enough to tell them apart.
const small = (): System => repeat(bulk('Ar', 'fcc', { a: 5.3, cubic: true }), [2, 2, 2]);

describe('thermostats hold the reported temperature at the target (long runs, 32 Ar atoms at 40 K)', () => {
  const engines: ReadonlyArray<[string, () => Dynamics]> = [
    ['NoseHooverChain', () => new NoseHooverChain({ model: argon(), dt: 5, temperature: TARGET, tdamp: 250 })],
    ['Langevin', () => new Langevin({ model: argon(), dt: 5, temperature: TARGET, friction: 0.02, seed: 3 })],
    ['NPT', () => new NPT({ model: argon(), dt: 5, temperature: TARGET, pressure: 0, tdamp: 250, pdamp: 2500 })],
  ];
  it.each(engines)('%s: the mean is within three standard errors of the target', async (_, make) => {
    const batch = Batch.fromSystems([small()]);
    initializeVelocities(batch, { temperature: TARGET, seed: 1 });
    const { mean, error } = await sampledTemperature(make(), batch, 60_000);
    expect(3 * error).toBeLessThan(TARGET / 32);
    expect(Math.abs(mean - TARGET)).toBeLessThan(3 * error);
  });

  it('Langevin on a 13-atom cluster (3N − 3 = 36 degrees of freedom) and on a crystal with frozen atoms (3·N_mobile)', async () => {
    const free = Batch.fromSystems([cluster()]);
    initializeVelocities(free, { temperature: TARGET, seed: 2 });
    const onCluster = await sampledTemperature(new Langevin({ model: argon(), dt: 5, temperature: TARGET, friction: 0.02, seed: 6 }), free, 60_000);
    expect(Math.abs(onCluster.mean - TARGET)).toBeLessThan(3 * onCluster.error);
    // The noise leaves the total momentum of a system without frozen atoms at zero.
    const v = free.read('velocities');
    const momentum = [0, 1, 2].map((c) => Array.from({ length: 13 }, (_, i) => v[3 * i + c]).reduce((a, x) => a + x, 0));
    for (const p of momentum) expect(Math.abs(p)).toBeLessThan(1e-12);
    const frozen = frozenMask(108, 9);
    const pinned = Batch.fromSystems([crystal()]);
    initializeVelocities(pinned, { temperature: TARGET, seed: 3, frozen });
    const engine = new Langevin({ model: argon(), dt: 5, temperature: TARGET, friction: 0.02, seed: 7, hooks: [new FreezeAtomsHook({ mask: frozen })] });
    const onPinned = await sampledTemperature(engine, pinned, 30_000);
    expect(Math.abs(onPinned.mean - TARGET)).toBeLessThan(3 * onPinned.error);
  });
});
