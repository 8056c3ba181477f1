// SNAP.save and MLIAP.save: the files they write reload (fromLammps of the include file) into a model that
// gives the same bits on every shipped kind (linear, quadratic, two elements with chemflag, a ZBL core, an
// nn network), leave no temporary file behind, and a bad prefix or an unwritable folder is a typed error.
// That LAMMPS runs them as hookmd does is test/models/lammps-save-reference.test.ts's.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, repeat } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { MLIAP, SNAP } from '../../lib/models/index.js';
import { LAMMPS_POTENTIALS } from '../helpers/lammps.js';
import { zincblende } from '../helpers/lammps-compare.js';

const file = (name: string): string => join(LAMMPS_POTENTIALS, name);
const available = existsSync(file('Mo_Zuo_JPCA2020.snap'));
const scratch = mkdtempSync(join(tmpdir(), 'hookmd-save-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const crystal = (symbol: string, a: number, seed: number): System => {
  const shear = (x: number[]): number[] => [x[0] + 0.05 * x[1] - 0.03 * x[2], x[1] + 0.04 * x[2], x[2]];
  const s = rattle(repeat(bulk(symbol, 'bcc', { a, cubic: true }), [2, 2, 2]), 0.1, seed);
  return { ...s, cell: (s.cell as number[][]).map(shear), positions: (s.positions as number[][]).map(shear) };
};

const CASES: [string, () => SNAP | MLIAP, () => System][] = [
  ['linear SNAP, Mo', () => SNAP.fromLammps(file('Mo_Zuo_JPCA2020.snap')), () => crystal('Mo', 3.16, 1)],
  ['quadratic SNAP, Mo', () => SNAP.fromLammps(file('Mo_Zuo_JPCA2020.quadratic.snap')), () => crystal('Mo', 3.16, 2)],
  ['SNAP with a ZBL core, W', () => SNAP.fromLammps(file('W_2940_2017_2.snap')), () => crystal('W', 2.9, 3)],
  ['chemflag SNAP with ZBL, InP', () => SNAP.fromLammps(file('InP_JCPA2020.snap')), () => rattle(repeat(zincblende('In', 'P', 5.87), [1, 1, 1]), 0.1, 4)],
  ['linear ML-IAP with ZBL, Ta', () => MLIAP.fromLammps(file('Ta06A.mliap')), () => crystal('Ta', 3.31, 5)],
  ['quadratic ML-IAP with ZBL, W', () => MLIAP.fromLammps(file('W.quadratic.mliap')), () => crystal('W', 3.17, 6)],
  ['nn ML-IAP with ZBL, Ta', () => MLIAP.fromLammps(file('Ta06A.nn.mliap')), () => crystal('Ta', 3.31, 7)],
  ['nn ML-IAP on the so3 descriptor, Si', () => new MLIAP({ model: file('Si.nn.mliap.model'), descriptor: file('Si.nn.mliap.descriptor') }), () => rattle(bulk('Si', 'diamond', { a: 5.43, cubic: true }), 0.1, 9)],
  ['linear ML-IAP on the so3 descriptor, NiMo', () => new MLIAP({ model: file('Ni_Mo.mliap.model'), descriptor: file('Ni_Mo.mliap.descriptor') }), () => ({ ...crystal('Mo', 3.16, 10), symbols: undefined, atomicNumbers: Array.from({ length: 16 }, (_, i) => (i % 3 === 0 ? 28 : 42)) })],
  ['nn ML-IAP, Cu (tanh layers)', () => new MLIAP({ model: file('Cu.nn.mliap.model'), descriptor: file('Cu.snap.mliap.descriptor') }), () => rattle(repeat(bulk('Cu', 'fcc', { a: 3.62, cubic: true }), [2, 2, 2]), 0.1, 8)],
];

function results(model: SNAP | MLIAP, system: System): Float64Array[] {
  const batch = Batch.fromSystems([system]);
  model.compute(batch, { stress: true });
  return [Float64Array.from(batch.read('energy')), Float64Array.from(batch.read('forces')), Float64Array.from(batch.read('stress'))];
}

describe.skipIf(!available)(`save ${available ? '' : '(skipped: no /usr/share/lammps/potentials; apt-get install lammps-data)'}`, () => {
  it.each(CASES)('%s: save, then fromLammps of the include file, gives the same energy, forces and stress bit for bit', (name, make, system) => {
    const model = make();
    const folder = join(scratch, name.replace(/[^A-Za-z]+/g, '-'));
    const prefix = join(folder, 'saved');
    const paths = model.save(prefix);
    const reloaded = model instanceof SNAP ? SNAP.fromLammps(paths.include) : MLIAP.fromLammps(paths.include);
    expect(reloaded.describe()).toMatchObject({ elements: model.describe().elements });
    expect(results(reloaded, system())).toEqual(results(model, system()));
    expect(readdirSync(folder).sort()).toEqual(Object.values(paths).map((p) => p.slice(folder.length + 1)).sort());
  });

  it('a fitted model as data saves and reloads too, and the files name each other by their folder-relative names', () => {
    const shipped = SNAP.fromLammps(file('Mo_Zuo_JPCA2020.snap'));
    const inMemory = new SNAP({ coefficients: shipped.coefficients, parameters: { ...shipped.parameters } });
    const paths = inMemory.save(join(scratch, 'memory', 'Mo'));
    expect(results(SNAP.fromLammps(paths.include), crystal('Mo', 3.2, 9))).toEqual(results(shipped, crystal('Mo', 3.2, 9)));
  });

  it('coefficients and parameters as data are checked as the files are', () => {
    const shipped = SNAP.fromLammps(file('Mo_Zuo_JPCA2020.snap'));
    const block = shipped.coefficients.Mo as { radius: number; weight: number; coefficients: readonly number[] };
    const make = (coefficients: unknown, parameters: unknown = shipped.parameters) => () => new SNAP({ coefficients, parameters } as never);
    expect(make({ Mo: { ...block, coefficients: block.coefficients.slice(1) } })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/coefficients.Mo.coefficients must be 31 finite numbers/) }));
    expect(make({ Mo: { ...block, radius: 0 } })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/radius/) }));
    expect(make({ Mo: block }, { rcutfac: 4.6 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/missing twojmax/) }));
    expect(make({ Mo: block }, { rcutfac: 4.6, twojmax: 6, switchflag: 2 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/switchflag must be true, false, 0 or 1/) }));
    expect(make({ Mo: block }, { rcutfac: 4.6, twojmax: 6, bzero: 0 })).toThrow(expect.objectContaining({ code: 'UNKNOWN_OPTION' }));
  });

  it('a bad prefix or a folder that cannot be made is a typed error', () => {
    const model = SNAP.fromLammps(file('Mo_Zuo_JPCA2020.snap'));
    expect(() => model.save('')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => model.save(`${scratch}/`)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    const blocker = join(scratch, 'not-a-folder');
    writeFileSync(blocker, '');
    expect(() => model.save(join(blocker, 'Mo'))).toThrow(expect.objectContaining({ code: 'WRITE_FAILED', message: expect.stringContaining('not-a-folder') }));
  });
});
