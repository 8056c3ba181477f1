// SNAP and ML-IAP on their own terms: forces and stress equal finite differences of the energy (triclinic
// cells, slabs and clusters; linear, quadratic, multi-element chemflag, a ZBL core, a network), a batch of
// different sizes and chemistries equals its systems alone, threads change nothing beyond the last bits,
// NVE conserves energy, and every malformed file is a typed error naming the file, the line and what was
// expected. The numbers against LAMMPS are test/models/snap-lammps.test.ts's.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, repeat } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { initializeVelocities, VelocityVerlet } from '../../lib/dynamics/index.js';
import { MLIAP, SNAP, type Model } from '../../lib/models/index.js';
import { getThreads, setThreads } from '../../lib/native/index.js';
import { LAMMPS_POTENTIALS } from '../helpers/lammps.js';
import { zincblende } from '../helpers/lammps-compare.js';
import { totalEnergy } from '../helpers/nve.js';
import { expectForcesAndStressOfEnergy } from './derivative-checks.js';
import { maxDifference } from './reference.js';

const file = (name: string): string => join(LAMMPS_POTENTIALS, name);
const available = existsSync(file('Ni_Zuo_JPCA2020.snap'));
const scratch = mkdtempSync(join(tmpdir(), 'hookmd-snap-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const crystal = (symbol: string, lattice: 'fcc' | 'bcc', a: number, seed: number, n = 2): System =>
  rattle(repeat(bulk(symbol, lattice, { a, cubic: true }), [n, n, n]), 0.1, seed);
function triclinic(system: System): System {
  const shear = (x: number[]): number[] => [x[0] + 0.05 * x[1] - 0.03 * x[2], x[1] + 0.04 * x[2], x[2]];
  return { ...system, cell: (system.cell as number[][]).map(shear), positions: (system.positions as number[][]).map(shear) };
}
function substituted(system: System, every: number, z: number): System {
  return { ...system, atomicNumbers: (system.atomicNumbers as number[]).map((v, i) => (i % every === 0 ? z : v)) };
}

const MODELS: [string, () => Model, () => System][] = [
  ['linear SNAP, Ni (2J = 8)', () => SNAP.fromLammps(file('Ni_Zuo_JPCA2020.snap')), () => triclinic(crystal('Ni', 'fcc', 3.52, 1))],
  ['quadratic SNAP, Mo', () => SNAP.fromLammps(file('Mo_Zuo_JPCA2020.quadratic.snap')), () => triclinic(crystal('Mo', 'bcc', 3.16, 2))],
  ['SNAP with a ZBL core, W compressed into it', () => SNAP.fromLammps(file('W_2940_2017_2.snap')), () => triclinic(crystal('W', 'bcc', 2.75, 3))],
  ['two elements, WBe', () => SNAP.fromLammps(file('WBe_Wood_PRB2019.snap')), () => triclinic(substituted(crystal('W', 'bcc', 3.17, 4), 3, 4))],
  ['chemflag, bnormflag, wselfallflag, InP', () => SNAP.fromLammps(file('InP_JCPA2020.snap')), () => triclinic(rattle(repeat(zincblende('In', 'P', 5.87), [1, 1, 2]), 0.1, 5))],
  ['an ML-IAP network, Cu', () => new MLIAP({ model: file('Cu.nn.mliap.model'), descriptor: file('Cu.snap.mliap.descriptor') }), () => triclinic(crystal('Cu', 'fcc', 3.62, 6))],
  ['an ML-IAP quadratic model with ZBL, W', () => MLIAP.fromLammps(file('W.quadratic.mliap')), () => triclinic(crystal('W', 'bcc', 3.17, 7))],
  ['an ML-IAP network on the so3 descriptor, Si', () => new MLIAP({ model: file('Si.nn.mliap.model'), descriptor: file('Si.nn.mliap.descriptor') }), () => triclinic(rattle(bulk('Si', 'diamond', { a: 5.43, cubic: true }), 0.1, 8))],
  ['a linear ML-IAP model on the so3 descriptor, NiMo', () => new MLIAP({ model: file('Ni_Mo.mliap.model'), descriptor: file('Ni_Mo.mliap.descriptor') }), () => triclinic(substituted(crystal('Ni', 'fcc', 3.52, 9), 3, 42))],
];

describe.skipIf(!available)(`SNAP and ML-IAP ${available ? '' : '(skipped: no /usr/share/lammps/potentials; apt-get install lammps-data)'}`, () => {
  it.each(MODELS)('%s: forces are −∂E/∂x and stress is (1/V)∂E/∂ε (triclinic cell, slab, cluster)', (_, make, system) => {
    expectForcesAndStressOfEnergy(make(), system());
  });

  it('a batch of systems of different sizes, chemistries and boundaries equals each system alone', () => {
    const model = SNAP.fromLammps(file('WBe_Wood_PRB2019.snap'));
    const w = (seed: number, n = 2): System => crystal('W', 'bcc', 3.17, seed, n);
    const systems: System[] = [w(1), { ...substituted(w(2), 2, 4), pbc: [true, true, false] }, { ...w(3, 1), cell: undefined, pbc: false }, substituted(w(4, 3), 5, 4), w(5, 1)];
    const batch = Batch.fromSystems(systems);
    model.compute(batch, { stress: true });
    let atom = 0;
    systems.forEach((system, s) => {
      const alone = Batch.fromSystems([system]);
      model.compute(alone, { stress: true });
      expect(batch.energy[s]).toBe(alone.energy[0]);
      expect(Array.from(batch.forces.subarray(3 * atom, 3 * (atom + alone.numAtoms)))).toEqual(Array.from(alone.forces));
      expect(Array.from(batch.stress.subarray(9 * s, 9 * s + 9))).toEqual(Array.from(alone.stress));
      atom += alone.numAtoms;
    });
  });

  it('a large system gives the same energy, forces and stress on 1 and 2 threads', () => {
    const before = getThreads();
    const run = (threads: number): Batch => {
      setThreads(threads);
      const batch = Batch.fromSystems([crystal('Ni', 'fcc', 3.52, 8, 5)]);
      SNAP.fromLammps(file('Ni_Zuo_JPCA2020.quadratic.snap')).compute(batch, { stress: true });
      return batch;
    };
    try {
      const one = run(1);
      const two = run(2);
      expect(one.numAtoms).toBe(500);
      expect(Math.abs(one.energy[0] - two.energy[0])).toBeLessThan(1e-12 * Math.abs(one.energy[0]));
      expect(maxDifference(one.forces, two.forces)).toBeLessThan(1e-12);
      expect(maxDifference(one.stress, two.stress)).toBeLessThan(1e-15);
    } finally {
      setThreads(before);
    }
  });

  it.each([
    ['nickel with linear SNAP', () => SNAP.fromLammps(file('Ni_Zuo_JPCA2020.snap')), () => repeat(bulk('Ni', 'fcc', { a: 3.52, cubic: true }), [3, 3, 3])],
    ['silicon with the so3 network', () => new MLIAP({ model: file('Si.nn.mliap.model'), descriptor: file('Si.nn.mliap.descriptor') }), () => repeat(bulk('Si', 'diamond', { a: 5.43, cubic: true }), [2, 2, 2])],
  ] as [string, () => Model, () => System][])('NVE on %s at 600 K conserves the total energy', async (_, make, system) => {
    const batch = Batch.fromSystems([system()]);
    initializeVelocities(batch, { temperature: 1200, seed: 3 });
    const model = make();
    const total = (): number => totalEnergy(model, batch);
    const engine = new VelocityVerlet({ model, dt: 1 });
    await engine.run(batch, { steps: 50 });
    const start = total();
    await engine.run(batch, { steps: 200 });
    // 108 Ni or 64 Si atoms at about 600 K after equipartition (kT = 0.052 eV): the drift stays far below kT per atom.
    expect(Math.abs(total() - start) / batch.numAtoms).toBeLessThan(1e-4);
  });

  it('bad files are typed errors naming the file, the line and what was expected', () => {
    const write = (name: string, text: string): string => {
      const path = join(scratch, name);
      writeFileSync(path, text);
      return path;
    };
    const coeff = readFileSync(file('Ni_Zuo_JPCA2020.snapcoeff'), 'utf8');
    const param = readFileSync(file('Ni_Zuo_JPCA2020.snapparam'), 'utf8');
    const params = write('ni.snapparam', param);
    const make = (c: string, p = params): SNAP => new SNAP({ coefficients: write('x.snapcoeff', c), parameters: p });
    expect(() => make(coeff.replace('1 56', '1'))).toThrow(/x\.snapcoeff:4: expected "nelements ncoeff", got '1'/);
    expect(() => make(coeff.replace('1 56', '1 55'))).toThrow(/x\.snapcoeff:61: '-?[0-9.e-]+' after the 1 element blocks the header announces/);
    expect(() => make(coeff.replace('1 56', '2 56'))).toThrow(/the file ends before element 2 of 2/);
    expect(() => make(coeff.replace('0.014498298295814536', 'nan'))).toThrow(/x\.snapcoeff:7: Ni coefficient 1: expected a finite number, got 'nan'/);
    expect(() => make(coeff.replace('Ni 0.5 1', 'Ni -0.5 1'))).toThrow(/the radius must be > 0/);
    expect(() => make(coeff, write('q.snapparam', `${param}\nquadraticflag 1\n`))).toThrow(/ncoeff is 56, but twojmax 8, quadraticflag 1 .* needs 1596 per element/);
    expect(() => make(coeff, write('k.snapparam', `${param}\nswitchinnerflag 1\n`))).toThrow(/k\.snapparam:\d+: switchinnerflag is a keyword of LAMMPS versions after 29 Sep 2021/);
    expect(() => make(coeff, write('u.snapparam', `${param}\nfancyflag 1\n`))).toThrow(/unknown keyword 'fancyflag'/);
    expect(() => make(coeff, write('r.snapparam', param.replace('rcutfac 4.1', '')))).toThrow(/does not set rcutfac/);
    expect(() => make(coeff, write('f.snapparam', `${param}\nbzeroflag 2\n`))).toThrow(/bzeroflag must be 0 or 1, got 2/);
    expect(() => new SNAP({ coefficients: file('Ni_Zuo_JPCA2020.snapcoeff'), parameters: params, elements: ['Cu'] })).toThrow(expect.objectContaining({ code: 'MISSING_SPECIES' }));
    expect(() => SNAP.fromLammps(file('W_2940_2017_2_He_JW2013.snap'))).toThrow(/pair style 'table' is not one hookmd runs beside SNAP/);
    expect(() => SNAP.fromLammps(write('v.snap', 'pair_style snap\npair_coeff * * ${x} b Ni\n'))).toThrow(/v\.snap:2: variable x is used before it is defined/);
    expect(() => SNAP.fromLammps(write('null.snap', `pair_style snap\npair_coeff * * ${file('Ni_Zuo_JPCA2020.snapcoeff')} ${params} Ni NULL\n`))).toThrow(/type 2 is NULL/);
    expect(() => SNAP.fromLammps(write('m.snap', 'mass 1 58.7\npair_style snap\n'))).toThrow(/'mass' is not a command hookmd reads/);

    const descriptor = readFileSync(file('Cu.snap.mliap.descriptor'), 'utf8');
    const network = readFileSync(file('Cu.nn.mliap.model'), 'utf8');
    const mliap = (model: string, d = descriptor): MLIAP => new MLIAP({ model: write('x.model', model), descriptor: write('x.descriptor', d) });
    expect(() => mliap(network.replace('tanh 2 tanh', 'swish 2 tanh'))).toThrow(/x\.model:8: layer 1: unknown activation 'swish'/);
    expect(() => mliap(network, descriptor.replace('twojmax 6', 'twojmax 8'))).toThrow(/the network takes 30 descriptors, the descriptor .* gives 55/);
    expect(() => mliap(network.replace('1 71', '1 70'))).toThrow(/nparams is 70, but the NET line's layers need 71/);
    expect(() => mliap(network, descriptor.replace('radelems 0.5', 'radelems 0.5 0.5'))).toThrow(/radelems needs 1 values \(nelems\), got 2/);
    expect(() => MLIAP.fromLammps(file('Ta06A.pytorch.mliap'))).toThrow(/mliap model 'mliappy' is not one hookmd runs/);
    const so3 = readFileSync(file('Si.nn.mliap.descriptor'), 'utf8');
    const siNetwork = readFileSync(file('Si.nn.mliap.model'), 'utf8');
    expect(() => new MLIAP({ model: file('Si.nn.mliap.model'), descriptor: file('Si.nn.mliap.descriptor'), descriptorStyle: 'sna' })).toThrow(/unknown keyword 'nmax' of an sna descriptor/);
    expect(() => mliap(siNetwork, so3.replace('welems 14', 'welems 14.5'))).toThrow(/Si: an so3 weight must be a whole number \(LAMMPS truncates it\), got 14\.5/);
    expect(() => mliap(siNetwork, so3.replace('alpha 2.0', ''))).toThrow(/x\.descriptor:1: the file does not set alpha, which an so3 descriptor requires/);
    expect(() => mliap(siNetwork, so3.replace('nmax 3', 'nmax 0'))).toThrow(/x\.descriptor:\d+: nmax must be a whole number >= 1, got 0/);
    expect(() => mliap(siNetwork, so3.replace('lmax 4', 'lmax 3'))).toThrow(/the network takes 30 descriptors, the descriptor .*so3 nmax 3 lmax 3\) gives 24/);
    expect(() => mliap(siNetwork, `${so3}\ntwojmax 6\n`)).toThrow(/unknown keyword 'twojmax' of an so3 descriptor/);
    expect(() => mliap(siNetwork, so3.replace('alpha 2.0', 'alpha 20'))).toThrow(/so3 alpha 20 with rcutfac 5 overflows the radial integrals/);

    const nickel = SNAP.fromLammps(file('Ni_Zuo_JPCA2020.snap'));
    const copper = Batch.fromSystems([crystal('Ni', 'fcc', 3.52, 1), crystal('Cu', 'fcc', 3.62, 1, 1)]);
    expect(() => nickel.compute(copper)).toThrow(expect.objectContaining({ code: 'MISSING_SPECIES', message: expect.stringMatching(/atom 0 of system 1 is Cu/) }));
    expect(() => new SNAP({ coefficients: file('Ni_Zuo_JPCA2020.snapcoeff'), parameters: params, cutoff: 5 } as never)).toThrow(expect.objectContaining({ code: 'UNKNOWN_OPTION' }));
  });
});
