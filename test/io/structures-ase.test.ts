// readStructures against ASE 3.22: POSCAR (Direct, Cartesian, selective dynamics), CIF and LAMMPS data files
// written by ase.io.write for a bulk crystal, a slab and a triclinic cell read back as ase.io.read reads
// them; CIFs with symmetry expand to ASE's atoms; writePoscar and writeLammpsData files read back in ASE.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import type { System } from '../../lib/data/index.js';
import { readStructures, writeLammpsData, writePoscar } from '../../lib/io/index.js';
import { aseSkipReason, runAse } from '../helpers/ase.js';

const dir = mkdtempSync(join(tmpdir(), 'hookmd-structures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface AseAtoms {
  symbols: string[];
  positions: number[][];
  cell: number[][];
  fixed: boolean[];
}

/** Builds the three structures in ASE, writes each in every format, and reads every file back with ASE. */
const WRITE_AND_READ = `
import json, sys
import numpy as np
from ase import Atoms
from ase.build import bulk, fcc111
from ase.constraints import FixAtoms
from ase.io import read, write
d = json.load(sys.stdin)
rng = np.random.RandomState(7)
bulk_cu = bulk('Cu', 'fcc', a=3.61, cubic=True).repeat((2, 1, 1))
slab = fcc111('Al', size=(2, 2, 3), vacuum=6.0)
slab.set_constraint(FixAtoms(indices=[a.index for a in slab if a.tag == 3]))
cell = [[5.1, 0.2, -0.3], [1.4, 4.8, 0.25], [-0.7, 0.9, 6.2]]
tri = Atoms(symbols=['Al', 'Cu', 'O', 'Cu', 'Al'], scaled_positions=rng.rand(5, 3), cell=cell, pbc=True)
def dump(atoms):
    fixed = np.zeros(len(atoms), bool)
    for c in atoms.constraints:
        if isinstance(c, FixAtoms): fixed[c.index] = True
    return {'symbols': atoms.get_chemical_symbols(), 'positions': atoms.get_positions().tolist(),
            'cell': atoms.get_cell().tolist(), 'fixed': fixed.tolist()}
out = {}
for name, atoms in [('bulk', bulk_cu), ('slab', slab), ('tri', tri)]:
    species = sorted(set(atoms.get_chemical_symbols()))
    files = {
        'direct': ('POSCAR_' + name, dict(format='vasp', direct=True, vasp5=True)),
        'cartesian': (name + '.vasp', dict(format='vasp', direct=False, vasp5=True)),
        'cif': (name + '.cif', dict(format='cif')),
        'lammps': (name + '.data', dict(format='lammps-data', specorder=species)),
    }
    for kind, (file, kw) in files.items():
        path = d['dir'] + '/' + file
        write(path, atoms, **kw)
        if kind == 'lammps':
            back = read(path, format='lammps-data', style='atomic', Z_of_type={i + 1: Atoms(s).numbers[0] for i, s in enumerate(species)})
        else:
            back = read(path, format=kw['format'])
        out[name + '.' + kind] = dict(dump(back), file=path, species=species)
print(json.dumps(out))
`;

function rows(vectors: System['positions'] | undefined): number[][] {
  return (vectors as number[][]).map((row) => Array.from(row));
}

function expectSame(system: System, reference: AseAtoms, what: string): void {
  expect(Array.from(system.symbols as string[]), what).toEqual(reference.symbols);
  const diff = (a: number[][], b: number[][]): number => Math.max(...a.flatMap((row, i) => row.map((x, c) => Math.abs(x - b[i][c]))));
  expect(diff(rows(system.cell), reference.cell), `${what} cell`).toBeLessThan(1e-10);
  expect(diff(rows(system.positions), reference.positions), `${what} positions`).toBeLessThan(1e-10);
}

describe.skipIf(aseSkipReason !== '')(`readStructures vs ASE 3.22 ${aseSkipReason}`, () => {
  const files = aseSkipReason === '' ? runAse<Record<string, AseAtoms & { file: string; species: string[] }>>(WRITE_AND_READ, { dir }) : {};

  it.each(['bulk', 'slab', 'tri'])('%s: POSCAR (Direct and Cartesian), CIF and LAMMPS data written by ASE read back as ASE reads them', (name) => {
    for (const kind of ['direct', 'cartesian', 'cif', 'lammps']) {
      const reference = files[`${name}.${kind}`];
      const [system] = readStructures(reference.file, kind === 'lammps' ? { species: reference.species } : {});
      expectSame(system, reference, `${name}.${kind}`);
      if (kind === 'direct' || kind === 'cartesian') expect(system.info?.fixed ?? reference.fixed.map(() => false)).toEqual(reference.fixed);
    }
  });

  it('the slab’s FixAtoms constraint becomes selective dynamics, then info.fixed', () => {
    const reference = files['slab.direct'];
    const [slab] = readStructures(reference.file);
    expect((slab.info?.fixed as boolean[]).filter(Boolean)).toHaveLength(4);
  });

  it('writePoscar and writeLammpsData files read back in ASE as the systems they were written from', async () => {
    for (const name of ['bulk', 'slab', 'tri']) {
      const reference = files[`${name}.direct`];
      const [system] = readStructures(reference.file);
      const poscar = join(dir, `ours_${name}.vasp`);
      const data = join(dir, `ours_${name}.data`);
      await writePoscar(poscar, system);
      await writeLammpsData(data, system, { species: reference.species });
      const back = runAse<{ poscar: AseAtoms; lammps: AseAtoms & { lengths: number[]; scaled: number[][] }; original: { lengths: number[]; scaled: number[][] } }>(`
import json, sys
import numpy as np
from ase import Atoms
from ase.constraints import FixAtoms
from ase.io import read
d = json.load(sys.stdin)
p = read(d['poscar'], format='vasp')
fixed = np.zeros(len(p), bool)
for c in p.constraints:
    if isinstance(c, FixAtoms): fixed[c.index] = True
l = read(d['data'], format='lammps-data', style='atomic', Z_of_type={i + 1: Atoms(s).numbers[0] for i, s in enumerate(d['species'])})
o = read(d['original'], format='vasp')
print(json.dumps({
  'poscar': {'symbols': p.get_chemical_symbols(), 'positions': p.get_positions().tolist(), 'cell': p.get_cell().tolist(), 'fixed': fixed.tolist()},
  'lammps': {'symbols': l.get_chemical_symbols(), 'positions': l.get_positions().tolist(), 'cell': l.get_cell().tolist(), 'fixed': [],
             'lengths': l.cell.cellpar().tolist(), 'scaled': l.get_scaled_positions(wrap=False).tolist()},
  'original': {'lengths': o.cell.cellpar().tolist(), 'scaled': o.get_scaled_positions(wrap=False).tolist()},
}))
`, { poscar, data, original: reference.file, species: reference.species });
      expectSame(system, back.poscar, `${name} writePoscar`);
      expect(back.poscar.fixed).toEqual(reference.fixed);
      // LAMMPS boxes are rotated into the restricted triclinic frame: same cell parameters, same fractional coordinates.
      expect(back.lammps.symbols).toEqual(reference.symbols);
      back.lammps.lengths.forEach((v, k) => expect(Math.abs(v - back.original.lengths[k]), `${name} cellpar ${k}`).toBeLessThan(1e-9));
      back.lammps.scaled.forEach((row, i) => row.forEach((v, c) => expect(Math.abs(v - back.original.scaled[i][c])).toBeLessThan(1e-10)));
    }
  });

  describe('CIF with symmetry operations', () => {
    const RUTILE = `data_rutile
_cell_length_a 4.5937
_cell_length_b 4.5937
_cell_length_c 2.9587
_cell_angle_alpha 90
_cell_angle_beta 90
_cell_angle_gamma 90
_symmetry_space_group_name_H-M 'P 42/m n m'
loop_
_symmetry_equiv_pos_as_xyz
'x, y, z'
'-x, -y, z'
'-y+1/2, x+1/2, z+1/2'
'y+1/2, -x+1/2, z+1/2'
'-x+1/2, y+1/2, -z+1/2'
'x+1/2, -y+1/2, -z+1/2'
'y, x, -z'
'-y, -x, -z'
'-x, -y, -z'
'x, y, -z'
'y+1/2, -x+1/2, -z+1/2'
'-y+1/2, x+1/2, -z+1/2'
'x+1/2, -y+1/2, z+1/2'
'-x+1/2, y+1/2, z+1/2'
'-y, -x, z'
'y, x, z'
loop_
_atom_site_label
_atom_site_type_symbol
_atom_site_fract_x
_atom_site_fract_y
_atom_site_fract_z
_atom_site_occupancy
Ti1 Ti 0 0 0 1.0
O1 O 0.30530(2) 0.30530 0 1.0
`;
    const WURTZITE = `data_ZnO
_cell_length_a 3.2495
_cell_length_b 3.2495
_cell_length_c 5.2069
_cell_angle_alpha 90.0
_cell_angle_beta 90.0
_cell_angle_gamma 120.0
_space_group_name_H-M_alt 'P 63 m c'
loop_
_space_group_symop_operation_xyz
x,y,z
-y,x-y,z
-x+y,-x,z
-x,-y,z+1/2
y,-x+y,z+1/2
x-y,x,z+1/2
-y,-x,z
-x+y,y,z
x,x-y,z
y,x,z+1/2
x-y,-y,z+1/2
-x,-x+y,z+1/2
loop_
_atom_site_label
_atom_site_fract_x
_atom_site_fract_y
_atom_site_fract_z
Zn1 0.33333 0.66667 0.0
O1 0.33333 0.66667 0.3819
`;
    it.each([
      { name: 'rutile', text: RUTILE, atoms: 6 },
      { name: 'wurtzite', text: WURTZITE, atoms: 4 },
    ])('$name expands to the atoms and cell ase.io.read gives', ({ name, text, atoms }) => {
      const file = join(dir, `${name}.cif`);
      writeFileSync(file, text);
      const reference = runAse<AseAtoms & { scaled: number[][] }>(`
import json, sys
from ase.io import read
a = read(json.load(sys.stdin))
print(json.dumps({'symbols': a.get_chemical_symbols(), 'positions': a.get_positions().tolist(), 'cell': a.get_cell().tolist(), 'fixed': [], 'scaled': a.get_scaled_positions().tolist()}))
`, file);
      const [system] = readStructures(file);
      expect(system.symbols).toHaveLength(atoms);
      expect(reference.symbols).toHaveLength(atoms);
      const key = (symbol: string, p: number[]) => `${symbol} ${p.map((x) => x.toFixed(6)).join(' ')}`;
      // Same atoms; ASE orders the images of a site by its own reduced list of operations, so compare as sets.
      const ours = (system.positions as number[][]).map((p, i) => ({ symbol: (system.symbols as string[])[i], p }));
      const theirs = reference.positions.map((p, i) => ({ symbol: reference.symbols[i], p }));
      const sort = (list: { symbol: string; p: number[] }[]) => [...list].sort((a, b) => key(a.symbol, a.p).localeCompare(key(b.symbol, b.p)));
      const [a, b] = [sort(ours), sort(theirs)];
      a.forEach((atom, i) => {
        expect(atom.symbol).toBe(b[i].symbol);
        atom.p.forEach((x, c) => expect(Math.abs(x - b[i].p[c])).toBeLessThan(1e-10));
      });
      rows(system.cell).forEach((row, r) => row.forEach((x, c) => expect(Math.abs(x - reference.cell[r][c])).toBeLessThan(1e-10)));
    });
  });
});
