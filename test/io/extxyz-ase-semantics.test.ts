// extxyz read as ASE ≥ 3.23 reads it (docs/formats.md): a corpus of comment lines and frames in the style of
// ASE's test_extxyz.py and libAtoms' extxyz tests, each with the value ASE 3.23 gives. Debian's python3-ase
// (3.22) reads several of them differently, so the expected values are written out here.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { readExtxyz, writeExtxyz } from '../../lib/io/index.js';

const frame = (comment: string): string => `1\n${comment}\nAr 0 0 0\n`;
const read = (comment: string): ReturnType<typeof readExtxyz>[number] => readExtxyz(frame(comment))[0];

describe('pbc', () => {
  it.each([
    ['pbc="True"', [true, true, true]],
    ['pbc=T', [true, true, true]],
    ['pbc="False false T"', [false, false, true]],
    ['pbc="T T F"', [true, true, false]],
    ['pbc=[True, True, False]', [true, true, false]],
    ['pbc={TRUE FALSE TRUE}', [true, false, true]],
  ])('%s is read per entry', (comment, pbc) => {
    expect(read(`Lattice="5 0 0 0 5 0 0 0 5" Properties=species:S:1:pos:R:3 ${comment}`).pbc).toEqual(pbc);
  });
});

describe('booleans', () => {
  it('true/True/TRUE/false/False/FALSE and T/F are booleans, alone and in lists', () => {
    const info = read('a=true b=True c=TRUE d=false e=False f=FALSE g=T h=F list="True false T" brackets=[false, TRUE] bare').info;
    expect(info).toEqual({ a: true, b: true, c: true, d: false, e: false, f: false, g: true, h: false, list: [true, false, true], brackets: [false, true], bare: true });
  });

  it('other casings and mixed lists stay strings', () => {
    expect(read('odd=tRUE mixed="True 1" word=yes').info).toEqual({ odd: 'tRUE', mixed: 'True 1', word: 'yes' });
  });

  it('strings that read as booleans are written so that they come back as strings', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'hookmd-bool-')), 'b.xyz');
    await writeExtxyz(file, [{ symbols: ['Ar'], positions: [[0, 0, 0]], info: { word: 'True', words: 'false TRUE', flag: true } }]);
    expect(readExtxyz(file)[0].info).toMatchObject({ word: 'True', words: 'false TRUE', flag: true });
  });
});

describe('uid', () => {
  it('stays the string written, whatever it looks like', () => {
    expect(read('uid=00123 UID=7 other=00123').info).toEqual({ uid: '00123', UID: '7', other: 123 });
    expect(read('uid="T"').info).toEqual({ uid: 'T' });
  });

  it('is written as its text, so ASE and readExtxyz read the same string back', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'hookmd-uid-')), 'u.xyz');
    await writeExtxyz(file, [{ symbols: ['Ar'], positions: [[0, 0, 0]], info: { uid: '00123' } }]);
    expect(readFileSync(file, 'utf8')).toContain(' uid=00123 ');
    expect(readExtxyz(file)[0].info?.uid).toBe('00123');
  });
});

describe('VEC1 VEC2 VEC3 cell lines', () => {
  it('are the cell, each one periodic, and the comment stays a comment', () => {
    const text = '2\nCu2 fcc cell\nCu 0 0 0\nCu 1.8 1.8 0\nVEC1 3.6 0 0\nVEC2 0 3.6 0\nVEC3 0 0 3.6\n1\nnext frame\nAr 0 0 0\n';
    const [cu, ar] = readExtxyz(text);
    expect(cu.cell).toEqual([[3.6, 0, 0], [0, 3.6, 0], [0, 0, 3.6]]);
    expect(cu.pbc).toEqual([true, true, true]);
    expect(cu.info).toEqual({ comment: 'Cu2 fcc cell' });
    expect(cu.positions).toEqual([[0, 0, 0], [1.8, 1.8, 0]]);
    expect([ar.symbols, ar.pbc, ar.cell]).toEqual([['Ar'], [false, false, false], undefined]);
  });

  it('make only the directions they give periodic', () => {
    const [slab] = readExtxyz('1\nwire\nC 0 0 0\nVEC1 2.5 0 0\n');
    expect(slab.cell).toEqual([[2.5, 0, 0], [0, 0, 0], [0, 0, 0]]);
    expect(slab.pbc).toEqual([true, false, false]);
  });

  it('are checked: in order, three numbers, at most three', () => {
    expect(() => readExtxyz('1\nx\nC 0 0 0\nVEC2 1 0 0\n')).toThrow(/<text>:4: expected cell vector VEC1, got VEC2/);
    expect(() => readExtxyz('1\nx\nC 0 0 0\nVEC1 1 zero 0\n')).toThrow(/<text>:4: VEC1 must be 3 numbers/);
    expect(() => readExtxyz('1\nx\nC 0 0 0\nVEC1 1 0 0\nVEC2 0 1 0\nVEC3 0 0 1\nVEC4 1 1 1\n')).toThrow(/<text>:7: more than 3 cell vectors/);
  });
});

describe('cells without volume in their periodic directions (issue 39 item 12)', () => {
  // ASE 3.22 reads each of these; `ase.io.write` writes them back as below.
  const slab = '2\npbc="T T F" energy=1.0\nAr 0 0 0\nAr 1 0 0\n';
  const flat = '2\nLattice="5 0 0 0 5 0 0 0 0" pbc="T T T"\nAr 0 0 0\nAr 1 0 0\n';

  it('pbc="T T F" without a Lattice is read as ASE reads it, and written back as ASE writes it', async () => {
    const [system] = readExtxyz(slab);
    expect(system.pbc).toEqual([true, true, false]);
    expect(system.cell ?? [[0, 0, 0], [0, 0, 0], [0, 0, 0]]).toEqual([[0, 0, 0], [0, 0, 0], [0, 0, 0]]);
    expect(system.energy).toBe(1);
    const file = join(mkdtempSync(join(tmpdir(), 'hookmd-slab-')), 's.xyz');
    await writeExtxyz(file, [system]);
    const comment = readFileSync(file, 'utf8').split('\n')[1];
    expect(comment).not.toContain('Lattice');
    expect(comment).toContain('pbc="T T F"');
    expect(readExtxyz(file)[0].pbc).toEqual([true, true, false]);
  });

  it('a flat Lattice with pbc="T T T" is read with its cell', () => {
    const [system] = readExtxyz(flat);
    expect(system.pbc).toEqual([true, true, true]);
    expect(system.cell).toEqual([[5, 0, 0], [0, 5, 0], [0, 0, 0]]);
  });

  it('a batch, which models and engines need, refuses them naming the two ways on', () => {
    for (const text of [slab, flat]) {
      expect(() => Batch.fromSystems(readExtxyz(text))).toThrow(expect.objectContaining({
        code: 'SINGULAR_CELL',
        message: expect.stringMatching(/zero volume in its periodic directions; give each periodic direction a lattice vector, or set pbc false where there is none/),
      }));
    }
    // Setting pbc false where the cell has no vector is all the slab needs.
    const [system] = readExtxyz(flat);
    expect(Batch.fromSystems([{ ...system, pbc: [true, true, false] }]).numSystems).toBe(1);
  });
});
