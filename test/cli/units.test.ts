// Issue 26, item 9: pressures and frictions on the command line and in configs carry a unit. A bare number
// meant bar to LAMMPS metal users and eV/Å³ to ASE users (a factor 1.6e6 apart), and a friction per fs or
// per ps; in metal units it is now a usage error that names the choices. Conversions are checked against
// ASE's units module and LAMMPS's metal-unit constant.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { bulk, repeat } from '../../lib/data/index.js';
import { writeExtxyz } from '../../lib/io/index.js';
import { parseQuantity } from '../../lib/cli/quantity.js';
import { aseSkipReason, runAse } from '../helpers/ase.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';

const ARGON = 'lj:epsilon=0.0104,sigma=3.4,cutoff=8.5';
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  await writeExtxyz(join(dir, 'argon.xyz'), [repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), [2, 2, 2])]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('quantities with units (issue 26, item 9)', () => {
  it.skipIf(aseSkipReason !== '')(`pressure units agree with ASE's units module ${aseSkipReason}`, () => {
    const ase = runAse<Record<string, number>>(`
import json
from ase import units
print(json.dumps({'Pa': units.Pascal, 'GPa': units.GPa, 'bar': units.bar, 'kbar': 1e3 * units.bar, 'atm': 101325 * units.Pascal, 'MPa': 1e6 * units.Pascal}))
`);
    // ASE's constants are CODATA 2014's, ours the exact SI electronvolt: they agree to about 1e-8.
    for (const [unit, value] of Object.entries(ase)) expect(Math.abs(parseQuantity(`2.5 ${unit}`, 'pressure', 'metal', 'p') / (2.5 * value) - 1)).toBeLessThan(2e-8);
  });

  it("1 bar is 1/nktv2p eV/Å³, LAMMPS's metal-unit factor (1.6021765e6)", () => {
    expect(parseQuantity('1bar', 'pressure', 'metal', 'p') * 1.6021765e6).toBeCloseTo(1, 6);
  });

  it('compressibilities are inverse pressures: water 4.5e-5/bar is 72 Å³/eV (issue 39 item 14)', () => {
    expect(parseQuantity('4.5e-5/bar', 'compressibility', 'metal', 'b')).toBeCloseTo(72.1, 1);
    for (const text of ['0.45/GPa', '4.5e-10/Pa', '72.0979A^3/eV', '72.0979 Å³/eV']) expect(parseQuantity(text, 'compressibility', 'metal', 'b')).toBeCloseTo(72.098, 2);
    expect(() => parseQuantity('72', 'compressibility', 'metal', 'b')).toThrow(expect.objectContaining({ code: 'INVALID_UNIT', message: expect.stringMatching(/4\.5e-5\/bar/) }));
    expect(parseQuantity('0.05', 'compressibility', 'lj', 'b')).toBe(0.05);
  });

  it.each([
    ['0.0062415eV/A^3', 0.0062415], ['0.0062415 eV/Å³', 0.0062415], ['0.0062415 eV/Ang^3', 0.0062415], ['-1 GPa', -1 / 160.21766208],
    ['1gpa', 1 / 160.21766208], ['1e-3 kbar', 1e-3 * 1e8 / 1.602176634e11],
  ])('pressure %s', (text, expected) => {
    expect(Math.abs(parseQuantity(text, 'pressure', 'metal', 'pressure') / (expected as number) - 1)).toBeLessThan(2e-8);
  });

  it.each([['0.01/fs', 0.01], ['10/ps', 0.01], ['0.01 fs^-1', 0.01], ['10 1/ps', 0.01], ['1 /fs', 1]])('friction %s', (text, expected) => {
    expect(parseQuantity(text, 'friction', 'metal', 'friction')).toBeCloseTo(expected, 15);
  });

  it('a bare number in metal units is INVALID_UNIT naming the choices', () => {
    expect(() => parseQuantity('1', 'pressure', 'metal', 'pressure')).toThrow(expect.objectContaining({ code: 'INVALID_UNIT', message: expect.stringMatching(/1 has no unit.*1bar.*1GPa.*eV\/A\^3/) }));
    expect(() => parseQuantity(0.01, 'friction', 'metal', 'friction')).toThrow(/0\.01 has no unit; write 0\.01\/fs or 10\/ps/);
    expect(() => parseQuantity('3 psi', 'pressure', 'metal', 'pressure')).toThrow(/unknown pressure unit "psi"; units: eV\/A\^3, Pa, kPa/);
  });

  it('lj units are reduced: a bare number, and no physical unit', () => {
    expect(parseQuantity(1.5, 'pressure', 'lj', 'pressure')).toBe(1.5);
    expect(parseQuantity('2 /tau', 'friction', 'lj', 'friction')).toBe(2);
    expect(() => parseQuantity('1 GPa', 'pressure', 'lj', 'pressure')).toThrow(/lj units are reduced/);
  });
});

