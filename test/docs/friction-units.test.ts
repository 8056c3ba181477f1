// Issue 39, item 5: Langevin's friction is per fs, ASE's per ASE time unit (Å·√(amu/eV)). The docs and the
// option's TSDoc must say so with the factor, and the factor must be ASE's own 1/units.fs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { aseSkipReason, runAse } from '../helpers/ase.js';
import { ROOT } from '../cli/run-cli.js';

const page = readFileSync(join(ROOT, 'docs/dynamics.md'), 'utf8').replace(/\s+/g, ' ');

describe('Langevin friction units against ASE (issue 39, item 5)', () => {
  it('docs/dynamics.md and the TSDoc of friction give the conversion, and do not call it ASE\'s friction', () => {
    expect(page).not.toMatch(/1\/fs \/ 1\/τ \(ASE's `friction`\)/);
    expect(page).toContain("ASE's `friction=0.01` is `friction: 0.01 / 10.1805`");
    expect(page).toContain('10.180505671156725');
    for (const file of ['lib/dynamics/integrators/langevin.ts', 'lib/dynamics/integrators/npt-langevin.ts']) {
      expect(readFileSync(join(ROOT, file), 'utf8').replace(/\s+\*?\s*/g, ' ')).toContain("ASE's `friction=f` is `friction: f / 10.1805` here");
    }
  });

  it.skipIf(aseSkipReason !== '')(`the factor is 1 / ase.units.fs ${aseSkipReason}`, () => {
    const factor = runAse<number>('from ase import units\nprint(1 / units.fs)');
    expect(factor).toBeCloseTo(10.180505671156725, 12);
    expect(factor).toBeCloseTo(10.1805, 4);
  });
});
