// Tersoff and Stillinger–Weber on their own terms: forces and stress equal finite differences of the energy
// (periodic triclinic cells, slabs and clusters, every variant), a batch of different sizes and chemistries
// equals its systems alone, threads change nothing beyond the last bits, NVE conserves energy on hot
// silicon, a variable-cell relaxation reaches LAMMPS's box/relax lattice constant, and every malformed file
// or structure is a typed error.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, repeat } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { CellFilter, ConvergenceHook, FIRE, initializeVelocities, Langevin, NPT, VelocityVerlet, fuse } from '../../lib/dynamics/index.js';
import { StillingerWeber, Tersoff, type Model } from '../../lib/models/index.js';
import { getThreads, setThreads } from '../../lib/native/index.js';
import { LAMMPS_POTENTIALS, lammpsSkipReason, runLammps } from '../helpers/lammps.js';
import { zincblende } from '../helpers/lammps-compare.js';
import { totalEnergy } from '../helpers/nve.js';
import { expectForcesAndStressOfEnergy } from './derivative-checks.js';
import { maxDifference } from './reference.js';

const file = (name: string): string => join(LAMMPS_POTENTIALS, name);
const available = existsSync(file('Si.tersoff'));
const scratch = mkdtempSync(join(tmpdir(), 'hookmd-manybody-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const diamond = (seed: number, n = 2): System => rattle(repeat(bulk('Si', 'diamond', { a: 5.432, cubic: true }), [n, n, n]), 0.1, seed);
/** A triclinic cell: the rattled crystal sheared. */
function triclinic(system: System): System {
  const cell = system.cell as number[][];
  const shear = (x: number[]): number[] => [x[0] + 0.05 * x[1] - 0.03 * x[2], x[1] + 0.04 * x[2], x[2]];
  return { ...system, cell: cell.map(shear), positions: (system.positions as number[][]).map(shear) };
}
const slab = (seed: number): System => ({ ...diamond(seed), pbc: [true, true, false] });
const cluster = (seed: number): System => ({ ...diamond(seed), cell: undefined, pbc: false });

const MODELS: [string, () => Model, () => System][] = [
  ['tersoff Si.tersoff', () => new Tersoff({ file: file('Si.tersoff') }), () => triclinic(diamond(1))],
  ['tersoff/mod Si.tersoff.mod', () => new Tersoff({ file: file('Si.tersoff.mod') }), () => triclinic(diamond(2))],
  ['tersoff/zbl SiC.tersoff.zbl, compressed', () => new Tersoff({ file: file('SiC.tersoff.zbl') }), () => triclinic(rattle(repeat(zincblende('Si', 'C', 3.6), [2, 2, 2]), 0.15, 3))],
  ['tersoff SiC.tersoff', () => new Tersoff({ file: file('SiC.tersoff') }), () => triclinic(rattle(repeat(zincblende('Si', 'C', 4.36), [2, 2, 2]), 0.1, 4))],
  ['sw Si.sw', () => new StillingerWeber({ file: file('Si.sw') }), () => triclinic(diamond(5))],
  ['sw GaN.sw', () => new StillingerWeber({ file: file('GaN.sw') }), () => triclinic(rattle(repeat(zincblende('Ga', 'N', 4.5), [2, 2, 2]), 0.1, 6))],
];

describe.skipIf(!available)(`Tersoff and Stillinger–Weber ${available ? '' : '(skipped: no /usr/share/lammps/potentials; apt-get install lammps-data)'}`, () => {
  it.each(MODELS)('%s: forces are −∂E/∂x and stress is (1/V)∂E/∂ε (triclinic cell, slab, cluster)', (_, make, system) => {
    expectForcesAndStressOfEnergy(make(), system());
  });

  it('a batch of systems of different sizes, chemistries and boundaries equals each system alone', () => {
    const model = new Tersoff({ file: file('SiC.tersoff') });
    const systems: System[] = [diamond(7), slab(8), cluster(9), rattle(repeat(zincblende('Si', 'C', 4.36), [2, 2, 3]), 0.05, 10), diamond(11, 1)];
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

  it.each([
    ['Tersoff', () => new Tersoff({ file: file('Si.tersoff') })],
    ['StillingerWeber', () => new StillingerWeber({ file: file('Si.sw') })],
  ] as const)('%s: a large system gives the same energy, forces and stress on 1 and 2 threads', (_, make) => {
    const before = getThreads();
    const run = (threads: number): Batch => {
      setThreads(threads);
      const batch = Batch.fromSystems([diamond(12, 6)]);
      make().compute(batch, { stress: true });
      return batch;
    };
    try {
      const one = run(1);
      const two = run(2);
      expect(one.numAtoms).toBe(1728);
      expect(Math.abs(one.energy[0] - two.energy[0])).toBeLessThan(1e-12 * Math.abs(one.energy[0]));
      expect(maxDifference(one.forces, two.forces)).toBeLessThan(1e-12);
      expect(maxDifference(one.stress, two.stress)).toBeLessThan(1e-15);
    } finally {
      setThreads(before);
    }
  });

  it.each([
    ['Tersoff', () => new Tersoff({ file: file('Si.tersoff') })],
    ['StillingerWeber', () => new StillingerWeber({ file: file('Si.sw') })],
  ] as const)('%s: NVE on silicon at 1,000 K conserves the total energy', async (_, make) => {
    const batch = Batch.fromSystems([repeat(bulk('Si', 'diamond', { a: 5.432, cubic: true }), [3, 3, 3])]);
    initializeVelocities(batch, { temperature: 2000, seed: 3 });
    const model = make();
    const total = (): number => totalEnergy(model, batch);
    const engine = new VelocityVerlet({ model, dt: 1 });
    await engine.run(batch, { steps: 200 });
    const start = total();
    await engine.run(batch, { steps: 1000 });
    // 216 atoms at about 1,000 K after equipartition: the drift stays a small fraction of kT per atom.
    expect(Math.abs(total() - start) / batch.numAtoms).toBeLessThan(2e-4);
  });

  it('bad files and structures are typed errors naming the file, line and entry', () => {
    const write = (name: string, text: string): string => {
      const path = join(scratch, name);
      writeFileSync(path, text);
      return path;
    };
    const entry = 'Si Si Si 3.0 1.0 1.3258 4.8381 2.0417 0.0000 22.956\n 0.33675 1.3258 95.373 3.0 0.2 3.2394 3264.7\n';
    expect(() => new Tersoff({ file: write('nan.tersoff', entry.replace('95.373', 'nan')) })).toThrow(/nan\.tersoff:2: entry Si Si Si: expected a number, got 'nan' \(number 10/);
    expect(() => new Tersoff({ file: write('nan2.tersoff', `${entry}${entry.replace('Si Si Si', 'Si Si C').replace('95.373', 'NaN')}`) })).toThrow(/nan2\.tersoff:4: entry Si Si C: B must be a number, got 'NaN'/);
    expect(() => new Tersoff({ file: write('short.tersoff', entry.replace(' 3264.7', '')) })).toThrow(/an entry has 13 numbers after its elements/);
    expect(() => new Tersoff({ file: write('cut.tersoff', `# a comment\n${entry.replace(' 3.0 0.2 ', ' -3.0 0.2 ')}`) })).toThrow(/cut\.tersoff:2: entry Si Si Si: R must be >= 0, got -3/);
    expect(() => new Tersoff({ file: write('trunc.tersoff', `${entry}Si Si C 3.0 1.0`) })).toThrow(/the file ends inside an entry/);
    expect(() => new Tersoff({ file: write('m.tersoff', entry.replace('3.0 1.0 1.3258', '2.0 1.0 1.3258')) })).toThrow(/m must be 1 or 3, got 2/);
    expect(() => new StillingerWeber({ file: write('bad.sw', 'Si Si Si 2.1683 2.0951 1.80 21.0 1.20 -0.333 7.05 0.602 4.0 0.0\n') })).toThrow(/the file ends inside an entry/);
    expect(() => new Tersoff({ file: file('SiC.tersoff'), elements: ['Si', 'Ge'] })).toThrow(expect.objectContaining({ code: 'MISSING_SPECIES' }));
    expect(() => new Tersoff({ file: file('SiCGe.tersoff') })).toThrow(/'Si\(B\)' is not an element symbol; map each element to its name in the file/);
    expect(() => new Tersoff({ file: file('SiCGe.tersoff'), elements: { Si: 'Si(D)', C: 'C', Ge: 'Ge' } })).toThrow(expect.objectContaining({ code: 'MISSING_TRIPLET' }));
    expect(() => new Tersoff({ file: file('Si.tersoff.modc') })).toThrow(/tersoff\/mod\/c file/);
    expect(() => new Tersoff({ file: '/dev/zero' })).toThrow(expect.objectContaining({ code: 'READ_FAILED' }));
    expect(() => new Tersoff({ file: scratch })).toThrow(/not a regular file/);
    expect(() => new Tersoff({ file: file('Si.tersoff'), cutoff: 3 } as never)).toThrow(expect.objectContaining({ code: 'UNKNOWN_OPTION' }));
    expect(() => new Tersoff({ file: file('Si.tersoff'), style: 'modc' } as never)).toThrow(/style must be 'mod' or 'zbl'/);
    expect(() => new Tersoff({ file: file('Si.tersoff'), style: 'zbl' })).toThrow(/a tersoff\/zbl entry has 18 numbers/);

    const silicon = new Tersoff({ file: file('Si.tersoff') });
    const germanium = Batch.fromSystems([diamond(1), rattle(repeat(bulk('Ge', 'diamond', { a: 5.65, cubic: true }), [1, 1, 1]), 0.01, 1)]);
    expect(() => silicon.compute(germanium)).toThrow(expect.objectContaining({ code: 'MISSING_SPECIES', message: expect.stringMatching(/atom 0 of system 1 is Ge/) }));
    const base = diamond(2);
    const positions = base.positions as number[][];
    const overlapping = Batch.fromSystems([{ cell: base.cell, pbc: true, positions: [...positions, [...(positions[5] as number[])]], atomicNumbers: [...(base.atomicNumbers as number[]), 14] }]);
    expect(() => silicon.compute(overlapping)).toThrow(expect.objectContaining({ code: 'OVERLAPPING_ATOMS' }));
  });

  it('runs in every engine: a stream through a fused FIRE → Langevin stage, and NPT toward a pressure', async () => {
    const model = new StillingerWeber({ file: file('Si.sw') });
    const fire = new FIRE({ model, convergence: ConvergenceHook.fromFmax(0.05, { targetStatus: 1 }) });
    const heat = new Langevin({ model, dt: 1, temperature: 300, friction: 0.01, seed: 1, velocities: { temperature: 300, seed: 1 } });
    const written: System[] = [];
    const result = await fuse(fire, heat).runStream([1, 2, 3, 4].map((seed) => diamond(seed, 1)), {
      sinks: [{ write: (systems: System[]) => void written.push(...systems) }],
      maxAtoms: 16,
      maxSteps: 300,
    });
    expect(result.processed).toBe(4);
    expect(written).toHaveLength(4);
    for (const system of written) expect(Number.isFinite(system.energy)).toBe(true);

    // Diamond Si squeezed by 1 % relaxes its volume toward zero pressure under NPT.
    const batch = Batch.fromSystems([repeat(bulk('Si', 'diamond', { a: 5.377, cubic: true }), [2, 2, 2])]);
    initializeVelocities(batch, { temperature: 300, seed: 4 });
    const volume = (): number => batch.read('cell')[0] * batch.read('cell')[4] * batch.read('cell')[8];
    const before = volume();
    await new NPT({ model, dt: 1, temperature: 300, pressure: 0, tdamp: 100, pdamp: 500 }).run(batch, { steps: 400 });
    expect(volume()).toBeGreaterThan(before);
  });

  it('an asymmetric file gives results that do not depend on the atoms’ order (LAMMPS’s do)', () => {
    const model = new Tersoff({ file: file('SiC_1994.tersoff') });
    const system = rattle(repeat(zincblende('Si', 'C', 4.36), [2, 2, 2]), 0.1, 5);
    const order = (system.positions as number[][]).map((_, i) => i).reverse();
    const reversed: System = {
      ...system,
      positions: order.map((i) => (system.positions as number[][])[i] as number[]),
      atomicNumbers: order.map((i) => (system.atomicNumbers as number[])[i] as number),
    };
    const batch = Batch.fromSystems([system, reversed]);
    model.compute(batch);
    expect(Math.abs(batch.energy[0] - batch.energy[1])).toBeLessThan(1e-12 * Math.abs(batch.energy[0]));
  });
});

describe.skipIf(!available || lammpsSkipReason !== '')('Tersoff variable-cell relaxation vs LAMMPS box/relax', () => {
  it.each([
    ['Tersoff', 'tersoff', 'Si.tersoff', () => new Tersoff({ file: file('Si.tersoff') })],
    ['StillingerWeber', 'sw', 'Si.sw', () => new StillingerWeber({ file: file('Si.sw') })],
  ] as const)('%s: diamond Si relaxes to the lattice constant LAMMPS finds', async (_, style, name, make) => {
    const input = [
      'units metal',
      'boundary p p p',
      'lattice diamond 5.3',
      'region box block 0 2 0 2 0 2',
      'create_box 1 box',
      'create_atoms 1 box',
      'mass 1 28.0855',
      `pair_style ${style}`,
      `pair_coeff * * ${file(name)} Si`,
      'fix relax all box/relax iso 0.0 vmax 0.001',
      'min_modify line quadratic',
      'minimize 0 1e-12 10000 100000',
      'variable a equal lx/2',
      'print "LATTICE $(v_a:%.12f)"',
    ].join('\n');
    const { stdout } = runLammps(input);
    const lammpsA = Number(/LATTICE ([0-9.]+)/.exec(stdout)?.[1]);
    const batch = Batch.fromSystems([rattle(repeat(bulk('Si', 'diamond', { a: 5.3, cubic: true }), [2, 2, 2]), 0.02, 1)]);
    const fire = new FIRE({ model: make(), cellFilter: new CellFilter({}), convergence: ConvergenceHook.fromFmaxAndStress(1e-6, 1e-8) });
    const { converged } = await fire.run(batch, { steps: 20000 });
    expect(converged[0]).toBe(1);
    const cell = batch.read('cell');
    const a = Math.cbrt(Math.abs(cell[0] * (cell[4] * cell[8] - cell[5] * cell[7]) - cell[1] * (cell[3] * cell[8] - cell[5] * cell[6]) + cell[2] * (cell[3] * cell[7] - cell[4] * cell[6]))) / 2;
    expect(Math.abs(a - lammpsA)).toBeLessThan(1e-5);
  });
});
