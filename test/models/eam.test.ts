// EAM on its own terms: forces and stress equal finite differences of the energy, a batch equals its
// systems alone, threads change nothing, dynamics conserve energy, the copper potential's equilibrium
// matches its file header, and every malformed input gets a typed error naming the file and line.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, repeat } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { initializeVelocities, VelocityVerlet } from '../../lib/dynamics/index.js';
import { EAM } from '../../lib/models/index.js';
import { getThreads, setThreads } from '../../lib/native/index.js';
import { LAMMPS_POTENTIALS } from '../helpers/lammps.js';
import { finiteDifferenceForces, finiteDifferenceStress } from './finite-difference.js';
import { maxAbs, maxDifference, randomCluster } from './reference.js';

const potential = (name: string): string => join(LAMMPS_POTENTIALS, name);
const hasPotentials = (() => {
  try {
    readFileSync(potential('Cu_u3.eam'));
    return true;
  } catch {
    return false;
  }
})();
const scratch = mkdtempSync(join(tmpdir(), 'hookmd-eam-'));

function alloy(symbols: string[], seed: number): System {
  const crystal = rattle(repeat(bulk('Al', 'fcc', { a: 4.05, cubic: true }), [2, 2, 2]), 0.08, seed);
  const cell = crystal.cell as number[][];
  // A sheared cell, so the triclinic images are exercised too.
  cell[2] = [0.9, -0.6, (cell[2] as number[])[2] as number];
  return { ...crystal, atomicNumbers: undefined, symbols: (crystal.positions as number[][]).map((_, i) => symbols[(i * 7 + seed) % symbols.length] as string), cell };
}

