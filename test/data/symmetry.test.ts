// symmetry(): the space group, Wyckoff letters, orbits and standardised/primitive cells moyo finds, against
// spglib's (Debian's python3-spglib, the library ASE's FixSymmetry uses) on the same structures.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

import { atomicNumber, bulk, rattle, refineSymmetry, repeat, symmetry, type System } from '../../lib/data/index.js';
import { isHookmdError } from '../../lib/errors.js';
import { asePython, aseSkipReason, runAse } from '../helpers/ase.js';

/** The atomic numbers of a system given by symbols or by numbers (repeat() keeps atomicNumbers). */
const numbersOf = (system: System): number[] => Array.from(system.atomicNumbers ?? Array.from(system.symbols ?? [], (symbol) => atomicNumber(symbol)));

const spglibSkipReason = aseSkipReason !== '' ? aseSkipReason
  : spawnSync(asePython as string, ['-c', 'import spglib'], { stdio: 'ignore' }).status === 0 ? '' : 'skipped: no spglib for Python (apt-get install python3-spglib)';

interface SpglibData { number: number; international: string; wyckoffs: string[]; equivalent_atoms: number[]; std_atoms: number; std_volume: number; prim_atoms: number; operations: number }

function spglib(system: System, symprec: number): SpglibData {
  return runAse<SpglibData>(`
import json, sys
import numpy as np
import spglib
case = json.load(sys.stdin)
cell = np.array(case['cell']); positions = np.array(case['positions'])
cell_tuple = (cell, positions @ np.linalg.inv(cell), case['numbers'])
d = spglib.get_symmetry_dataset(cell_tuple, symprec=case['symprec'])
prim = spglib.find_primitive(cell_tuple, symprec=case['symprec'])
print(json.dumps({'number': int(d['number']), 'international': d['international'], 'wyckoffs': list(d['wyckoffs']),
  'equivalent_atoms': [int(i) for i in d['equivalent_atoms']], 'std_atoms': len(d['std_types']),
  'std_volume': abs(float(np.linalg.det(d['std_lattice']))), 'prim_atoms': len(prim[2]), 'operations': len(d['rotations'])}))
`, { cell: system.cell, positions: system.positions, numbers: numbersOf(system), symprec });
}

const volume = (cell: number[][]): number => Math.abs(
  cell[0][0] * (cell[1][1] * cell[2][2] - cell[1][2] * cell[2][1]) - cell[0][1] * (cell[1][0] * cell[2][2] - cell[1][2] * cell[2][0]) + cell[0][2] * (cell[1][0] * cell[2][1] - cell[1][1] * cell[2][0]),
);

// A rattled supercell (symprec above the rattle), a hexagonal crystal, two compounds, and a sheared cell of low symmetry.
// The last entry names Wyckoff sets that the group's Euclidean normaliser maps onto each other: an origin
// choice, on which moyo and spglib may differ (hcp's 2c and 2d in P6_3/mmc describe the same crystal).
const structures: ReadonlyArray<[string, System, number, Record<string, string>?]> = [
  ['rattled fcc Cu supercell', rattle(repeat(bulk('Cu', 'fcc', { a: 3.6, cubic: true }), [2, 2, 2]), 0.002, 3), 0.01],
  ['hcp Mg', bulk('Mg', 'hcp', { a: 3.21, c: 5.21 }), 1e-5, { c: 'd' }],
  ['rocksalt NaCl', bulk('NaCl', 'rocksalt', { a: 5.64, cubic: true }), 1e-5],
  ['wurtzite ZnO', bulk('ZnO', 'wurtzite', { a: 3.25, c: 5.2 }), 1e-5],
  ['sheared bcc Fe with a displaced atom', { symbols: ['Fe', 'Fe'], positions: [[0, 0, 0], [1.5, 1.45, 1.4]], cell: [[2.9, 0, 0], [0.3, 2.8, 0], [0, 0, 2.95]], pbc: true }, 1e-5],
];

describe.skipIf(spglibSkipReason !== '')(`symmetry() against spglib ${spglibSkipReason}`, () => {
  it.each(structures)('%s: the space group, Wyckoff letters, orbits and the standardised and primitive cells', (_, system, symprec, sameSet = {}) => {
    const ours = symmetry(system, { symprec });
    const theirs = spglib(system, symprec);
    expect(ours.number).toBe(theirs.number);
    expect(ours.international).toBe(theirs.international);
    expect(ours.wyckoffs.map((letter) => sameSet[letter] ?? letter)).toEqual(theirs.wyckoffs.map((letter) => sameSet[letter] ?? letter));
    expect(ours.equivalentAtoms).toEqual(theirs.equivalent_atoms);
    expect(ours.operations.length).toBe(theirs.operations);
    expect(ours.standardized.positions.length).toBe(theirs.std_atoms);
    expect(Math.abs(volume(ours.standardized.cell as number[][]) / theirs.std_volume - 1)).toBeLessThan(1e-6);
    expect(ours.primitive.positions.length).toBe(theirs.prim_atoms);
  });
});

