// surface() and molecule() against ase.build (ASE 3.22): positions, cells, pbc and atom order within 1e-10.
import { describe, expect, it } from 'vitest';

import { molecule, MOLECULES, surface } from '../../lib/data/index.js';
import type { SurfaceKind, System } from '../../lib/data/index.js';
import { aseSkipReason, runAse } from '../helpers/ase.js';

interface Reference {
  symbols: string[];
  positions: number[][];
  cell: number[][];
  pbc: boolean[];
  tags: number[];
}

const SLABS: { symbol: string; kind: SurfaceKind; size: [number, number, number]; vacuum?: number; a?: number; orthogonal?: boolean }[] = [
  { symbol: 'Cu', kind: 'fcc111', size: [2, 2, 3], vacuum: 10 },
  { symbol: 'Pt', kind: 'fcc111', size: [3, 4, 5], vacuum: 7.5, a: 3.97, orthogonal: true },
  { symbol: 'Al', kind: 'fcc100', size: [2, 3, 4], vacuum: 6 },
  { symbol: 'Ni', kind: 'fcc110', size: [2, 2, 5] },
  { symbol: 'Fe', kind: 'bcc100', size: [3, 2, 4], vacuum: 8 },
  { symbol: 'W', kind: 'bcc110', size: [2, 3, 3], vacuum: 9 },
  { symbol: 'Mo', kind: 'bcc110', size: [2, 4, 4], vacuum: 9, orthogonal: true },
];

const SCRIPT = `
import json, sys
from ase.build import fcc100, fcc110, fcc111, bcc100, bcc110, molecule
d = json.load(sys.stdin)
build = {'fcc100': fcc100, 'fcc110': fcc110, 'fcc111': fcc111, 'bcc100': bcc100, 'bcc110': bcc110}
out = {'slabs': [], 'molecules': []}
for s in d['slabs']:
    kw = {} if s.get('orthogonal') is None else {'orthogonal': s['orthogonal']}
    a = build[s['kind']](s['symbol'], tuple(s['size']), a=s.get('a'), vacuum=s.get('vacuum'), **kw)
    out['slabs'].append({'symbols': a.get_chemical_symbols(), 'positions': a.positions.tolist(), 'cell': a.cell.tolist(), 'pbc': a.pbc.tolist(), 'tags': a.get_tags().tolist()})
for name, vacuum in d['molecules']:
    a = molecule(name, vacuum=vacuum)
    out['molecules'].append({'symbols': a.get_chemical_symbols(), 'positions': a.positions.tolist(), 'cell': a.cell.tolist(), 'pbc': a.pbc.tolist(), 'tags': []})
print(json.dumps(out))
`;

function matches(system: System, reference: Reference, what: string): void {
  expect(system.symbols, what).toEqual(reference.symbols);
  const positions = system.positions as number[][];
  expect(positions).toHaveLength(reference.positions.length);
  positions.forEach((p, i) => p.forEach((x, c) => expect(Math.abs(x - reference.positions[i][c]), `${what} atom ${i}`).toBeLessThan(1e-10)));
  const cell = (system.cell as number[][] | undefined) ?? [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  cell.forEach((row, r) => row.forEach((x, c) => expect(Math.abs(x - reference.cell[r][c]), `${what} cell`).toBeLessThan(1e-10)));
  const pbc = typeof system.pbc === 'boolean' ? [system.pbc, system.pbc, system.pbc] : Array.from(system.pbc as boolean[]);
  expect(pbc, `${what} pbc`).toEqual(reference.pbc);
}

const MOLECULE_CASES: [string, number | null][] = [...MOLECULES.map((name): [string, null] => [name, null]), ['H2O', 5], ['CH4', 7.5]];

describe.skipIf(aseSkipReason !== '')(`builders vs ase.build ${aseSkipReason}`, () => {
  const reference = aseSkipReason === '' ? runAse<{ slabs: Reference[]; molecules: Reference[] }>(SCRIPT, { slabs: SLABS, molecules: MOLECULE_CASES }) : { slabs: [], molecules: [] };

  it.each(SLABS.map((slab, k) => ({ ...slab, k })))('surface($symbol, $kind, size $size, vacuum $vacuum, orthogonal $orthogonal) equals ASE’s', ({ k, symbol, kind, size, vacuum, a, orthogonal }) => {
    const slab = surface(symbol, kind, { size, vacuum, a, orthogonal });
    matches(slab, reference.slabs[k], `${kind}`);
    expect((slab.info?.arrays as { tags: number[] }).tags).toEqual(reference.slabs[k].tags);
  });

  it.each(MOLECULE_CASES.map(([name, vacuum], k) => ({ name, vacuum, k })))('molecule($name, vacuum $vacuum) equals ASE’s', ({ name, vacuum, k }) => {
    matches(molecule(name, vacuum === null ? {} : { vacuum }), reference.molecules[k], name);
  });
});

describe('builders reject bad input with typed errors', () => {
  it.each([
    { call: () => surface('Cu', 'fcc211' as SurfaceKind, { size: [1, 1, 3] }), code: 'UNKNOWN_STRUCTURE' },
    { call: () => surface('Cu', 'fcc111', { size: [1, 1, 0] }), code: 'INVALID_SIZE' },
    { call: () => surface('Cu', 'fcc111', { size: [2, 3, 3], orthogonal: true }), code: 'INVALID_SIZE' },
    { call: () => surface('Cu', 'bcc100', { size: [1, 1, 3] }), code: 'MISSING_LATTICE' },
    { call: () => surface('Cu', 'fcc100', { size: [1, 1, 3], vacuum: -1 }), code: 'INVALID_VACUUM' },
    { call: () => surface('Cu', 'fcc100', { size: [1, 1, 3], a: 0 }), code: 'INVALID_LATTICE' },
    { call: () => surface('Xx', 'fcc100', { size: [1, 1, 3] }), code: 'UNKNOWN_ELEMENT' },
    { call: () => molecule('C60'), code: 'UNKNOWN_MOLECULE' },
    { call: () => molecule('H2O', { vacuum: Number.NaN }), code: 'INVALID_VACUUM' },
  ])('$code', ({ call, code }) => {
    expect(call).toThrow(expect.objectContaining({ code }));
  });
});
