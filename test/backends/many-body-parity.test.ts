// GPU parity of the many-body kernel (the many-body-forces family, dark until this passes on a GPU:
// docs/cuda.md "Dark kernels"): Tersoff, tersoff/mod, tersoff/zbl and Stillinger–Weber on `cuda` against the
// cpu reference, on batches of triclinic crystals, slabs and clusters of one and two species, through a
// compute with stress and a short NVE run. Skips without a usable GPU (HOOKMD_REQUIRE_CUDA=1 makes that a
// failure); the same body runs on `mirror`, which must give cpu's bits exactly.
//
// The potential files are written here (the published Si parameters LAMMPS ships, and two-species files
// made from them), so the test needs no lammps-data on the GPU machine; with lammps-data installed the
// shipped files' batches (many-body-cases.ts) run too.
//
// Tolerances on cuda: the device sums each centre's energy and each atom's force in another order than the
// cpu (its own neighbour order, per-centre energies summed as fixed trees), so energies agree within 1e-12
// of max(|E|, atoms), forces within 1e-11 of the batch's largest |F|, stress within 1e-11 of its largest |σ|,
// and after 10 NVE steps positions within 1e-9 Å.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { System } from '../../lib/data/index.js';
import type { Model } from '../../lib/models/index.js';
import { libraryOn, type Hookmd } from '../helpers/library.js';
import { zincblende } from '../helpers/lammps-compare.js';
import {
  diamond,
  MANY_BODY_CASES,
  potentialsInstalled,
  SW_SI,
  TERSOFF_MOD_SI,
  TERSOFF_SI,
  TERSOFF_ZBL_SI,
  triclinic,
  writePotential,
  type ManyBodyCase,
} from './many-body-cases.js';
import { loadCudaBinding, REQUIRE_CUDA } from './support.js';

const cudaAvailable = loadCudaBinding()?.backends().find((entry) => entry.name === 'cuda')?.available === true;
const scratch = mkdtempSync(join(tmpdir(), 'hookmd-many-body-parity-'));
const saved = process.env.HOOKMD_CUDA_UNVERIFIED;
beforeAll(() => {
  process.env.HOOKMD_CUDA_UNVERIFIED = '1';
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  if (saved === undefined) delete process.env.HOOKMD_CUDA_UNVERIFIED;
  else process.env.HOOKMD_CUDA_UNVERIFIED = saved;
});

const sige = (h: Hookmd, seed: number): System => h.rattle(h.repeat(zincblende('Si', 'Ge', 5.5), [2, 2, 2]), 0.1, seed);
const slab = (system: System): System => ({ ...system, pbc: [true, true, false] });
const cluster = (system: System): System => ({ ...system, cell: undefined, pbc: false });

