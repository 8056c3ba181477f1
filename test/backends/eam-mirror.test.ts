// EAM on the emulated device: no device backend implements the EAM kernel, so Backend::arraysFor hands the
// CPU reference the host mirrors (the fall-through a CUDA build takes too). Results must equal cpu's bit
// for bit, through compute and through the native stepping loop.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { LAMMPS_POTENTIALS } from '../helpers/lammps.js';
import { libraryOn, type Hookmd } from '../helpers/library.js';


function bits(values: ArrayLike<number>): string {
  return Buffer.from(Float64Array.from(values).buffer).toString('hex');
}

async function scenario(hookmd: Hookmd): Promise<Record<string, string>> {
  const model = new hookmd.EAM({ file: `${LAMMPS_POTENTIALS}/AlCu.eam.alloy` });
  const crystal = hookmd.rattle(hookmd.repeat(hookmd.bulk('Cu', 'fcc', { a: 3.615, cubic: true }), [3, 3, 3]), 0.05, 2);
  const alloy = { ...crystal, atomicNumbers: (crystal.atomicNumbers as number[]).map((z, i) => (i % 3 === 0 ? 13 : z)) };
  const batch = hookmd.Batch.fromSystems([crystal, alloy]);
  model.compute(batch, { stress: true });
  const out: Record<string, string> = { energy: bits(batch.read('energy')), forces: bits(batch.read('forces')), stress: bits(batch.read('stress')) };
  hookmd.initializeVelocities(batch, { temperature: 600, seed: 1 });
  // A host write between runs must reach the kernel: the mirror syncs it to its "device" arrays first.
  await new hookmd.VelocityVerlet({ model, dt: 1 }).run(batch, { steps: 30 });
  batch.positions[0] += 0.01;
  await new hookmd.VelocityVerlet({ model, dt: 1 }).run(batch, { steps: 30 });
  out.positions = bits(batch.read('positions'));
  out.nveEnergy = bits(batch.read('energy'));
  return out;
}

describe.skipIf(!existsSync(LAMMPS_POTENTIALS))('EAM on the mirror backend', () => {
  it('equals cpu bit for bit (compute and NVE)', async () => {
    const cpu = await scenario(await libraryOn('cpu'));
    const mirror = await scenario(await libraryOn('mirror'));
    for (const key of Object.keys(cpu)) expect(mirror[key], key).toBe(cpu[key]);
  });
});
