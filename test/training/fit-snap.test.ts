// fitSnap and its parts: the dense least-squares solver against closed forms; the descriptor rows, which
// times a known SNAP's coefficients give that SNAP's own energies, forces and stresses (linear, quadratic,
// two elements, chemflag); fits on noise-free labels of a known SNAP that recover its coefficients; a fit
// on part of the mlearn Mo training set whose test-set errors stay near those of the shipped Zuo et al.
// coefficients on the same data; and the bad input that must fail before any work.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, repeat } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { readMlearn } from '../../lib/io/mlearn.js';
import { SNAP } from '../../lib/models/index.js';
import { fitSnap, leastSquares, modelErrors, snapDescriptorRows } from '../../lib/training/index.js';
import { LAMMPS_POTENTIALS } from '../helpers/lammps.js';
import { zincblende } from '../helpers/lammps-compare.js';

const file = (name: string): string => join(LAMMPS_POTENTIALS, name);
const available = existsSync(file('Mo_Zuo_JPCA2020.snap'));
const MO = join('test', 'fixtures', 'mlearn', 'Mo');

const mo = (seed: number, n = 2, a = 3.16): System => rattle(repeat(bulk('Mo', 'bcc', { a, cubic: true }), [n, n, n]), 0.15, seed);
function sheared(system: System): System {
  const shear = (x: number[]): number[] => [x[0] + 0.05 * x[1] - 0.03 * x[2], x[1] + 0.04 * x[2], x[2]];
  return { ...system, cell: (system.cell as number[][]).map(shear), positions: (system.positions as number[][]).map(shear) };
}
/** `systems` labelled with `model`'s energy, forces and stress. */
function labelled(model: SNAP, systems: System[]): System[] {
  const batch = Batch.fromSystems(systems);
  model.compute(batch, { stress: true });
  return batch.toSystems();
}
const relative = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let diff = 0;
  let scale = 0;
  for (let i = 0; i < a.length; i++) {
    diff = Math.max(diff, Math.abs((a[i] as number) - (b[i] as number)));
    scale = Math.max(scale, Math.abs(b[i] as number));
  }
  return diff / scale;
};

describe('leastSquares', () => {
  it('solves an overdetermined system as the normal equations do (a 3×2 one by hand)', () => {
    // Rows x0 = 1, x1 = 2, x0 + x1 = 4: AᵀA = [[2, 1], [1, 2]], Aᵀb = [5, 6], so x = [4/3, 7/3].
    const { x, residualNorm } = leastSquares([Float64Array.of(1, 0, 1), Float64Array.of(0, 1, 1)], Float64Array.of(1, 2, 4));
    expect(x[0]).toBeCloseTo(4 / 3, 14);
    expect(x[1]).toBeCloseTo(7 / 3, 14);
    expect(residualNorm).toBeCloseTo(Math.sqrt(3 * (1 / 3) ** 2), 14);
  });

  it('adds the ridge λ‖x‖²: one column gives x = aᵀb / (aᵀa + λ)', () => {
    const a = Float64Array.of(1, 2, 3, -1);
    const b = Float64Array.of(0.5, 1, 4, 2);
    const { x } = leastSquares([a], b, 0.7);
    expect(x[0]).toBeCloseTo((0.5 + 2 + 12 - 2) / (1 + 4 + 9 + 1 + 0.7), 14);
  });

  it('recovers the solution of a consistent, badly scaled system to rounding', () => {
    const m = 200;
    const truth = [3, -1e-3, 2e4, 0.25];
    const columns = [1, 1e3, 1e-4, 1].map((scale, j) => Float64Array.from({ length: m }, (_, i) => scale * Math.cos((j + 1) * i * 0.37 + j)));
    const b = Float64Array.from({ length: m }, (_, i) => columns.reduce((sum, c, j) => sum + (c[i] as number) * (truth[j] as number), 0));
    const { x } = leastSquares(columns, b);
    truth.forEach((t, j) => expect(Math.abs((x[j] as number) - t) / Math.abs(t)).toBeLessThan(1e-9));
  });

  it('names a column the data do not determine (RANK_DEFICIENT), which a ridge then fixes', () => {
    const a = Float64Array.of(1, 2, 3);
    const columns = [a, Float64Array.from(a, (v) => 2 * v)];
    expect(() => leastSquares(columns, Float64Array.of(1, 1, 1))).toThrow(expect.objectContaining({ code: 'RANK_DEFICIENT' }));
    expect(Number.isFinite(leastSquares(columns, Float64Array.of(1, 1, 1), 1e-6).x[1])).toBe(true);
  });
});