// Tersoff's cutoff R and D (columns 10, 11) and SW's σ (column 1) are the lengths a second species stretches.
const WRITTEN: ManyBodyCase[] = [
  {
    name: 'tersoff Si (written)',
    model: (h) => new h.Tersoff({ file: writePotential(scratch, 'Si.tersoff', ['Si'], TERSOFF_SI, [], 1) }),
    systems: (h) => [triclinic(diamond(h, 21)), slab(diamond(h, 22)), cluster(diamond(h, 23, 1)), diamond(h, 24, 1)],
  },
  {
    name: 'tersoff SiGe, two species (written)',
    model: (h) => new h.Tersoff({ file: writePotential(scratch, 'SiGe.tersoff', ['Si', 'Ge'], TERSOFF_SI, [10, 11], 1.04) }),
    systems: (h) => [triclinic(sige(h, 25)), cluster(sige(h, 26)), diamond(h, 27)],
  },
  {
    name: 'tersoff/mod Si (written)',
    model: (h) => new h.Tersoff({ file: writePotential(scratch, 'Si.tersoff.mod', ['Si'], TERSOFF_MOD_SI, [], 1), style: 'mod' }),
    systems: (h) => [triclinic(diamond(h, 28)), cluster(diamond(h, 29, 1))],
  },
  {
    name: 'tersoff/zbl Si, compressed (written)',
    model: (h) => new h.Tersoff({ file: writePotential(scratch, 'Si.tersoff.zbl', ['Si'], TERSOFF_ZBL_SI, [], 1), style: 'zbl' }),
    systems: (h) => [triclinic(h.rattle(h.repeat(h.bulk('Si', 'diamond', { a: 4.6, cubic: true }), [2, 2, 2]), 0.15, 30))],
  },
  {
    name: 'sw Si (written)',
    model: (h) => new h.StillingerWeber({ file: writePotential(scratch, 'Si.sw', ['Si'], SW_SI, [], 1) }),
    systems: (h) => [triclinic(diamond(h, 31)), slab(diamond(h, 32)), cluster(diamond(h, 33, 1)), diamond(h, 34, 3)],
  },
  {
    name: 'sw SiGe, two species (written)',
    model: (h) => new h.StillingerWeber({ file: writePotential(scratch, 'SiGe.sw', ['Si', 'Ge'], SW_SI, [1], 1.04) }),
    systems: (h) => [triclinic(sige(h, 35)), slab(sige(h, 36))],
  },
];
const CASES = [...WRITTEN, ...(potentialsInstalled ? MANY_BODY_CASES : [])];

interface Run {
  energy: Float64Array;
  forces: Float64Array;
  stress: Float64Array;
  positions: Float64Array;
  /** Launches of the first compute on the device ledger. */
  launches: number;
  atoms: number;
}

async function run(hookmd: Hookmd, c: ManyBodyCase): Promise<Run> {
  const model: Model = c.model(hookmd);
  const batch = hookmd.Batch.fromSystems(c.systems(hookmd));
  batch.resetDeviceStats();
  model.compute(batch, { stress: true });
  const launches = batch.deviceStats().launches;
  const out = {
    energy: Float64Array.from(batch.read('energy')),
    forces: Float64Array.from(batch.read('forces')),
    stress: Float64Array.from(batch.read('stress')),
  };
  hookmd.initializeVelocities(batch, { temperature: 800, seed: 4 });
  await new hookmd.VelocityVerlet({ model, dt: 1 }).run(batch, { steps: 10 });
  return { ...out, positions: Float64Array.from(batch.read('positions')), launches, atoms: batch.numAtoms };
}

const bits = (values: Float64Array): string => Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString('hex');
const largest = (values: Float64Array): number => values.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
const difference = (a: Float64Array, b: Float64Array): number => a.reduce((m, v, k) => Math.max(m, Math.abs(v - (b[k] as number))), 0);

describe.each([
  { backend: 'mirror' as const, skip: false },
  { backend: 'cuda' as const, skip: !cudaAvailable && !REQUIRE_CUDA },
])('many-body kernel on $backend against cpu', ({ backend, skip }) => {
  it.skipIf(skip).each(CASES)('$name', async (c) => {
    const cpu = await run(await libraryOn('cpu'), c);
    const device = await run(await libraryOn(backend), c);
    // The device kernel ran (its evaluation is 9 launches), not the CPU fallback on the host mirrors.
    expect(device.launches).toBeGreaterThanOrEqual(9);
    if (backend === 'mirror') {
      for (const key of ['energy', 'forces', 'stress', 'positions'] as const) expect(bits(device[key]), key).toBe(bits(cpu[key]));
      return;
    }
    expect(difference(device.energy, cpu.energy)).toBeLessThanOrEqual(1e-12 * Math.max(largest(cpu.energy), cpu.atoms));
    expect(difference(device.forces, cpu.forces)).toBeLessThanOrEqual(1e-11 * Math.max(largest(cpu.forces), 1));
    expect(difference(device.stress, cpu.stress)).toBeLessThanOrEqual(1e-11 * Math.max(largest(cpu.stress), 1e-3));
    expect(difference(device.positions, cpu.positions)).toBeLessThanOrEqual(1e-9);
  }, 300_000);
});
