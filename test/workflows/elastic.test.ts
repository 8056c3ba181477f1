// elasticConstants against LAMMPS's examples/ELASTIC scripts (Debian's lammps-examples, run here with `lmp`):
// diamond Si with Stillinger–Weber as the example ships, and fcc Cu with Cu_u3.eam in the same scripts, to
// 0.5 % in every constant; and its bad input.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

import { bulk, repeat } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { EAM, StillingerWeber, type Model } from '../../lib/models/index.js';
import { elasticConstants } from '../../lib/workflows/index.js';
import { LAMMPS_POTENTIALS, lammps, lammpsSkipReason } from '../helpers/lammps.js';

const EXAMPLE = '/usr/share/lammps/examples/ELASTIC';
const skip = lammpsSkipReason !== '' || !existsSync(EXAMPLE);

/** Runs the ELASTIC example in a scratch copy, with `edit` applied to each of its files first; its C_ij (GPa). */
function lammpsElastic(edit: (name: string, text: string) => string): Record<string, number> {
  const dir = mkdtempSync(join(tmpdir(), 'hookmd-elastic-'));
  try {
    cpSync(EXAMPLE, dir, { recursive: true });
    for (const name of ['init.mod', 'potential.mod', 'in.elastic']) writeFileSync(join(dir, name), edit(name, readFileSync(join(dir, name), 'utf8')));
    const run = spawnSync(lammps as string, ['-in', 'in.elastic', '-log', 'none'], { cwd: dir, encoding: 'utf8', env: { ...process.env, OMP_NUM_THREADS: '1' } });
    if (run.status !== 0) throw new Error(`lmp failed:\n${run.stdout}\n${run.stderr}`);
    const values: Record<string, number> = {};
    for (const match of run.stdout.matchAll(/Elastic Constant (C\d\d)all = (\S+) GPa/g)) values[match[1] as string] = Number(match[2]);
    return values;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function compare(model: Model, system: System, reference: Record<string, number>): Promise<void> {
  const { C, bulkModulus } = await elasticConstants(model, system);
  const scale = Math.max(...Object.values(reference).map(Math.abs));
  for (const [name, value] of Object.entries(reference)) {
    const i = Number(name[1]) - 1;
    const j = Number(name[2]) - 1;
    expect(Math.abs((C[i] as number[])[j] as number) - value, name).toBeLessThan(0.005 * Math.max(Math.abs(value), 0.01 * scale));
  }
  const b = (reference.C11 + 2 * reference.C12) / 3;
  expect(Math.abs(bulkModulus - b)).toBeLessThan(0.005 * b);
}

describe.skipIf(skip)(`elasticConstants vs LAMMPS examples/ELASTIC ${skip ? '(skipped: no lmp or no lammps-examples; apt-get install lammps lammps-examples)' : ''}`, () => {
  it('diamond Si with Stillinger–Weber, as the example ships', async () => {
    const reference = lammpsElastic((_, text) => text);
    expect(reference.C11).toBeGreaterThan(100);
    await compare(new StillingerWeber({ file: join(LAMMPS_POTENTIALS, 'Si.sw') }), repeat(bulk('Si', 'diamond', { a: 5.43, cubic: true }), [2, 3, 4]), reference);
  });

  it('fcc Cu with Cu_u3.eam in the same scripts', async () => {
    const reference = lammpsElastic((name, text) => {
      if (name === 'init.mod') return text.replace('variable a equal 5.43', 'variable a equal 3.615').replace('lattice         diamond $a', 'lattice         fcc $a').replace(/region\s+box prism 0 2.0 0 3.0 0 4.0/, 'region box prism 0 3.0 0 3.0 0 3.0');
      if (name === 'potential.mod') return text.replace('pair_style\tsw', 'pair_style\team').replace('pair_coeff * * Si.sw Si', `pair_coeff 1 1 ${join(LAMMPS_POTENTIALS, 'Cu_u3.eam')}`);
      return text;
    });
    // Foiles's Cu: C12 near 124 GPa (Si's is 76), so the edited scripts did run copper.
    expect(reference.C12).toBeGreaterThan(110);
    await compare(new EAM({ file: join(LAMMPS_POTENTIALS, 'Cu_u3.eam') }), repeat(bulk('Cu', 'fcc', { a: 3.615, cubic: true }), [3, 3, 3]), reference);
  });
});

describe.skipIf(!existsSync(LAMMPS_POTENTIALS))('elasticConstants input checks', () => {
  const model = new StillingerWeber({ file: join(LAMMPS_POTENTIALS, 'Si.sw') });
  const crystal = bulk('Si', 'diamond', { a: 5.43, cubic: true });
  it.each([
    [{ strain: 0 }, /strain must be a number > 0/],
    [{ strain: 0.5 }, /strain must be a number > 0 and < 0.1/],
    [{ strain: Number.NaN }, /strain must be a number/],
    [{ delta: 1e-3 }, /UNKNOWN_OPTION|did you mean|strain/],
    [{ onProgress: 'bar' }, /onProgress must be a function, got "bar"/],
  ])('%o is refused before any force call', async (options, message) => {
    await expect(elasticConstants(model, crystal, options as never)).rejects.toThrow(message);
  });
  it('a slab or a cluster is INVALID_PBC', async () => {
    await expect(elasticConstants(model, { ...crystal, pbc: [true, true, false] })).rejects.toThrow(expect.objectContaining({ code: 'INVALID_PBC' }));
    await expect(elasticConstants(model, { ...crystal, cell: undefined, pbc: false })).rejects.toThrow(expect.objectContaining({ code: 'INVALID_PBC' }));
    await expect(elasticConstants({} as never, crystal)).rejects.toThrow(expect.objectContaining({ code: 'INVALID_MODEL' }));
  });
});
