// The potentials read from LAMMPS files (EAM, Tersoff, Stillinger–Weber) on the emulated device: EAM has no
// device kernel, and Tersoff's and Stillinger–Weber's is dark unless HOOKMD_CUDA_UNVERIFIED=1, so
// Backend::arraysFor hands the CPU reference the host mirrors (the fall-through a CUDA build takes too);
// many-body-mirror-parity.test.ts runs the dark kernel's twin. Results must equal cpu's bit for bit, through
// compute and through the native stepping loop.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { LAMMPS_POTENTIALS } from '../helpers/lammps.js';
import { libraryOn, type Hookmd } from '../helpers/library.js';

function bits(values: ArrayLike<number>): string {
  return Buffer.from(Float64Array.from(values).buffer).toString('hex');
}

interface Case {
  name: string;
  model: (hookmd: Hookmd) => InstanceType<Hookmd['EAM'] | Hookmd['Tersoff'] | Hookmd['StillingerWeber']>;
  /** Two systems: a crystal and an alloy of it, at the given lattice and with `other` on every third site. */
  crystal: { symbol: string; other: number; structure: 'fcc' | 'diamond'; a: number; repeat: number };
}

const CASES: Case[] = [
  {
    name: 'EAM (AlCu.eam.alloy)',
    model: (h) => new h.EAM({ file: `${LAMMPS_POTENTIALS}/AlCu.eam.alloy` }),
    crystal: { symbol: 'Cu', other: 13, structure: 'fcc', a: 3.615, repeat: 3 },
  },
  {
    name: 'Tersoff (SiC.tersoff)',
    model: (h) => new h.Tersoff({ file: `${LAMMPS_POTENTIALS}/SiC.tersoff` }),
    crystal: { symbol: 'Si', other: 6, structure: 'diamond', a: 5.432, repeat: 2 },
  },
  {
    name: 'Stillinger–Weber (GaN.sw)',
    model: (h) => new h.StillingerWeber({ file: `${LAMMPS_POTENTIALS}/GaN.sw` }),
    crystal: { symbol: 'Ga', other: 7, structure: 'diamond', a: 4.5, repeat: 2 },
  },
];

async function scenario(hookmd: Hookmd, c: Case): Promise<Record<string, string>> {
  const model = c.model(hookmd);
  const { symbol, other, structure, a, repeat } = c.crystal;
  const crystal = hookmd.rattle(hookmd.repeat(hookmd.bulk(symbol, structure, { a, cubic: true }), [repeat, repeat, repeat]), 0.05, 2);
  const alloy = { ...crystal, atomicNumbers: (crystal.atomicNumbers as number[]).map((z, i) => (i % 3 === 0 ? other : z)) };
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

describe.skipIf(!existsSync(LAMMPS_POTENTIALS))('potentials from LAMMPS files on the mirror backend', () => {
  it.each(CASES)('$name equals cpu bit for bit (compute and NVE)', async (c) => {
    const cpu = await scenario(await libraryOn('cpu'), c);
    const mirror = await scenario(await libraryOn('mirror'), c);
    for (const key of Object.keys(cpu)) expect(mirror[key], key).toBe(cpu[key]);
  });
});
