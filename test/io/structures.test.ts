// readStructures on its own terms: format detection by name and content, the POSCAR variants ASE does not
// write (VASP 4, negative scale, three scale factors), selective dynamics honoured by FreezeAtomsHook, LAMMPS
// reading hookmd's data files, and a typed error naming the file and line for every malformed input.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, repeat } from '../../lib/data/index.js';
import { FIRE, FreezeAtomsHook } from '../../lib/dynamics/index.js';
import { readStructures, writeLammpsData } from '../../lib/io/index.js';
import { EAM } from '../../lib/models/index.js';
import { LAMMPS_POTENTIALS, lammpsSkipReason, runLammps, thermoRow } from '../helpers/lammps.js';

const dir = mkdtempSync(join(tmpdir(), 'hookmd-structures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const POSCAR = `Cu2 test
1.0
3.6 0 0
0 3.6 0
0 0 3.6
Cu
2
Selective dynamics
Direct
0 0 0 F F F
0.5 0.5 0 T T F
`;

describe('readStructures', () => {
  it('reads POSCAR scale variants: a negative scale is the volume, three scales scale each axis, VASP 4 takes species from the comment', () => {
    const volume = readStructures(write('POSCAR_volume', POSCAR.replace('\n1.0\n', '\n-100\n')))[0];
    const cell = volume.cell as number[][];
    expect(cell[0][0] * cell[1][1] * cell[2][2]).toBeCloseTo(100, 10);
    const three = readStructures(write('POSCAR_three', POSCAR.replace('\n1.0\n', '\n1 2 0.5\n')))[0];
    expect((three.cell as number[][]).map((row, r) => row[r])).toEqual([3.6, 7.2, 1.8]);
    expect((three.positions as number[][])[1]).toEqual([1.8, 3.6, 0]);
    const vasp4 = readStructures(write('CONTCAR', POSCAR.replace('Cu2 test', 'Cu').replace('\nCu\n2\n', '\n2\n')))[0];
    expect(vasp4.symbols).toEqual(['Cu', 'Cu']);
    const cartesian = readStructures(write('cart.vasp', POSCAR.replace('Direct', 'Cartesian').replace('0.5 0.5 0', '1.8 1.8 0').replace('\n1.0\n', '\n2.0\n')))[0];
    expect((cartesian.positions as number[][])[1]).toEqual([3.6, 3.6, 0]);
    expect(cartesian.info).toMatchObject({ fixed: [true, false], selectiveDynamics: [[false, false, false], [true, true, false]] });
  });

  it('picks the format by content when the name says nothing', () => {
    const poscar = write('structure.txt', POSCAR);
    const data = write('copper.txt', '# data\n\n2 atoms\n1 atom types\n0 3.6 xlo xhi\n0 3.6 ylo yhi\n0 3.6 zlo zhi\n\nMasses\n\n1 63.546\n\nAtoms # atomic\n\n1 1 0 0 0\n2 1 1.8 1.8 0\n');
    const cif = write('cell.txt', 'data_x\n_cell_length_a 3\n_cell_length_b 3\n_cell_length_c 3\n_cell_angle_alpha 90\n_cell_angle_beta 90\n_cell_angle_gamma 90\nloop_\n_atom_site_label\n_atom_site_fract_x\n_atom_site_fract_y\n_atom_site_fract_z\nPo1 0 0 0\n');
    const xyz = write('frames.txt', '1\nLattice="3 0 0 0 3 0 0 0 3" Properties=species:S:1:pos:R:3\nAr 0 0 0\n');
    expect(readStructures(poscar)[0].symbols).toEqual(['Cu', 'Cu']);
    // Types map to elements by their masses when no species are given.
    expect(readStructures(data)[0].symbols).toEqual(['Cu', 'Cu']);
    expect(readStructures(cif)[0].symbols).toEqual(['Po']);
    expect(readStructures(xyz)[0].symbols).toEqual(['Ar']);
    expect(readStructures(data, { format: 'lammps-data', species: { 1: 'Ni' } })[0].symbols).toEqual(['Ni', 'Ni']);
  });

  it('POSCAR selective dynamics freezes atoms through FreezeAtomsHook.fromSystems', async () => {
    const text = ['rattled', '1.0', '7.23 0 0', '0 7.23 0', '0 0 7.23', 'Cu', '32', 'Selective dynamics', 'Cartesian'];
    const crystal = rattle(repeat(bulk('Cu', 'fcc', { a: 3.615, cubic: true }), [2, 2, 2]), 0.1, 3);
    (crystal.positions as number[][]).forEach((p, i) => text.push(`${p.join(' ')} ${i < 8 ? 'F F F' : 'T T T'}`));
    const systems = readStructures(write('POSCAR_frozen', `${text.join('\n')}\n`));
    const batch = Batch.fromSystems(systems);
    const before = Float64Array.from(batch.positions);
    const fire = new FIRE({ model: new EAM({ file: join(LAMMPS_POTENTIALS, 'Cu_u3.eam') }), hooks: [FreezeAtomsHook.fromSystems(systems)] });
    await fire.run(batch, { steps: 50 });
    for (let k = 0; k < 3 * 32; k++) {
      if (k < 24) expect(batch.positions[k]).toBe(before[k]);
    }
    expect(Math.max(...Array.from(batch.positions.subarray(24), (x, k) => Math.abs(x - before[24 + k])))).toBeGreaterThan(1e-3);
  });

  describe('malformed files get typed errors naming the file and line', () => {
    it.each([
      { name: 'POSCAR_counts', text: POSCAR.replace('\n2\n', '\ntwo\n'), code: 'POSCAR_PARSE', line: 7, message: /expected atom counts .*got 'two'/ },
      { name: 'POSCAR_coord', text: POSCAR.replace('0.5 0.5 0 T', '0.5 x 0 T'), code: 'POSCAR_PARSE', line: 11, message: /atom 2's coordinates: expected a number, got 'x'/ },
      { name: 'POSCAR_short', text: POSCAR.split('\n').slice(0, 10).join('\n'), code: 'POSCAR_PARSE', line: 10, message: /ends before atom 2 of 2/ },
      { name: 'POSCAR_flags', text: POSCAR.replace('T T F', 'T X F'), code: 'POSCAR_PARSE', line: 11, message: /three T\/F flags/ },
      { name: 'POSCAR_species', text: POSCAR.replace('\nCu\n2', '\nQq\n2'), code: 'POSCAR_PARSE', line: 6, message: /'Qq' is not an element symbol/ },
      { name: 'POSCAR_flat', text: POSCAR.replace('0 0 3.6', '0 0 0'), code: 'SINGULAR_CELL', line: 5, message: /span no volume/ },
      { name: 'bad.data', text: '# x\n\n1 atoms\n1 atom types\n0 1 xlo xhi\n0 1 ylo yhi\n0 1 zlo zhi\n\nAtoms # atomic\n\n1 1 0 0\n', code: 'LAMMPS_DATA_PARSE', line: 11, message: /5 or 8 columns/ },
      { name: 'charge.data', text: '# x\n\n1 atoms\n1 atom types\n0 1 xlo xhi\n0 1 ylo yhi\n0 1 zlo zhi\n\nAtoms # charge\n\n1 1 0 0 0 0\n', code: 'LAMMPS_DATA_PARSE', line: 9, message: /atom style 'charge'/ },
      { name: 'types.data', text: '# x\n\n1 atoms\n1 atom types\n0 1 xlo xhi\n0 1 ylo yhi\n0 1 zlo zhi\n\nAtoms # atomic\n\n1 1 0 0 0\n', code: 'UNKNOWN_SPECIES', line: 11, message: /pass species/ },
      { name: 'short.data', text: '# x\n\n2 atoms\n1 atom types\n0 1 xlo xhi\n0 1 ylo yhi\n0 1 zlo zhi\n\nAtoms # atomic\n\n1 1 0 0 0\n', code: 'LAMMPS_DATA_PARSE', line: 11, message: /has 1 of 2 lines/ },
      { name: 'quote.cif', text: "data_x\n_cell_length_a 'abc\n", code: 'CIF_PARSE', line: 2, message: /never closed/ },
      { name: 'partial.cif', text: 'data_x\n_cell_length_a 3\n_cell_length_b 3\n_cell_length_c 3\n_cell_angle_alpha 90\n_cell_angle_beta 90\n_cell_angle_gamma 90\nloop_\n_atom_site_label\n_atom_site_fract_x\n_atom_site_fract_y\n_atom_site_fract_z\n_atom_site_occupancy\nFe1 0 0 0 1\nCu1 0.5 0.5 0.5 0.5\n', code: 'CIF_PARTIAL_OCCUPANCY', line: 15, message: /site Cu1 has occupancy 0.5/ },
      { name: 'named.cif', text: "data_x\n_cell_length_a 3\n_cell_length_b 3\n_cell_length_c 3\n_cell_angle_alpha 90\n_cell_angle_beta 90\n_cell_angle_gamma 90\n_symmetry_space_group_name_H-M 'F m -3 m'\nloop_\n_atom_site_label\n_atom_site_fract_x\n_atom_site_fract_y\n_atom_site_fract_z\nCu1 0 0 0\n", code: 'CIF_UNSUPPORTED', line: 8, message: /symmetry operations are not listed/ },
      { name: 'cell.cif', text: 'data_x\n_cell_length_a 3\n_cell_length_b three\n_cell_length_c 3\n_cell_angle_alpha 90\n_cell_angle_beta 90\n_cell_angle_gamma 90\nloop_\n_atom_site_label\n_atom_site_fract_x\n_atom_site_fract_y\n_atom_site_fract_z\nCu1 0 0 0\n', code: 'CIF_PARSE', line: 3, message: /_cell_length_b: expected a number, got 'three'/ },
    ])('$name: $code at line $line', ({ name, text, code, line, message }) => {
      const path = write(name, text);
      let error: unknown;
      try {
        readStructures(path);
      } catch (caught) {
        error = caught;
      }
      expect(error).toMatchObject({ code, details: { line } });
      expect((error as Error).message).toContain(`${path}:${line}:`);
      expect((error as Error).message).toMatch(message);
    });

    it('a missing file is READ_FAILED; a bad format option is INVALID_OPTIONS', () => {
      expect(() => readStructures(join(dir, 'nope.cif'))).toThrow(expect.objectContaining({ code: 'READ_FAILED' }));
      expect(() => readStructures(join(dir, 'x.cif'), { format: 'pdb' as never })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    });
  });

  describe.skipIf(lammpsSkipReason !== '')(`writeLammpsData read by LAMMPS ${lammpsSkipReason}`, () => {
    it('a triclinic Al-Cu cell written by hookmd has the same EAM energy in lmp as in hookmd', async () => {
      const crystal = rattle(repeat(bulk('Cu', 'fcc', { a: 3.7, cubic: true }), [2, 2, 2]), 0.05, 6);
      // A general (rotated, sheared) cell: writeLammpsData must turn it into LAMMPS's form.
      const cell = [[7.3, 0.4, -0.2], [0.6, 7.2, 0.5], [-0.3, 0.8, 7.5]];
      const frac = (crystal.positions as number[][]).map((p) => p.map((x) => x / 7.4));
      const positions = frac.map((s) => [0, 1, 2].map((c) => s[0] * cell[0][c] + s[1] * cell[1][c] + s[2] * cell[2][c]));
      const system = { symbols: positions.map((_, i) => (i % 4 === 0 ? 'Al' : 'Cu')), positions, cell, pbc: true };
      const data = join(dir, 'alcu.data');
      await writeLammpsData(data, system, { species: ['Al', 'Cu'] });
      const potential = join(LAMMPS_POTENTIALS, 'AlCu.eam.alloy');
      const { stdout } = runLammps(['units metal', 'atom_style atomic', 'box tilt large', `read_data ${data}`, 'pair_style eam/alloy', `pair_coeff * * ${potential} Al Cu`,
        'thermo_style custom step pe', 'thermo_modify format line "%d %.17g"', 'run 0'].join('\n'));
      const [, energy] = thermoRow(stdout, 'Step PotEng');
      const batch = Batch.fromSystems([system]);
      new EAM({ file: potential }).compute(batch);
      expect(Math.abs(batch.energy[0] - energy)).toBeLessThan(1e-9 * Math.abs(energy));
    });
  });
});
