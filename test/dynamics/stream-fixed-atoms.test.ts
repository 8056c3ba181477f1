// A stream cannot hold fixed atoms (its batches refill; the engines' FixAtoms holds atoms of one batch), so a
// system that fixes some (info.fixed from a POSCAR's selective dynamics) is refused with the way on, where
// `hookmd relax` used to move them as if nothing were fixed.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { FIRE, FixAtoms } from '../../lib/dynamics/index.js';
import { HostMemorySink, readStructures } from '../../lib/io/index.js';
import { EAM } from '../../lib/models/index.js';
import { ensureBuilt, runCli, workDir } from '../cli/run-cli.js';
import { LAMMPS_POTENTIALS } from '../helpers/lammps.js';

const CU = join(LAMMPS_POTENTIALS, 'Cu_u3.eam');
const POSCAR = `Cu slab
1.0
3.615 0 0
0 3.615 0
0 0 10.0
Cu
4
Selective dynamics
Direct
0.0 0.0 0.0 F F F
0.5 0.5 0.0 F F F
0.5 0.0 0.18 T T T
0.0 0.5 0.18 T T T
`;

const dir = workDir('hookmd-fixed-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'POSCAR'), POSCAR);

describe.skipIf(!existsSync(CU))('fixed atoms and streams', () => {
  it('runStream refuses a system with fixed atoms, naming info.fixed and engine.run with FixAtoms', async () => {
    const systems = readStructures(join(dir, 'POSCAR'));
    const fire = new FIRE({ model: new EAM({ file: CU }) });
    await expect(fire.runStream(systems, { sinks: [new HostMemorySink()], maxAtoms: 100 })).rejects.toMatchObject({
      code: 'STREAM_FIXED_ATOMS',
      message: expect.stringMatching(/fixes atoms \(info\.fixed.*constraints: \[FixAtoms\.fromSystems\(systems\)\]/),
    });
  });

  it('the way it names holds them', async () => {
    const systems = readStructures(join(dir, 'POSCAR'));
    const batch = Batch.fromSystems(systems);
    const before = Array.from(batch.positions.subarray(0, 6));
    await new FIRE({ model: new EAM({ file: CU }), constraints: [FixAtoms.fromSystems(systems)] }).run(batch, { steps: 50 });
    expect(Array.from(batch.positions.subarray(0, 6))).toEqual(before);
  });

  it('hookmd relax of a POSCAR with selective dynamics exits with that error instead of moving the fixed atoms', async () => {
    ensureBuilt();
    const result = await runCli(['relax', 'POSCAR', '--model', `eam:${CU}`, '--out', 'out.xyz'], { cwd: dir });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/fixes atoms \(info\.fixed/);
  });
});