describe.skipIf(!hasPotentials)(`EAM ${hasPotentials ? '' : '(skipped: no /usr/share/lammps/potentials; apt-get install lammps-data)'}`, () => {
  afterAll(() => setThreads(getThreads()));

  it.each([
    { file: 'Cu_u3.eam', symbols: ['Cu'] },
    { file: 'AlCu.eam.alloy', symbols: ['Al', 'Cu'] },
    { file: 'AlFe_mm.eam.fs', symbols: ['Al', 'Fe'] },
  ])('$file: forces and stress equal finite differences of the energy', ({ file, symbols }) => {
    const model = new EAM({ file: potential(file) });
    const periodic = alloy(symbols, 3);
    const cluster: System = { symbols: Array.from({ length: 19 }, (_, i) => symbols[i % symbols.length] as string), positions: randomCluster(19, 7, 2.3, 5) };
    const batch = Batch.fromSystems([periodic, cluster]);
    model.compute(batch, { stress: true });
    const forces = Float64Array.from(batch.forces);
    const stress = Array.from(batch.stress.subarray(0, 9));
    const numeric = finiteDifferenceForces(model, batch, 1e-5);
    expect(maxDifference(forces, numeric)).toBeLessThan(1e-6 * Math.max(1, maxAbs(forces)));
    const numericStress = finiteDifferenceStress(model, batch, 0, 1e-6);
    expect(maxDifference(stress, numericStress)).toBeLessThan(1e-6 * Math.max(1e-3, maxAbs(stress)));
  });

  it('gives each system of a batch what it gets alone', () => {
    const model = new EAM({ file: potential('AlCu.eam.alloy') });
    const systems = [alloy(['Al', 'Cu'], 1), alloy(['Cu'], 2), alloy(['Al'], 4)];
    const batch = Batch.fromSystems(systems);
    model.compute(batch, { stress: true });
    let atom = 0;
    systems.forEach((system, s) => {
      const alone = Batch.fromSystems([system]);
      new EAM({ file: potential('AlCu.eam.alloy') }).compute(alone, { stress: true });
      expect(batch.energy[s]).toBeCloseTo(alone.energy[0], 10);
      expect(maxDifference(batch.forces.subarray(3 * atom, 3 * (atom + alone.numAtoms)), alone.forces)).toBeLessThan(1e-11);
      expect(maxDifference(batch.stress.subarray(9 * s, 9 * s + 9), alone.stress)).toBeLessThan(1e-12);
      atom += alone.numAtoms;
    });
  });

  it('gives a large system the same energy, forces and stress on 1 and 2 threads', () => {
    const system = rattle(repeat(bulk('Cu', 'fcc', { a: 3.615, cubic: true }), [8, 8, 8]), 0.05, 9);
    const run = (threads: number) => {
      setThreads(threads);
      const batch = Batch.fromSystems([system]);
      new EAM({ file: potential('Cu_u3.eam') }).compute(batch, { stress: true });
      return { energy: batch.energy[0], forces: Float64Array.from(batch.forces), stress: Float64Array.from(batch.stress) };
    };
    const one = run(1);
    const two = run(2);
    expect(Math.abs(one.energy - two.energy)).toBeLessThan(1e-11 * Math.abs(one.energy));
    expect(maxDifference(one.forces, two.forces)).toBeLessThan(1e-12);
    expect(maxDifference(one.stress, two.stress)).toBeLessThan(1e-14);
  });

  it('conserves energy in NVE (velocity Verlet, 1 fs)', async () => {
    const batch = Batch.fromSystems([repeat(bulk('Cu', 'fcc', { a: 3.615, cubic: true }), [3, 3, 3])]);
    initializeVelocities(batch, { temperature: 600, seed: 3 });
    const model = new EAM({ file: potential('Cu_u3.eam') });
    const total = (): number => {
      model.compute(batch);
      let kinetic = 0;
      for (let k = 0; k < batch.velocities.length; k++) kinetic += 0.5 * batch.masses[Math.floor(k / 3)] * batch.velocities[k] ** 2;
      return batch.energy[0] + kinetic / 9.648533212e-3;
    };
    const before = total();
    await new VelocityVerlet({ model, dt: 1 }).run(batch, { steps: 500 });
    expect(Math.abs(total() - before)).toBeLessThan(2e-3);
  });

  it("has Cu_u3.eam's equilibrium at the header's lattice constant and its −3.54 eV cohesive energy", () => {
    const model = new EAM({ file: potential('Cu_u3.eam') });
    const energyAt = (a: number): number => {
      const batch = Batch.fromSystems([bulk('Cu', 'fcc', { a, cubic: true })]);
      model.compute(batch, { forces: false });
      return batch.energy[0] / 4;
    };
    // Golden-section search for the minimum of E(a).
    let [lo, hi] = [3.5, 3.7];
    const g = (Math.sqrt(5) - 1) / 2;
    for (let k = 0; k < 60; k++) {
      const x1 = hi - g * (hi - lo);
      const x2 = lo + g * (hi - lo);
      if (energyAt(x1) < energyAt(x2)) hi = x2;
      else lo = x1;
    }
    const a0 = (lo + hi) / 2;
    const header = Number((readFileSync(potential('Cu_u3.eam'), 'utf8').split('\n')[1] ?? '').trim().split(/\s+/)[2]);
    expect(header).toBe(3.615);
    expect(Math.abs(a0 - header)).toBeLessThan(2e-3);
    // Foiles, Baskes and Daw (PRB 33, 7983, 1986) fit Cu's cohesive energy, 3.54 eV.
    expect(energyAt(a0)).toBeCloseTo(-3.54, 3);
  });

  it('refuses an element the file does not describe, naming the atom and what the file covers', () => {
    const batch = Batch.fromSystems([{ symbols: ['Cu', 'Ni'], positions: [[0, 0, 0], [0, 0, 2.5]] }]);
    expect(() => new EAM({ file: potential('Cu_u3.eam') }).compute(batch)).toThrow(
      expect.objectContaining({ code: 'MISSING_SPECIES', message: expect.stringMatching(/atom 1 of system 0 is Ni .*covers Cu/) }),
    );
  });

  describe('malformed files', () => {
    const write = (name: string, text: string): string => {
      const file = join(scratch, name);
      writeFileSync(file, text);
      return file;
    };
    const funcfl = readFileSync(potential('Cu_u3.eam'), 'utf8').split('\n');
    const setfl = readFileSync(potential('AlCu.eam.alloy'), 'utf8').split('\n');

    it.each([
      { name: 'a bad number', file: () => write('bad.eam', [...funcfl.slice(0, 6), ' 1.0 abc 2.0', ...funcfl.slice(7)].join('\n')), line: 7, text: /expected a number in F\(rho\).*got 'abc'/ },
      { name: 'a truncated table', file: () => write('short.eam', funcfl.slice(0, 150).join('\n')), line: 150, text: /the file ends inside Z\(r\)/ },
      { name: 'a bad grid line', file: () => write('grid.eam', [...funcfl.slice(0, 2), '500 0.1 -3 0.01 4.95', ...funcfl.slice(3)].join('\n')), line: 3, text: /Nr must be an integer >= 5/ },
      { name: 'an unknown element', file: () => write('el.eam.alloy', [...setfl.slice(0, 3), '2 Al Qq', ...setfl.slice(4)].join('\n')), line: 4, text: /'Qq' is not an element symbol/ },
      { name: 'extra values', file: () => write('extra.eam', [...funcfl, '1 2 3'].join('\n')), line: funcfl.length + 1, text: /unexpected values/ },
    ])('$name: EAM_PARSE with the file and line', ({ file, line, text }) => {
      const path = file();
      let error: unknown;
      try {
        new EAM({ file: path });
      } catch (caught) {
        error = caught;
      }
      expect(error).toMatchObject({ code: 'EAM_PARSE', details: { file: path, line } });
      expect((error as Error).message).toMatch(text);
      expect((error as Error).message).toContain(`${path}:${line}:`);
    });

    it('a missing file is READ_FAILED; bad options are typed errors', () => {
      expect(() => new EAM({ file: join(scratch, 'nope.eam') })).toThrow(expect.objectContaining({ code: 'READ_FAILED' }));
      expect(() => new EAM({ file: potential('Cu_u3.eam'), format: 'tersoff' as never })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
      expect(() => new EAM({ file: potential('Cu_u3.eam'), skin: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_SKIN' }));
      expect(() => new EAM({ file: potential('Cu_u3.eam'), cutoff: 3 } as never)).toThrow(expect.objectContaining({ code: 'UNKNOWN_OPTION' }));
    });

    it('reads a setfl file under any name by its content, and honours an explicit format', () => {
      const renamed = write('alcu.txt', setfl.join('\n'));
      expect(new EAM({ file: renamed }).format).toBe('setfl');
      const fs = write('alfe.txt', readFileSync(potential('AlFe_mm.eam.fs'), 'utf8'));
      expect(new EAM({ file: fs }).format).toBe('fs');
      expect(new EAM({ file: write('cu.txt', funcfl.join('\n')) }).format).toBe('funcfl');
      // Read as setfl, a Finnis–Sinclair file leaves values over.
      expect(() => new EAM({ file: fs, format: 'setfl' })).toThrow(expect.objectContaining({ code: 'EAM_PARSE' }));
    });
  });
});
