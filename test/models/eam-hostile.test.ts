// Issue 27, item 1: EAM files whose grid would make native code compute a table index outside a 32-bit
// int, or allocate tables the file cannot fill, are refused with EAM_PARSE naming the value; the native
// layer refuses them on its own; and a density of any size picks the table interval LAMMPS picks.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { writeExtxyz } from '../../lib/io/index.js';
import { EAM } from '../../lib/models/index.js';
import { loadBinding } from '../../lib/native/index.js';
import { ensureBuilt, runCli } from '../cli/run-cli.js';
import { setflText, writeSetfl, type SetflTables } from '../helpers/eam-files.js';

const scratch = mkdtempSync(join(tmpdir(), 'hookmd-eam-hostile-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A smooth one-element potential on the given grid. */
function tables(grid: Pick<SetflTables, 'nrho' | 'drho' | 'nr' | 'dr' | 'cutoff'>): SetflTables {
  const { nrho, drho, nr, dr, cutoff } = grid;
  return {
    ...grid,
    frho: Array.from({ length: nrho }, (_, k) => -Math.sqrt(k * drho)),
    rhor: Array.from({ length: nr }, (_, k) => Math.exp(-k * dr)),
    z2r: Array.from({ length: nr }, (_, k) => Math.max(0, 1 - (k * dr) / cutoff)),
  };
}

function parseError(file: string): { code?: string; message: string; details?: { line?: number } } {
  try {
    new EAM({ file });
  } catch (error) {
    return error as { code?: string; message: string; details?: { line?: number } };
  }
  throw new Error(`${file} was accepted`);
}

describe('EAM grids whose indices leave the 32-bit range', () => {
  it('refuses dr = 1e-9 Å (a cutoff 5e9 table points out) as EAM_PARSE on the grid line', () => {
    const file = writeSetfl(join(scratch, 'tiny-dr.eam.alloy'), tables({ nrho: 20, drho: 0.05, nr: 20, dr: 1e-9, cutoff: 5 }));
    const error = parseError(file);
    expect(error).toMatchObject({ code: 'EAM_PARSE', details: { line: 5 } });
    expect(error.message).toMatch(/dr = 1e-9 with cutoff 5 puts distances at table index 5\.00e\+9/);
  });

  it.each([
    { name: 'Nrho = 1e12', grid: '1000000000000 0.05 20 0.01 5', text: /Nrho = 1000000000000 is more points than a table may hold/ },
    { name: 'Nr = 2^31', grid: '20 0.05 2147483648 0.01 5', text: /Nr = 2147483648 is more points/ },
    { name: 'Nrho = 1e8 in a small file', grid: '100000000 0.05 20 0.01 5', text: /declares \d+ values .* can hold at most \d+/ },
    { name: 'a subnormal drho', grid: '20 1e-320 20 0.01 5', text: /drho = 1e-320 is too small: its inverse overflows/ },
    { name: 'a grid that ends beyond a double', grid: '20 1e307 20 0.01 5', text: /drho = 1e\+307 over 20 points ends beyond the largest double/ },
  ])('refuses $name as EAM_PARSE before allocating anything', ({ grid, text }) => {
    const lines = setflText(tables({ nrho: 20, drho: 0.05, nr: 20, dr: 0.01, cutoff: 5 })).split('\n');
    lines[4] = grid;
    const file = join(scratch, 'grid.eam.alloy');
    writeFileSync(file, lines.join('\n'));
    const error = parseError(file);
    expect(error).toMatchObject({ code: 'EAM_PARSE', details: { line: 5 } });
    expect(error.message).toMatch(text);
  });

  it('refuses more than 32 elements and an element listed twice', () => {
    const lines = setflText(tables({ nrho: 20, drho: 0.05, nr: 20, dr: 0.01, cutoff: 5 })).split('\n');
    writeFileSync(join(scratch, 'many.eam.alloy'), [...lines.slice(0, 3), `33 ${Array(33).fill('Cu').join(' ')}`, ...lines.slice(4)].join('\n'));
    expect(parseError(join(scratch, 'many.eam.alloy')).message).toMatch(/at most 32 elements, got 33/);
    writeFileSync(join(scratch, 'twice.eam.alloy'), [...lines.slice(0, 3), '2 Cu Cu', ...lines.slice(4)].join('\n'));
    expect(parseError(join(scratch, 'twice.eam.alloy'))).toMatchObject({ code: 'EAM_PARSE', message: expect.stringMatching(/element Cu is listed twice/) });
  });

  it('the native layer refuses the same grids itself (INVALID_POTENTIAL), whatever calls it', () => {
    const Native = loadBinding().EAM;
    const make = (grid: number[]): unknown => {
      const [nrho, , nr] = grid;
      try {
        return new Native('setfl', Float64Array.of(29), Float64Array.from(grid), new Float64Array(nrho), new Float64Array(nr), new Float64Array(nr), 1);
      } catch (error) {
        return error;
      }
    };
    expect(make([20, 0.05, 20, 1e-9, 5])).toMatchObject({ code: 'INVALID_POTENTIAL', message: expect.stringMatching(/beyond the 32-bit range/) });
    expect(make([20, 1e-320, 20, 0.01, 5])).toMatchObject({ code: 'INVALID_POTENTIAL', message: expect.stringMatching(/drho/) });
  });

  it('evaluates a density 1e10 table points beyond the grid on the last interval, as LAMMPS does', () => {
    // F is 0 up to its last point, where it is 1: beyond ρmax it continues along the last interval's
    // tangent, F = 1 + (ρ − ρmax)/Δρ. ρ(r) = 1 and no pair term, so each of two atoms has ρ = 1.
    const nrho = 20;
    const drho = 1e-10;
    const file = writeSetfl(join(scratch, 'dense.eam.alloy'), {
      nrho, drho, nr: 50, dr: 0.1, cutoff: 4.5,
      frho: Array.from({ length: nrho }, (_, k) => (k === nrho - 1 ? 1 : 0)),
      rhor: Array(50).fill(1),
      z2r: Array(50).fill(0),
    });
    const batch = Batch.fromSystems([{ symbols: ['Cu', 'Cu'], positions: [[0, 0, 0], [0, 0, 2.5]] }]);
    new EAM({ file }).compute(batch);
    const rhomax = (nrho - 1) * drho;
    const expected = 2 * (1 + (1 - rhomax) / drho);
    expect(Math.abs(batch.energy[0] - expected) / expected).toBeLessThan(1e-9);
  });

  it('hookmd relax --model eam:<tiny dr> exits with EAM_PARSE, not a signal', async () => {
    ensureBuilt();
    const file = writeSetfl(join(scratch, 'cli.eam.alloy'), tables({ nrho: 20, drho: 0.05, nr: 20, dr: 1e-9, cutoff: 5 }));
    await writeExtxyz(join(scratch, 'cu.xyz'), [{ symbols: ['Cu', 'Cu'], positions: [[0, 0, 0], [0, 0, 2.5]] }]);
    const result = await runCli(['relax', 'cu.xyz', '--model', `eam:${file}`, '--out', 'out.xyz'], { cwd: scratch });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/dr = 1e-9 with cutoff 5 puts distances at table index/);
  });
});
