// extxyz interoperability with ASE 3.22, both ways: what hookmd writes, ase.io.read gets back exactly;
// what ase.io.write writes (calculator results, info, momenta, extra arrays), readExtxyz gets back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { System } from '../../lib/data/index.js';
import { ASE_FS, readExtxyz, writeExtxyz } from '../../lib/io/index.js';
import { asePython, aseSkipReason, runAse } from '../helpers/ase.js';

const dir = mkdtempSync(join(tmpdir(), 'hookmd-ase-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// What ASE sees in a file: every frame as plain JSON, velocities converted to Å/fs.
const DUMP = `
import json, sys
import numpy as np
from ase.io import read
from ase import units
args = json.load(sys.stdin)
def plain(o):
    if isinstance(o, np.ndarray): return o.tolist()
    if isinstance(o, np.generic): return o.item()
    raise TypeError(type(o))
out = []
for atoms in read(args['path'], index=':', format='extxyz'):
    calc = atoms.calc
    results = {} if calc is None else dict(calc.results)
    frame = {
        'symbols': atoms.get_chemical_symbols(),
        'positions': atoms.positions.tolist(),
        'cell': atoms.cell.array.tolist(),
        'pbc': [bool(p) for p in atoms.pbc],
        'masses': atoms.get_masses().tolist(),
        'velocities': (atoms.get_velocities() * units.fs).tolist(),
        # ASE also leaves the energy and stress it took as results in info; hookmd keeps them only as fields.
        'info': {k: v for k, v in atoms.info.items() if k not in ('energy', 'stress')},
        'arrays': {k: v for k, v in atoms.arrays.items() if k not in ('numbers', 'positions', 'momenta', 'masses')},
        'energy': results.get('energy'),
        'forces': results.get('forces'),
        'stress': results.get('stress'),
    }
    out.append(frame)
print(json.dumps(out, default=plain))
`;

interface AseFrame {
  symbols: string[];
  positions: number[][];
  cell: number[][];
  pbc: boolean[];
  masses: number[];
  velocities: number[][];
  info: Record<string, unknown>;
  arrays: Record<string, unknown>;
  energy: number | null;
  forces: number[][] | null;
  stress: number[] | null;
}

const voigt = (m: number[][]): number[] => [m[0][0], m[1][1], m[2][2], m[1][2], m[0][2], m[0][1]];

function expectClose(actual: number[][], expected: number[][], relative: number, absolute = 0): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((row, i) => row.forEach((v, c) => expect(Math.abs(v - expected[i][c])).toBeLessThanOrEqual(relative * Math.abs(expected[i][c]) + absolute)));
}

const water: System = {
  symbols: ['O', 'H', 'H'],
  positions: [[0.1, 0.2, 0.30000000000000004], [0.9572, 0.0, 0.0], [-0.2399872, 0.92662721, 1e-7]],
  cell: [[5.1, 0.0, 0.0], [0.3, 6.2, 0.0], [0.5, -0.25, 7.3]],
  pbc: [true, true, false],
  masses: [15.999, 2.014, 1.008],
  velocities: [[0.001, -0.002, 0.0003], [0.01, 0.02, -0.03], [0, 0, 0.0123456789]],
  energy: -14.223456789012,
  forces: [[0.1, -0.2, 0.3], [-0.05, 0.15, -0.25], [-0.05, 0.05, -0.05]],
  stress: [[0.01, 0.002, 0.003], [0.002, -0.02, 0.004], [0.003, 0.004, 0.03]],
  info: {
    name: 'water "x" y',
    plain: 'simple',
    n: 3,
    big: 123456789012,
    f: 1.25,
    tiny: 1.5e-12,
    flag: true,
    off: false,
    arr: [1.5, 2, 3.25],
    ints: [4, 5, 6],
    bools: [true, false, true],
    numeric: '42',
    truth: 'T',
    empty: '',
    windows: 'C:\\data\\run 1',
    lines: 'first\nsecond',
    nested: { a: [1, 2], b: 'c' },
  },
};
const cluster: System = { symbols: ['Ar', 'Ar', 'Kr'], positions: [[0, 0, 0], [3.8, 0, 0], [0, 3.9, 0.1]] };
const tagged: System = {
  symbols: ['Cu', 'Cu'],
  positions: [[0, 0, 0], [1.805, 1.805, 0]],
  cell: [3.61, 3.61, 3.61],
  pbc: true,
  energy: -7.5,
  info: { arrays: { tags: [1, 2], charge: [0.25, -0.25] } },
};

describe.skipIf(asePython === undefined)(`extxyz and ASE 3.22 ${aseSkipReason}`, () => {
  it('ase.io.read gets back exactly what writeExtxyz wrote', async () => {
    const path = join(dir, 'hookmd.xyz');
    await writeExtxyz(path, [water, cluster, tagged]);
    const [a, b, c] = runAse<AseFrame[]>(DUMP, { path });

    expect(a.symbols).toEqual(['O', 'H', 'H']);
    expect(a.positions).toEqual(water.positions);
    expect(a.cell).toEqual(water.cell);
    expect(a.pbc).toEqual([true, true, false]);
    expect(a.masses).toEqual(water.masses);
    // momenta = m·v / ASE_FS, then ASE's v = momenta / m · fs: a few ulps of rounding.
    expectClose(a.velocities, water.velocities as number[][], 1e-14);
    expect(a.energy).toBe(water.energy);
    expect(a.forces).toEqual(water.forces);
    expect(a.stress).toEqual(voigt(water.stress as number[][]));
    expect(a.info).toEqual(water.info);

    expect(b.symbols).toEqual(['Ar', 'Ar', 'Kr']);
    expect(b.positions).toEqual(cluster.positions);
    expect(b.cell).toEqual([[0, 0, 0], [0, 0, 0], [0, 0, 0]]);
    expect(b.pbc).toEqual([false, false, false]);
    expect(b.velocities).toEqual([[0, 0, 0], [0, 0, 0], [0, 0, 0]]);
    expect(b.energy).toBeNull();
    expect(b.info).toEqual({});

    expect(c.cell).toEqual([[3.61, 0, 0], [0, 3.61, 0], [0, 0, 3.61]]);
    expect(c.pbc).toEqual([true, true, true]);
    expect(c.masses).toEqual([63.546, 63.546]);
    expect(c.energy).toBe(-7.5);
    // ASE names the extxyz `charge` column initial_charges.
    expect(c.arrays).toEqual({ tags: [1, 2], initial_charges: [0.25, -0.25] });
  });

  it('readExtxyz gets back exactly what ase.io.write wrote, as ASE reads it', () => {
    const path = join(dir, 'ase.xyz');
    runAse<null>(
      `
import json, sys
import numpy as np
from ase import Atoms
from ase.build import bulk
from ase.io import write
from ase.calculators.singlepoint import SinglePointCalculator
args = json.load(sys.stdin)
a = Atoms('CO2', positions=[[0.0, 0.0, 0.0], [1.16, 0.0, 0.0], [-1.16, 0.01, 0.0]], cell=[[6, 0, 0], [0.5, 7, 0], [0, 0.25, 8]], pbc=[True, False, True])
a.set_masses([12.0, 16.5, 15.9])
a.set_velocities([[0.01, 0.0, -0.02], [0.003, 0.004, 0.005], [-0.1, 0.2, 0.0]])
a.info.update({'label': 'carbon dioxide "linear"', 'count': 7, 'temperature': 300.5, 'ok': True, 'bad': False,
               'vec': np.array([1.0, 2.5, -3.0]), 'ivec': np.array([1, 2, 3]), 'items': [1, 2], 'meta': {'source': 'dft', 'k': [4, 4, 4]}})
a.new_array('tags_custom', np.array([3, 1, 2]))
a.calc = SinglePointCalculator(a, energy=-22.987654321, forces=[[0.1, 0.2, 0.3], [-0.4, 0.5, -0.6], [0.3, -0.7, 0.3]],
                               stress=np.array([0.011, -0.022, 0.033, 0.0044, -0.0055, 0.0066]))
b = bulk('Si', 'diamond', a=5.43)
b.calc = SinglePointCalculator(b, energy=-10.8)
c = Atoms('He', positions=[[1, 2, 3]])
write(args['path'], [a, b, c], format='extxyz')
print('null')
`,
      { path },
    );
    const ase = runAse<AseFrame[]>(DUMP, { path });
    const ours = readExtxyz(path);
    expect(ours).toHaveLength(3);
    ours.forEach((system, k) => {
      const frame = ase[k];
      expect(system.symbols).toEqual(frame.symbols);
      expect(system.positions).toEqual(frame.positions);
      expect(system.pbc).toEqual(frame.pbc);
      if (system.cell !== undefined) expect(system.cell).toEqual(frame.cell);
      else expect(frame.cell).toEqual([[0, 0, 0], [0, 0, 0], [0, 0, 0]]);
      expect(system.energy ?? null).toBe(frame.energy);
      expect(system.forces ?? null).toEqual(frame.forces);
      expect(system.stress === undefined ? null : voigt(system.stress as number[][])).toEqual(frame.stress);
    });
    const [co2, si, he] = ours;
    expect(co2.masses).toEqual(ase[0].masses);
    expect(co2.velocities).toEqual(ase[0].velocities);
    // ASE wrote the momenta with 8 decimals; the conversion to Å/fs is ASE's own.
    expectClose(co2.velocities as number[][], [[0.01, 0.0, -0.02], [0.003, 0.004, 0.005], [-0.1, 0.2, 0.0]].map((v) => v.map((x) => x * ASE_FS)), 0, 1e-9);
    const { arrays, ...info } = co2.info as Record<string, unknown>;
    expect(info).toEqual(ase[0].info);
    expect(info.label).toBe('carbon dioxide "linear"');
    expect(info.meta).toEqual({ source: 'dft', k: [4, 4, 4] });
    expect(arrays).toEqual({ tags_custom: [3, 1, 2] });
    expect(si.energy).toBe(-10.8);
    expect(si.velocities).toBeUndefined();
    expect(he.pbc).toEqual([false, false, false]);
    expect(he.cell).toBeUndefined();
  });
});
