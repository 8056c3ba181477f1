// The extxyz grammar: malformed input gives EXTXYZ_PARSE with the line number, the comment-line
// key=value rules follow ASE's, and formatExtxyz → readExtxyz returns what went in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { System } from '../../lib/data/index.js';
import { HookmdError } from '../../lib/errors.js';
import { ASE_FS, formatExtxyz, readExtxyz } from '../../lib/io/index.js';

function parseError(text: string): HookmdError {
  try {
    readExtxyz(text);
  } catch (error) {
    expect(error).toBeInstanceOf(HookmdError);
    return error as HookmdError;
  }
  throw new Error('readExtxyz accepted malformed input');
}

const HEAD = 'Properties=species:S:1:pos:R:3';

describe('readExtxyz on malformed input', () => {
  it.each([
    ['a bad atom count', `two\n${HEAD}\nAr 0 0 0\n`, 1, /expected the atom count of a frame, got "two"/],
    ['a negative atom count', `-1\n${HEAD}\n`, 1, /atom count/],
    ['a truncated frame', `3\n${HEAD}\nAr 0 0 0\nAr 1 0 0\n`, 5, /truncated frame \(atom count 3 at line 1\): expected 3 atom lines, found 2/],
    ['a missing comment line', `1\n`, 2, /comment line is missing/],
    ['a non-numeric coordinate', `1\n${HEAD}\nAr 0 x 0\n`, 3, /'x' in column 'pos' is not a number/],
    ['an unknown property type', `1\nProperties=species:S:1:pos:X:3\nAr 0 0 0\n`, 2, /unknown property type 'X'/],
    ['a bad column count in Properties', `1\nProperties=species:S:1:pos:R:three\nAr 0 0 0\n`, 2, /column count 'three'/],
    ['too few columns on an atom line', `1\n${HEAD}:forces:R:3\nAr 0 0 0 1 2\n`, 3, /atom line has 6 columns, but Properties declares 7/],
    ['too many columns on an atom line', `1\n${HEAD}\nAr 0 0 0 9\n`, 3, /has 5 columns, but Properties declares 4/],
    ['an unterminated quote', `1\nLattice="1 0 0 0 1 0 0 0 1 ${HEAD}\nAr 0 0 0\n`, 2, /unterminated quote/],
    ['a Lattice of 8 numbers', `1\nLattice="1 0 0 0 1 0 0 0" ${HEAD}\nAr 0 0 0\n`, 2, /Lattice must be 9 numbers/],
    ['a non-numeric energy', `1\n${HEAD} energy=low\nAr 0 0 0\n`, 2, /energy="low" is not a number/],
    ['an unknown element', `2\n${HEAD}\nAr 0 0 0\nXq 1 0 0\n`, 4, /unknown element "Xq"/],
    ['a mistyped mapped column', `1\nProperties=species:S:1:pos:R:2\nAr 0 0\n`, 2, /property 'pos' must be pos:R:3/],
    ['a bad integer', `1\n${HEAD}:tag:I:1\nAr 0 0 0 1.5\n`, 3, /'1.5' in column 'tag' is not an integer/],
  ])('%s', (_what, text, line, message) => {
    const error = parseError(text);
    expect(error.code).toBe('EXTXYZ_PARSE');
    expect(error.details.line).toBe(line);
    expect(error.message).toMatch(new RegExp(`^readExtxyz: <text>:${line}: `));
    expect(error.message).toMatch(message);
  });

  it('counts lines across frames and names the file', () => {
    const text = `1\n${HEAD}\nAr 0 0 0\n2\n${HEAD}\nAr 0 0 0\nAr 1 0 zero\n`;
    const error = parseError(text);
    expect(error.details.line).toBe(7);
    expect(() => readExtxyz('/nonexistent/dir/file.xyz')).toThrow(expect.objectContaining({ code: 'READ_FAILED' }));
  });
});

