// The shipped Zuo et al. SNAP and quadratic SNAP against the DFT test sets they were made for (mlearn,
// test/fixtures/mlearn): hookmd's energy of every structure equals the reference LAMMPS's
// (test/fixtures/snap/mlearn-lammps.json, bench/reference-lammps/mlearn-reference.mjs), and so do the energy
// and force MAEs against DFT, which are the figures issue 42 quotes from that LAMMPS.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { readMlearn } from '../../lib/io/index.js';
import { SNAP } from '../../lib/models/index.js';
import { modelErrors } from '../../lib/training/index.js';
import { LAMMPS_POTENTIALS } from '../helpers/lammps.js';

interface Row {
  element: string;
  potential: string;
  energyMAE: number;
  forceMAE: number;
  energies: number[];
}
const reference = JSON.parse(readFileSync(new URL('../fixtures/snap/mlearn-lammps.json', import.meta.url), 'utf8')) as { results: Row[] };
// meV/atom, linear and quadratic, as issue 42 quotes the reference LAMMPS, to two decimals (its Ni qSNAP 0.79 is
// that LAMMPS's 0.7845, rounded up).
const QUOTED: Record<string, [number, number]> = { Ni: [0.78, 0.79], Cu: [0.53, 0.56], Li: [1.03, 0.73], Mo: [5.48, 2.77], Si: [6.44, 3.81], Ge: [6.59, 6.45] };
const available = existsSync(join(LAMMPS_POTENTIALS, 'Ni_Zuo_JPCA2020.snap'));

describe.skipIf(!available)('Zuo et al. SNAP and qSNAP on the mlearn DFT test sets', () => {
  it.each(reference.results.map((row) => [row.potential, row] as const))('%s: the energies and MAEs of the reference LAMMPS', async (_, row) => {
    const systems = readMlearn(new URL(`../fixtures/mlearn/${row.element}/test.json`, import.meta.url).pathname);
    const errors = await modelErrors(SNAP.fromLammps(join(LAMMPS_POTENTIALS, row.potential)), systems);
    row.energies.forEach((e, k) => expect(Math.abs((errors.energies[k] as number) - e) / Math.abs(e)).toBeLessThan(1e-8));
    expect(errors.energyMae * 1000).toBeCloseTo(row.energyMAE, 6);
    expect(errors.forcesMae).toBeCloseTo(row.forceMAE, 7);
    const quoted = (QUOTED[row.element] as [number, number])[row.potential.includes('quadratic') ? 1 : 0];
    expect(Math.abs(errors.energyMae * 1000 - quoted)).toBeLessThan(0.01);
  });
});
