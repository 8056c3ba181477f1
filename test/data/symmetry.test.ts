// symmetry(): the space group, Wyckoff letters, orbits and standardised/primitive cells moyo finds, against
// spglib's (Debian's python3-spglib, the library ASE's FixSymmetry uses) on the same structures.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

import { atomicNumber, bulk, rattle, repeat, symmetry, type System } from '../../lib/data/index.js';
import { isHookmdError } from '../../lib/errors.js';
import { asePython, aseSkipReason, runAse } from '../helpers/ase.js';

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
`, { cell: system.cell, positions: system.positions, numbers: Array.from(system.symbols ?? [], (symbol) => atomicNumber(symbol)), symprec });
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