describe('the comment line follows ASE', () => {
  const frame = (comment: string, properties = 'species:S:1:pos:R:3', atom = 'Ar 0 0 0'): System => readExtxyz(`1\n${comment} Properties=${properties}\n${atom}\n`)[0];

  it('converts values: numbers, arrays, booleans, bare keys, quotes, braces, escapes and _JSON', () => {
    const { info } = frame(
      `a = 1 b=2.5 c="1 2 3" d={4.5 5 6} e='x y' f=T g="T F T" bare h="say \\"hi\\"" i=1e-3 j=nan k="_JSON {\\"x\\": [1, null]}" l=word m=1,2`,
    );
    expect(info).toEqual({
      a: 1, b: 2.5, c: [1, 2, 3], d: [4.5, 5, 6], e: 'x y', f: true, g: [true, false, true], bare: true,
      h: 'say "hi"', i: 0.001, j: NaN, k: { x: [1, null] }, l: 'word', m: [1, 2],
    });
  });

  it('maps Lattice, pbc, energy, stress (9 or Voigt 6), Z, vel and momenta', () => {
    const a = frame('Lattice="2 0 0 0 3 0 1 0 4" energy=-1.5 stress="1 2 3 4 5 6"', 'Z:I:1:pos:R:3:vel:R:3', '18 0 0 0 0.1 0.2 0.3');
    expect(a.atomicNumbers).toEqual([18]);
    expect(a.symbols).toBeUndefined();
    expect(a.cell).toEqual([[2, 0, 0], [0, 3, 0], [1, 0, 4]]);
    expect(a.pbc).toEqual([true, true, true]);
    expect(a.energy).toBe(-1.5);
    expect(a.stress).toEqual([[1, 6, 5], [6, 2, 4], [5, 4, 3]]);
    expect(a.velocities).toEqual([[0.1, 0.2, 0.3]]);
    const b = frame('pbc=T Lattice="5 0 0 0 5 0 0 0 5" stress="1 2 3 4 5 6 7 8 9"', 'species:S:1:pos:R:3:momenta:R:3:masses:R:1', 'ar 0 0 0 2 4 6 2');
    expect(b.symbols).toEqual(['Ar']);
    expect(b.pbc).toEqual([true, true, true]);
    expect(b.stress).toEqual([[1, 4, 7], [2, 5, 8], [3, 6, 9]]);
    expect(b.masses).toEqual([2]);
    expect(b.velocities).toEqual([[ASE_FS, 2 * ASE_FS, 3 * ASE_FS]]);
    const lj = readExtxyz(`1\n${HEAD}:momenta:R:3\nAr 0 0 0 2 4 6\n`, { units: 'lj' })[0];
    expect(lj.velocities).toEqual([[2, 4, 6]]);
    // ASE reads pbc=T without a Lattice, and so does the reader; a batch refuses it (no cell volume).
    expect(frame('pbc=T', 'species:S:1:pos:R:3', 'Ar 0 0 0').pbc).toEqual([true, true, true]);
  });

  it('reads CRLF files, blank lines between frames, and keeps unknown columns in info.arrays', () => {
    const text = `1\r\n${HEAD}:tags:I:1:dipole:R:3:fixed:L:1\r\nAr 0 0 0 7 1 2 3 T\r\n\r\n0\r\nname=empty\r\n`;
    const [a, b] = readExtxyz(text);
    expect(a.info).toEqual({ arrays: { tags: [7], dipole: [[1, 2, 3]], fixed: [true] } });
    expect(b.positions).toEqual([]);
    expect(b.info).toEqual({ name: 'empty' });
  });
});

describe('formatExtxyz → readExtxyz', () => {
  it('returns every field and info value that went in', () => {
    const system: System = {
      symbols: ['Cu', 'Au'],
      positions: [[0.1, -0, 1e-300], [1.7976931348623157e308, 2.5, -3]],
      cell: [[4, 0, 0], [0, 4.5, 0], [0.1, 0.2, 5]],
      pbc: [true, false, true],
      masses: [60, 200],
      velocities: [[0.01, 0.02, 0.03], [-0.04, 0, 0]],
      energy: -3.25,
      forces: [[1, 2, 3], [-1, -2, -3]],
      stress: [[1, 2, 3], [4, 5, 6], [7, 8, 9]],
      info: { arrays: { kind: ['a', 'b'], weight: [[1, 2], [3, 4.5]] }, virial: [[1, 2, 3], [4, 5, 6], [7, 8, 10]], ratio: 0.1 },
    };
    const [back] = readExtxyz(formatExtxyz(system));
    const { velocities, ...rest } = back;
    expect(rest).toEqual({ ...system, velocities: undefined });
    (velocities as number[][]).flat().forEach((v, i) => expect(v).toBeCloseTo((system.velocities as number[][]).flat()[i], 15));
  });

  it('round-trips arbitrary info values (strings with quotes, control characters and numbers in them)', () => {
    const value = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.double(),
      fc.boolean(),
      fc.array(fc.double(), { maxLength: 5 }),
      fc.array(fc.boolean(), { maxLength: 4 }),
      // Nested values travel as JSON, as ASE writes them, and JSON has no −0: compare what JSON can carry.
      fc.jsonValue({ maxDepth: 3 }).map((nested) => JSON.parse(JSON.stringify(nested)) as unknown),
    );
    const key = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_ ."'=\\-]{0,8}$/).filter((k) => !['Lattice', 'Properties', 'pbc', 'energy', 'stress', 'arrays', 'virial'].includes(k));
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 6 }), (info) => {
        const [back] = readExtxyz(formatExtxyz({ symbols: ['H'], positions: [[0, 0, 0]], info }));
        expect(back.info).toEqual(info);
      }),
      { numRuns: 300, seed: 665429891 },
    );
  });

  it('rejects info it cannot write, naming the key', () => {
    const base = { symbols: ['H'], positions: [[0, 0, 0]] };
    expect(() => formatExtxyz({ ...base, info: { energy: 1 } })).toThrow(expect.objectContaining({ code: 'INVALID_INFO', details: expect.objectContaining({ field: 'info.energy' }) }));
    expect(() => formatExtxyz({ ...base, info: { f: () => 1 } })).toThrow(expect.objectContaining({ code: 'INVALID_INFO' }));
    expect(() => formatExtxyz({ ...base, info: { arrays: { q: [1, 2] } } })).toThrow(/one entry per atom/);
    expect(() => formatExtxyz({ ...base, positions: [[0, NaN, 0]] })).toThrow(expect.objectContaining({ code: 'INVALID_POSITIONS' }));
  });
});