describe.skipIf(!available)(`fitSnap ${available ? '' : '(skipped: no /usr/share/lammps/potentials; apt-get install lammps-data)'}`, () => {
  const CASES: [string, () => SNAP, () => System[]][] = [
    ['linear SNAP, Mo', () => SNAP.fromLammps(file('Mo_Zuo_JPCA2020.snap')), () => [sheared(mo(1)), { ...mo(2), pbc: [true, true, false] }]],
    ['quadratic SNAP, Mo', () => SNAP.fromLammps(file('Mo_Zuo_JPCA2020.quadratic.snap')), () => [sheared(mo(3, 1))]],
    ['two elements, WBe', () => SNAP.fromLammps(file('WBe_Wood_PRB2019.snap')), () => {
      const w = rattle(repeat(bulk('W', 'bcc', { a: 3.17, cubic: true }), [2, 2, 2]), 0.1, 4);
      return [sheared({ ...w, atomicNumbers: (w.atomicNumbers as number[]).map((z, i) => (i % 3 === 0 ? 4 : z)) })];
    }],
    ['chemflag, bnormflag, wselfallflag, InP', () => SNAP.fromLammps(file('InP_JCPA2020.snap')), () => [sheared(rattle(repeat(zincblende('In', 'P', 5.87), [1, 1, 1]), 0.1, 5))]],
  ];

  it.each(CASES)('%s: the descriptor rows times its coefficients are its own energies, forces and stresses', (_, make, systems) => {
    // The SNAP part alone: a ZBL core (WBe, InP) is no part of the descriptor.
    const shipped = make();
    const model = new SNAP({ coefficients: shipped.coefficients, parameters: shipped.parameters });
    const structures = systems();
    const elements = Object.fromEntries(Object.entries(model.coefficients).map(([name, b]) => [name, { radius: b.radius, weight: b.weight }]));
    const rows = snapDescriptorRows(structures, model.parameters, elements, { forces: true, stress: true });
    const coefficients = Object.values(model.coefficients).flatMap((b) => b.coefficients);
    expect(rows.energy.length).toBe(coefficients.length);
    const combine = (columns: readonly Float64Array[]): Float64Array => {
      const out = new Float64Array((columns[0] as Float64Array).length);
      columns.forEach((column, j) => column.forEach((v, i) => (out[i] += v * (coefficients[j] as number))));
      return out;
    };
    const batch = Batch.fromSystems(structures);
    model.compute(batch, { stress: true });
    expect(relative(combine(rows.energy), batch.read('energy'))).toBeLessThan(1e-12);
    expect(relative(combine(rows.forces), batch.read('forces'))).toBeLessThan(1e-10);
    expect(relative(combine(rows.stress), batch.read('stress'))).toBeLessThan(1e-10);
  });

  it('recovers the coefficients of the shipped linear Mo SNAP from its own noise-free energies, forces and stresses', () => {
    const shipped = SNAP.fromLammps(file('Mo_Zuo_JPCA2020.snap'));
    const train = labelled(shipped, [mo(11), sheared(mo(12)), mo(13, 2, 3.05), mo(14, 2, 3.3)]);
    const fitted = fitSnap({ train, parameters: file('Mo_Zuo_JPCA2020.snapparam'), elements: { Mo: { radius: 0.5, weight: 1 } }, weights: { energy: 10, forces: 1, stress: 100 } });
    expect(relative(fitted.coefficients.Mo?.coefficients as number[], shipped.coefficients.Mo?.coefficients as number[])).toBeLessThan(1e-6);
  });

  it('recovers a quadratic, two-element SNAP (2J = 2, parameters as data) from its noise-free labels', () => {
    const parameters = { rcutfac: 2.3, twojmax: 2, quadraticflag: 1, bzeroflag: 0 } as const;
    // 1 + 5 + 15 coefficients per element: smooth made-up values.
    const block = (shift: number): number[] => Array.from({ length: 21 }, (_, k) => (k === 0 ? -3 - shift : Math.sin(1.3 * k + shift) / (k + 1)));
    const truth = new SNAP({ coefficients: { Mo: { radius: 1, weight: 1, coefficients: block(0) }, Nb: { radius: 1.05, weight: 0.8, coefficients: block(1) } }, parameters });
    const mixed = (seed: number, a: number): System => {
      const s = mo(seed, 2, a);
      return { ...s, atomicNumbers: (s.atomicNumbers as number[]).map((z, i) => (i % 2 === 0 ? 41 : z)) };
    };
    const train = labelled(truth, [mixed(21, 3.2), sheared(mixed(22, 3.1)), mixed(23, 3.3), sheared(mo(24)), mixed(25, 3.0)]);
    const fitted = fitSnap({ train, parameters, elements: { Mo: { radius: 1, weight: 1 }, Nb: { radius: 1.05, weight: 0.8 } }, weights: { energy: 1, forces: 1 } });
    for (const element of ['Mo', 'Nb']) {
      expect(relative(fitted.coefficients[element]?.coefficients as number[], truth.coefficients[element]?.coefficients as number[])).toBeLessThan(1e-6);
    }
  });

  it('a fit on a quarter of the mlearn Mo training set is about as good on the Mo test set as the shipped coefficients', async () => {
    const train = readMlearn(join(MO, 'training.json')).filter((_, k) => k % 4 === 0);
    const test = readMlearn(join(MO, 'test.json'));
    const fitted = fitSnap({
      train,
      parameters: file('Mo_Zuo_JPCA2020.snapparam'),
      elements: { Mo: { radius: 0.5, weight: 1 } },
      weights: { energy: 300, forces: 1, groups: { Elastic: 10 } },
    });
    const ours = await modelErrors(fitted, test);
    const theirs = await modelErrors(SNAP.fromLammps(file('Mo_Zuo_JPCA2020.snap')), test);
    expect(ours.energyMae).toBeLessThan(1.5 * theirs.energyMae);
    expect(ours.forcesMae).toBeLessThan(1.25 * theirs.forcesMae);
  }, 180_000);

  describe('bad input is a typed error before any work', () => {
    const good = (): Parameters<typeof fitSnap>[0] => ({
      train: labelled(SNAP.fromLammps(file('Mo_Zuo_JPCA2020.snap')), [mo(31, 1)]),
      parameters: file('Mo_Zuo_JPCA2020.snapparam'),
      elements: { Mo: { radius: 0.5, weight: 1 } },
      weights: { energy: 1, forces: 1 },
    });
    const expectError = (options: Parameters<typeof fitSnap>[0], code: string, text: RegExp): void => {
      expect(() => fitSnap(options)).toThrow(expect.objectContaining({ code, message: expect.stringMatching(text) }));
    };
    it('a structure without the forces (or energy, stress) its weight asks for', () => {
      const o = good();
      const { forces: _f, ...unforced } = o.train[0] as System;
      expectError({ ...o, train: [unforced] }, 'MISSING_LABEL', /train\[0\] has no forces, but weights.forces is set/);
      expectError({ ...o, weights: { stress: 1 }, train: [{ ...(o.train[0] as System), stress: undefined }] }, 'MISSING_LABEL', /no stress/);
    });
    it('NaN labels', () => {
      const o = good();
      const s = o.train[0] as System;
      expectError({ ...o, train: [{ ...s, energy: Number.NaN }] }, 'INVALID_LABEL', /train\[0\]\.energy is NaN/);
      expectError({ ...o, train: [{ ...s, forces: (s.forces as number[][]).map((f, i) => (i === 1 ? [0, Number.NaN, 0] : f)) }] }, 'INVALID_LABEL', /train\[0\]\.forces\[4\]/);
    });
    it('an element the descriptor lacks', () => {
      const o = good();
      const s = o.train[0] as System;
      expectError({ ...o, train: [{ ...s, symbols: ['Mo', 'Nb'], atomicNumbers: undefined }] }, 'MISSING_SPECIES', /train\[0\] has Nb, which elements does not give \(Mo\)/);
    });
    it('weights and ridge that are not finite numbers > 0, and unknown keys', () => {
      const o = good();
      expectError({ ...o, weights: { energy: 0, forces: 1 } }, 'INVALID_OPTIONS', /weights.energy must be a finite number > 0, got 0/);
      expectError({ ...o, weights: { energy: 1, forces: Number.NaN } }, 'INVALID_OPTIONS', /weights.forces/);
      expectError({ ...o, weights: { energy: 1, groups: { Elastic: -1 } } }, 'INVALID_OPTIONS', /weights.groups.Elastic/);
      expectError({ ...o, weights: {} }, 'INVALID_OPTIONS', /at least one of energy, forces, stress/);
      expectError({ ...o, ridge: -1e-3 }, 'INVALID_OPTIONS', /ridge must be a finite number > 0/);
      expectError({ ...o, ridge: Number.NaN }, 'INVALID_OPTIONS', /ridge/);
      expectError({ ...o, parameters: { rcutfac: 4.6, twojmax: 6, quadratic: 1 } as never }, 'UNKNOWN_OPTION', /quadratic/);
    });
  });
});