describe('the commands take and check units (issue 26, item 9)', () => {
  it('md --pressure 1 (metal units) exits 2 and names the choices', async () => {
    const result = await runCli(['md', 'argon.xyz', '--model', ARGON, '--ensemble', 'npt', '--temperature', '40', '--pressure', '1', '--steps', '2', '--out', 'npt.xyz', '--quiet'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('hookmd: --pressure: 1 has no unit; write 1bar');
  });

  it('md --friction 0.01 (metal units) exits 2; 10/ps and 0.01/fs run the same trajectory', async () => {
    const bare = await runCli(['md', 'argon.xyz', '--model', ARGON, '--ensemble', 'langevin', '--temperature', '40', '--friction', '0.01', '--steps', '2', '--out', 'x.xyz', '--quiet'], { cwd: dir });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('hookmd: --friction: 0.01 has no unit; write 0.01/fs or 10/ps');
    for (const [friction, out] of [['10/ps', 'ps.xyz'], ['0.01/fs', 'fs.xyz']]) {
      const result = await runCli(['md', 'argon.xyz', '--model', ARGON, '--ensemble', 'langevin', '--temperature', '40', '--friction', friction, '--steps', '20', '--seed', '3', '--out', out, '--quiet'], { cwd: dir });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    }
    expect(readFileSync(join(dir, 'ps.xyz'), 'utf8')).toBe(readFileSync(join(dir, 'fs.xyz'), 'utf8'));
  });

  it('relax --cell --pressure 1GPa relaxes to the same cell as 0.00624150907…eV/A^3', async () => {
    for (const [pressure, out] of [['1GPa', 'gpa.xyz'], [`${1e9 / 1.602176634e11}eV/A^3`, 'ev.xyz']]) {
      const result = await runCli(['relax', 'argon.xyz', '--model', ARGON, '--cell', '--pressure', pressure, '--fmax', '1e-3', '--out', out, '--quiet'], { cwd: dir });
      expect(result.code).toBe(0);
    }
    expect(readFileSync(join(dir, 'gpa.xyz'), 'utf8')).toBe(readFileSync(join(dir, 'ev.xyz'), 'utf8'));
  });

  it('a config pressure without a unit is an error at its line', async () => {
    writeFileSync(join(dir, 'npt.yaml'), `model: { type: lj, epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 }
input: argon.xyz
stages:
  - { type: npt, temperature: 40, pressure: 1, steps: 10 }
sinks:
  - { path: out.xyz }
`);
    const result = await runCli(['run', 'npt.yaml', '--quiet'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('hookmd: npt.yaml:4: stages[0].pressure: 1 has no unit; write 1bar');
  });
});

describe('times take fs or ps: --dt, --tdamp, --pdamp (issue 39, item 4)', () => {
  it.each([['2fs', 2], ['0.002ps', 2], ['2 fs', 2], ['2', 2], ['0.1 ps', 100]])('time %s is %d fs', (text, fs) => {
    expect(parseQuantity(text, 'time', 'metal', 'dt')).toBeCloseTo(fs, 12);
  });

  it('lj times are reduced; a unit there, or an unknown one, is INVALID_UNIT', () => {
    expect(parseQuantity('0.005', 'time', 'lj', 'dt')).toBe(0.005);
    expect(parseQuantity('0.005 tau', 'time', 'lj', 'dt')).toBe(0.005);
    expect(() => parseQuantity('2fs', 'time', 'lj', 'dt')).toThrow(/lj units are reduced \(τ\)/);
    expect(() => parseQuantity('2 ns', 'time', 'metal', 'dt')).toThrow(expect.objectContaining({ code: 'INVALID_UNIT', message: expect.stringContaining('units: fs, ps') }));
  });

  it('md --dt 2fs, 0.002ps and 2 run the same trajectory; --tdamp and --pdamp take units', async () => {
    for (const [dt, out] of [['2fs', 'dt-fs.xyz'], ['0.002ps', 'dt-ps.xyz'], ['2', 'dt-bare.xyz']]) {
      const result = await runCli(['md', 'argon.xyz', '--model', ARGON, '--ensemble', 'nhc', '--temperature', '40', '--dt', dt, '--tdamp', '0.1ps', '--steps', '20', '--out', out, '--quiet'], { cwd: dir });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    }
    expect(readFileSync(join(dir, 'dt-ps.xyz'), 'utf8')).toBe(readFileSync(join(dir, 'dt-fs.xyz'), 'utf8'));
    expect(readFileSync(join(dir, 'dt-bare.xyz'), 'utf8')).toBe(readFileSync(join(dir, 'dt-fs.xyz'), 'utf8'));
    const npt = await runCli(['md', 'argon.xyz', '--model', ARGON, '--ensemble', 'npt', '--temperature', '40', '--pressure', '1bar', '--dt', '2fs', '--tdamp', '100fs', '--pdamp', '1ps', '--steps', '5', '--out', 'npt-units.xyz', '--quiet'], { cwd: dir });
    expect(npt.code).toBe(0);
    const bad = await runCli(['md', 'argon.xyz', '--model', ARGON, '--dt', '2xs', '--steps', '2', '--out', 'x.xyz', '--quiet'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('hookmd: --dt: unknown time unit "xs"; units: fs, ps');
    const zero = await runCli(['md', 'argon.xyz', '--model', ARGON, '--dt', '0ps', '--steps', '2', '--out', 'x.xyz', '--quiet'], { cwd: dir });
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--dt: must be > 0');
  });

  it('a bare metal-units dt below 0.05 fs (LAMMPS metal ps read as fs) is warned about', async () => {
    const result = await runCli(['md', 'argon.xyz', '--model', ARGON, '--dt', '0.002', '--steps', '2', '--out', 'short.xyz', '--json'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('warning: --dt 0.002 is 0.002 fs');
    expect(result.stderr).toContain('write 0.002ps');
    expect((JSON.parse(result.stdout) as { warnings: string[] }).warnings.some((w) => w.startsWith('--dt 0.002 is 0.002 fs'))).toBe(true);
    const plain = await runCli(['md', 'argon.xyz', '--model', ARGON, '--dt', '0.002ps', '--steps', '2', '--out', 'short.xyz', '--quiet'], { cwd: dir });
    expect(plain.stderr).toBe('');
  });
});
