// readMlearn on the mlearn DFT sets (test/fixtures/mlearn): pymatgen structures with their DFT energy,
// forces and virial stress (kB, pressure sign) as systems with energy, forces and ASE-sign stress in eV/Å³,
// and typed errors for entries that are not.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { readMlearn } from '../../lib/io/index.js';

const NI = new URL('../fixtures/mlearn/Ni/test.json', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'hookmd-mlearn-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('readMlearn', () => {
  it('reads every entry with its labels in hookmd units and ASE’s sign', () => {
    const raw = JSON.parse(readFileSync(NI, 'utf8')) as { structure: { lattice: { matrix: number[][] }; sites: { xyz: number[] }[] }; outputs: { energy: number; forces: number[][]; virial_stress: number[] }; group: string }[];
    const systems = readMlearn(NI);
    expect(systems).toHaveLength(31);
    systems.forEach((system, k) => {
      const entry = raw[k] as (typeof raw)[number];
      expect(system.positions).toEqual(entry.structure.sites.map((s) => s.xyz));
      expect(system.cell).toEqual(entry.structure.lattice.matrix);
      expect(system.energy).toBe(entry.outputs.energy);
      expect(system.forces).toEqual(entry.outputs.forces);
      expect(system.info?.group).toBe(entry.group);
      // 1 kB = 0.1 GPa = 0.1/160.2177 eV/Å³; compression (P > 0) is negative stress.
      const stress = system.stress as number[][];
      expect(stress[0]?.[0]).toBeCloseTo((-entry.outputs.virial_stress[0]! * 0.1) / 160.21766208, 15);
      expect(stress[2]?.[2]).toBeCloseTo((-entry.outputs.virial_stress[2]! * 0.1) / 160.21766208, 15);
      expect(stress[0]?.[1]).toBe(stress[1]?.[0]);
    });
  });

  it('refuses entries it cannot read, naming the file and the entry', () => {
    const write = (name: string, value: unknown): string => {
      const path = join(scratch, name);
      writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
      return path;
    };
    const good = JSON.parse(readFileSync(NI, 'utf8'))[0];
    expect(() => readMlearn(write('a.json', '{'))).toThrow(expect.objectContaining({ code: 'MLEARN_PARSE', message: expect.stringMatching(/a\.json: not JSON/) }));
    expect(() => readMlearn(write('b.json', { entries: [] }))).toThrow(/expected a JSON array of entries/);
    expect(() => readMlearn(write('c.json', [good, { ...good, outputs: { ...good.outputs, energy: 'x' } }]))).toThrow(/c\.json: entry 1: outputs\.energy must be a finite number/);
    expect(() => readMlearn(write('d.json', [{ ...good, outputs: { ...good.outputs, forces: good.outputs.forces.slice(1) } }]))).toThrow(/entry 0: outputs\.forces must have \d+ rows/);
    expect(() => readMlearn(write('e.json', [{ ...good, structure: { ...good.structure, lattice: { matrix: [[1, 0, 0]] } } }]))).toThrow(/lattice\.matrix must be 3 rows/);
    expect(() => readMlearn(join(scratch, 'missing.json'))).toThrow(expect.objectContaining({ code: 'READ_FAILED' }));
  });
});