describe('symmetry() operations', () => {
  it.each(structures)('%s: each operation takes the crystal onto itself (W·s + t is an atom of the same species)', (_, system, symprec) => {
    const data = symmetry(system, { symprec });
    const cell = system.cell as number[][];
    const det = volume(cell);
    // Fractional coordinates by Cramer's rule (s·C = x).
    const fractional = (system.positions as number[][]).map((x) => [0, 1, 2].map((k) => {
      const m = cell.map((row) => [...row]);
      m[k] = [...x];
      return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])) / det;
    }));
    const handed = Math.sign(cell[0][0] * (cell[1][1] * cell[2][2] - cell[1][2] * cell[2][1]) - cell[0][1] * (cell[1][0] * cell[2][2] - cell[1][2] * cell[2][0]) + cell[0][2] * (cell[1][0] * cell[2][1] - cell[1][1] * cell[2][0]));
    const symbols = numbersOf(system);
    for (const op of data.operations) {
      fractional.forEach((s, i) => {
        const image = [0, 1, 2].map((a) => op.rotation[3 * a] * s[0] + op.rotation[3 * a + 1] * s[1] + op.rotation[3 * a + 2] * s[2] + op.translation[a]);
        const nearest = Math.min(...fractional.map((sj, j) => (symbols[j] !== symbols[i] ? Infinity : Math.hypot(...[0, 1, 2].map((a) => {
          const d = sj[a] - image[a];
          return d - Math.round(d);
        })))));
        expect(nearest * Math.cbrt(det) * handed).toBeLessThan(3 * symprec);
      });
    }
  });
});

describe('refineSymmetry()', () => {
  const rattled: ReadonlyArray<[string, System]> = [
    ['bcc Fe supercell', rattle(repeat(bulk('Fe', 'bcc', { a: 2.87, cubic: true }), [2, 1, 1]), 0.0015, 1)],
    ['hcp Mg', rattle(bulk('Mg', 'hcp', { a: 3.21, c: 5.21 }), 0.0015, 2)],
    ['wurtzite ZnO (a free z parameter)', rattle(bulk('ZnO', 'wurtzite', { a: 3.25, c: 5.2 }), 0.0015, 3)],
    ['rocksalt NaCl', rattle(bulk('NaCl', 'rocksalt', { a: 5.64, cubic: true }), 0.0015, 4)],
  ];
  it.each(rattled)('%s within 0.01 Å becomes exactly symmetric (its group found at symprec 1e-9)', (_, system) => {
    const group = symmetry(system, { symprec: 0.01 }).number;
    expect(symmetry(system, { symprec: 1e-4 }).number).not.toBe(group);
    expect(symmetry(refineSymmetry(system, { symprec: 0.01 }), { symprec: 1e-9 }).number).toBe(group);
  });

  // Atoms on special positions only: a free parameter (wurtzite's z) is left by either refinement at an
  // average of the distorted values, and the two average differently (by up to the distortion).
  it.skipIf(spglibSkipReason !== '').each(rattled.filter(([name]) => !name.includes('free')))(`%s: the fractional positions ASE's refine_symmetry gives ${spglibSkipReason}`, (_, system) => {
    const ours = refineSymmetry(system, { symprec: 0.01 });
    const ase = runAse<number[]>(`
import json, sys
import numpy as np
from ase import Atoms
from ase.spacegroup.symmetrize import refine_symmetry
case = json.load(sys.stdin)
atoms = Atoms(numbers=case['numbers'], positions=case['positions'], cell=case['cell'], pbc=True)
refine_symmetry(atoms, symprec=0.01)
print(json.dumps(atoms.get_scaled_positions(wrap=False).ravel().tolist()))
`, { numbers: numbersOf(system), positions: system.positions, cell: system.cell });
    const cell = ours.cell as number[][];
    const det = volume(cell);
    const fractional = (ours.positions as number[][]).flatMap((x) => [0, 1, 2].map((k) => {
      const m = cell.map((row) => [...row]);
      m[k] = [...x];
      return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])) / det;
    }));
    // Relative to atom 0 (an origin shift is the same crystal), modulo the lattice.
    const relative = (s: number[]): number[] => s.map((v, k) => {
      const d = v - s[k % 3];
      return d - Math.round(d);
    });
    const theirs = relative(ase);
    relative(fractional).forEach((v, k) => {
      const d = v - theirs[k];
      expect(Math.abs(d - Math.round(d))).toBeLessThan(1e-9);
    });
  });
});

describe('symmetry() bad input', () => {
  const code = (f: () => unknown): string | undefined => {
    try { f(); } catch (error) { return isHookmdError(error) ? error.code : 'untyped'; }
    return undefined;
  };
  it('refuses a cluster, a non-positive symprec and unknown options with typed errors', () => {
    expect(code(() => symmetry({ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, 3.8]] }))).toBe('NOT_PERIODIC');
    expect(code(() => symmetry(bulk('Cu', 'fcc'), { symprec: 0 }))).toBe('INVALID_PARAMETER');
    expect(code(() => symmetry(bulk('Cu', 'fcc'), { symprec: Number.NaN }))).toBe('INVALID_PARAMETER');
    expect(code(() => symmetry(bulk('Cu', 'fcc'), { tolerance: 0.1 } as never))).toBe('UNKNOWN_OPTION');
  });
  it('reports overlapping atoms moyo cannot analyse as SYMMETRY_FAILED', () => {
    expect(code(() => symmetry({ symbols: ['Cu', 'Cu'], positions: [[0, 0, 0], [0, 0, 0]], cell: [[3, 0, 0], [0, 3, 0], [0, 0, 3]], pbc: true }))).toBe('SYMMETRY_FAILED');
  });
});
