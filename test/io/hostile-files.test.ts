// Issue 27, item 6: readers fail loudly. A damaged Zarr store, a LAMMPS data file whose Velocities name an
// unknown atom, CIF files whose symmetry or site loops cannot describe a structure, and values that parse
// but that a batch would refuse all end in the reader's typed error with the file, the line or chunk, and
// the reason; a reader never returns a system Batch.fromSystems would refuse.
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { readExtxyz, readStructures, readZarr, ZarrSink } from '../../lib/io/index.js';

const dir = mkdtempSync(join(tmpdir(), 'hookmd-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

function caught(read: () => unknown): { code?: string; message: string; details?: Record<string, unknown> } {
  try {
    read();
  } catch (error) {
    return error as { code?: string; message: string; details?: Record<string, unknown> };
  }
  throw new Error('the file was read');
}

async function caughtAsync(read: () => Promise<unknown>): Promise<{ code?: string; message: string; name?: string }> {
  const error = await read().then(() => undefined, (e: unknown) => e);
  if (error === undefined) throw new Error('the store was read');
  return error as { code?: string; message: string; name?: string };
}

describe('readZarr on a damaged store', () => {
  let store = 0;
  // Raw chunks, so the tests can damage their bytes; the gzip ones have a test of their own below.
  async function fresh(compression: 'gzip' | 'none' = 'none'): Promise<string> {
    const path = join(dir, `s${store++}.zarr`);
    const sink = new ZarrSink(path, { compression });
    await sink.write([{ symbols: ['Ar', 'Ar'], positions: [[1, 2, 3], [4, 5, 6]], info: { a: 1 } }, { symbols: ['Cu'], positions: [[7, 8, 9]], info: { b: 'x' } }]);
    await sink.close();
    return path;
  }

  it('a truncated chunk is READ_FAILED naming the chunk, not zeros', async () => {
    const path = await fresh();
    truncateSync(join(path, 'core/positions/c/0/0'), 20);
    const error = await caughtAsync(() => readZarr(path));
    expect(error).toMatchObject({ code: 'READ_FAILED', message: expect.stringMatching(/core\/positions\/c\/0\/0: the chunk has 20 bytes, its array's chunks have \d+: the file is truncated/) });
  });

  it('a gzip chunk that is cut short, is not gzip, or inflates past its array\'s chunk size is READ_FAILED naming the chunk', async () => {
    const cut = await fresh('gzip');
    const file = 'core/positions/c/0/0';
    truncateSync(join(cut, file), 12);
    expect(await caughtAsync(() => readZarr(cut))).toMatchObject({ code: 'READ_FAILED', message: expect.stringMatching(/core\/positions\/c\/0\/0: the chunk is not gzip data its array's chunks can hold/) });
    const garbage = await fresh('gzip');
    writeFileSync(join(garbage, file), Buffer.from('not a gzip stream at all'));
    expect(await caughtAsync(() => readZarr(garbage))).toMatchObject({ code: 'READ_FAILED', message: expect.stringMatching(/core\/positions\/c\/0\/0: the chunk is not gzip data/) });
    // 64 MiB of zeros in a few kB: the reader stops inflating at the chunk's size instead of allocating it.
    const bomb = await fresh('gzip');
    writeFileSync(join(bomb, file), gzipSync(Buffer.alloc(64 << 20)));
    expect(await caughtAsync(() => readZarr(bomb))).toMatchObject({ code: 'READ_FAILED', message: expect.stringMatching(/core\/positions\/c\/0\/0: the chunk is not gzip data its array's chunks can hold: .*buffer/i) });
    const short = await fresh('gzip');
    writeFileSync(join(short, file), gzipSync(Buffer.alloc(40)));
    expect(await caughtAsync(() => readZarr(short))).toMatchObject({ code: 'READ_FAILED', message: expect.stringMatching(/core\/positions\/c\/0\/0: the chunk has 40 bytes \(gunzipped\), its array's chunks have \d+/) });
  });

  it('a damaged info chunk is READ_FAILED naming the chunk and the system, not a SyntaxError', async () => {
    const path = await fresh();
    const file = join(path, 'meta/info/c/0');
    const bytes = readFileSync(file);
    bytes[3] = 0x7b;
    writeFileSync(file, bytes);
    const error = await caughtAsync(() => readZarr(path));
    expect(error.name).not.toBe('SyntaxError');
    expect(error).toMatchObject({ code: 'READ_FAILED', message: expect.stringMatching(/meta\/info\/c\/0 \(system 0, bytes 0\.\.7\): the info is not JSON/) });
  });

  it('damaged metadata is READ_FAILED or ZARR_LAYOUT naming the zarr.json', async () => {
    const path = await fresh();
    writeFileSync(join(path, 'core/positions/zarr.json'), '{"zarr_format": 3, "node_type": "arr');
    expect(await caughtAsync(() => readZarr(path))).toMatchObject({ code: 'READ_FAILED', message: expect.stringMatching(/core\/positions\/zarr\.json: unreadable metadata/) });
    const other = await fresh();
    const meta = JSON.parse(readFileSync(join(other, 'core/positions/zarr.json'), 'utf8')) as { data_type: string };
    writeFileSync(join(other, 'core/positions/zarr.json'), JSON.stringify({ ...meta, data_type: 'int32' }));
    expect(await caughtAsync(() => readZarr(other))).toMatchObject({ code: 'ZARR_LAYOUT', message: expect.stringMatching(/core\/positions\/zarr\.json is int32/) });
  });

  it('pointers that claim 1e15 systems, or run backwards, are READ_FAILED before anything that size is allocated', async () => {
    const path = await fresh();
    const meta = JSON.parse(readFileSync(join(path, 'meta/atoms_ptr/zarr.json'), 'utf8')) as { shape: number[] };
    writeFileSync(join(path, 'meta/atoms_ptr/zarr.json'), JSON.stringify({ ...meta, shape: [1e15] }));
    expect(await caughtAsync(() => readZarr(path))).toMatchObject({ code: 'READ_FAILED', message: expect.stringMatching(/meta\/atoms_ptr\/c\/1: the chunk is missing/) });
    const backwards = await fresh();
    const chunk = readFileSync(join(backwards, 'meta/atoms_ptr/c/0'));
    new DataView(chunk.buffer, chunk.byteOffset).setBigInt64(16, 1n, true);
    writeFileSync(join(backwards, 'meta/atoms_ptr/c/0'), chunk);
    expect(await caughtAsync(() => readZarr(backwards))).toMatchObject({ code: 'READ_FAILED', message: expect.stringMatching(/meta\/atoms_ptr row 2: pointer 1 does not follow 2/) });
  });

  it('numbers that decode but make no system (atomic number 0, a NaN position) are READ_FAILED naming the system', async () => {
    const path = await fresh();
    const z = readFileSync(join(path, 'core/atomic_numbers/c/0'));
    z.writeInt32LE(0, 8);
    writeFileSync(join(path, 'core/atomic_numbers/c/0'), z);
    expect(await caughtAsync(() => readZarr(path))).toMatchObject({ code: 'READ_FAILED', message: expect.stringMatching(/system 1: .*atomicNumbers\[0\]: unknown atomic number 0/) });
    const nan = await fresh();
    const x = readFileSync(join(nan, 'core/positions/c/0/0'));
    x.writeDoubleLE(Number.NaN, 8);
    writeFileSync(join(nan, 'core/positions/c/0/0'), x);
    expect(await caughtAsync(() => readZarr(nan))).toMatchObject({ code: 'READ_FAILED', message: expect.stringMatching(/system 0: .*positions\[0\]\[1\] is NaN/) });
  });
});

const DATA = '# x\n\n2 atoms\n1 atom types\n0 4 xlo xhi\n0 4 ylo yhi\n0 4 zlo zhi\n\nMasses\n\n1 63.546\n\nAtoms # atomic\n\n1 1 0 0 0\n2 1 2 2 0\n\nVelocities\n\n1 1 2 3\n2 4 5 6\n';

describe('readStructures: LAMMPS data', () => {
  it.each([
    { name: 'a Velocities line of an unknown atom id', text: DATA.replace('\n2 4 5 6\n', '\n7 4 5 6\n'), line: 21, message: /Velocities: atom id 7 is not in the Atoms section/ },
    { name: 'an atom id twice in Velocities', text: DATA.replace('\n2 4 5 6\n', '\n1 4 5 6\n'), line: 21, message: /Velocities: atom id 1 appears twice/ },
    { name: 'image flags that are not integers', text: DATA.replace('2 1 2 2 0\n', '2 1 2 2 0 0.5 0 0\n'), line: 16, message: /atom 2: image flags must be integers/ },
    { name: 'image flags that carry an atom past a double', text: DATA.replace('2 1 2 2 0\n', '2 1 2 2 0 1e308 0 0\n'), line: 16, message: /structure\.positions\[1\]\[0\] is Infinity/ },
  ])('$name is LAMMPS_DATA_PARSE with the file and line', ({ text, line, message }) => {
    const file = write('x.data', text);
    const error = caught(() => readStructures(file));
    expect(error).toMatchObject({ code: 'LAMMPS_DATA_PARSE', details: { file, line } });
    expect(error.message).toMatch(message);
    expect(error.message).toContain(`${file}:${line}:`);
  });

  it('a header declaring 1e12 atom types does not make the reader loop over them', () => {
    const file = write('types.data', DATA.replace('1 atom types', '1000000000000 atom types').replace('Masses\n\n1 63.546\n\n', ''));
    expect(readStructures(file, { species: ['Cu'] })[0].velocities).toHaveLength(2);
  });
});

const CELL = 'data_x\n_cell_length_a 4\n_cell_length_b 4\n_cell_length_c 4\n_cell_angle_alpha 90\n_cell_angle_beta 90\n_cell_angle_gamma 90\n';
const SITES = 'loop_\n_atom_site_label\n_atom_site_fract_x\n_atom_site_fract_y\n_atom_site_fract_z\nCu1 0 0 0\n';

describe('readStructures: CIF', () => {
  it.each([
    { name: 'an empty symmetry-operation loop', text: `${CELL}loop_\n_space_group_symop_operation_xyz\n${SITES}`, line: 8, message: /the symmetry-operation loop lists no operations/ },
    { name: 'a zero denominator in an operation', text: `${CELL}loop_\n_space_group_symop_operation_xyz\nx,y,z\n'x+1/0,y,z'\n${SITES}`, line: 11, message: /'\+1\/0' is not a finite number/ },
    { name: 'an operation that is not invertible', text: `${CELL}loop_\n_space_group_symop_operation_xyz\nx,y,z\n'x,x,z'\n${SITES}`, line: 11, message: /determinant 0, not ±1/ },
    { name: 'a site loop without fract_x', text: `${CELL}loop_\n_atom_site_label\n_atom_site_fract_y\n_atom_site_fract_z\nCu1 0 0\n`, line: 8, message: /the atom-site loop lacks _atom_site_fract_x/ },
    { name: 'a site loop without rows', text: `${CELL}loop_\n_atom_site_label\n_atom_site_fract_x\n_atom_site_fract_y\n_atom_site_fract_z\n`, line: 8, message: /the atom-site loop lists no sites/ },
    { name: 'a cell whose angles make it flat', text: `${CELL.replace('_cell_angle_gamma 90', '_cell_angle_gamma 0')}${SITES}`, line: 2, message: /describe no cell/ },
    { name: 'a cell length of 1e-20 Å', text: `${CELL.replace('_cell_length_a 4', '_cell_length_a 1e-20')}${SITES}`, line: 2, message: /structure\.cell has zero volume/ },
  ])('$name is CIF_PARSE (SINGULAR_CELL for a cell) with the file and line, never atoms that are not there', ({ text, line, message }) => {
    const file = write('x.cif', text);
    const error = caught(() => readStructures(file));
    expect(error).toMatchObject({ code: expect.stringMatching(/^(CIF_PARSE|SINGULAR_CELL)$/), details: { file, line } });
    expect(error.message).toMatch(message);
  });

  it('expands many sites under many operations without comparing every pair', () => {
    const rows = Array.from({ length: 4000 }, (_, i) => `A${i} ${((i % 20) + 0.5) / 20} ${((Math.floor(i / 20) % 20) + 0.5) / 20} ${(Math.floor(i / 400) + 0.5) / 20}`).join('\n');
    const ops = ['x,y,z', 'x,y,z+1/2'].map((op) => `'${op}'`).join('\n');
    const text = `${CELL.replace(/_cell_length_. 4/g, (m) => m.replace('4', '40'))}loop_\n_space_group_symop_operation_xyz\n${ops}\nloop_\n_atom_site_type_symbol\n_atom_site_label\n_atom_site_fract_x\n_atom_site_fract_y\n_atom_site_fract_z\n${rows.replace(/^A/gm, 'Ar A')}\n`;
    const started = performance.now();
    const [system] = readStructures(write('many.cif', text));
    expect(system.positions).toHaveLength(8000);
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});

describe('readStructures: POSCAR and extxyz values a batch refuses', () => {
  it('a POSCAR scale that carries coordinates past a double is POSCAR_PARSE at the atom line', () => {
    const file = write('POSCAR', 'Cu\n1e300\n4 0 0\n0 4 0\n0 0 4\nCu\n2\nCartesian\n0 0 0\n1e10 0 0\n');
    expect(caught(() => readStructures(file))).toMatchObject({ code: 'POSCAR_PARSE', details: { file, line: 10 }, message: expect.stringMatching(/structure\.positions\[1\]\[0\] is Infinity/) });
  });

  it('an extxyz mass of 0 or a NaN position is EXTXYZ_PARSE at the atom line', () => {
    const head = '2\nProperties=species:S:1:pos:R:3:masses:R:1\n';
    expect(caught(() => readExtxyz(`${head}Ar 0 0 0 40\nAr 0 0 3 0\n`))).toMatchObject({ code: 'EXTXYZ_PARSE', details: { line: 4 }, message: expect.stringMatching(/structure\.masses\[1\] is 0/) });
    expect(caught(() => readExtxyz(`${head}Ar 0 nan 0 40\nAr 0 0 3 40\n`))).toMatchObject({ code: 'EXTXYZ_PARSE', details: { line: 3 }, message: expect.stringMatching(/positions\[0\]\[1\] is NaN/) });
  });
});
