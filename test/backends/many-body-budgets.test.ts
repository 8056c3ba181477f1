// The device budget of the many-body kernel (the many-body-forces family, dark: docs/cuda.md "Many-body
// potentials on the GPU"), held by one test body on `mirror` in CI (it charges what cuda would, from the
// cost table and kernels/DeviceManyBodySchedule.h) and on `cuda` on a GPU (HOOKMD_REQUIRE_CUDA=1 turns the
// skip into a failure). With the family on, a force evaluation is 9 launches and one status read, and an MD
// step moves no per-atom field; with it off, the CPU kernel runs on the host mirrors and every step moves
// positions down and forces up.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { libraryOn, type Hookmd } from '../helpers/library.js';
import { diamond, TERSOFF_SI, writePotential } from './many-body-cases.js';
import { loadCudaBinding, REQUIRE_CUDA } from './support.js';

const cudaAvailable = loadCudaBinding()?.backends().find((entry) => entry.name === 'cuda')?.available === true;
const scratch = mkdtempSync(join(tmpdir(), 'hookmd-many-body-budgets-'));
const file = writePotential(scratch, 'SiGe.tersoff', ['Si', 'Ge'], TERSOFF_SI, [10, 11], 1.04);
const saved = process.env.HOOKMD_CUDA_UNVERIFIED;
afterEach(() => {
  if (saved === undefined) delete process.env.HOOKMD_CUDA_UNVERIFIED;
  else process.env.HOOKMD_CUDA_UNVERIFIED = saved;
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Three 216-atom Si crystals under a two-species Tersoff file (so the species types go up too). */
function setup(hookmd: Hookmd) {
  const model = new hookmd.Tersoff({ file });
  const batch = hookmd.Batch.fromSystems([diamond(hookmd, 1, 3), diamond(hookmd, 2, 3), diamond(hookmd, 3, 3)]);
  return { model, batch };
}

describe.each([
  { backend: 'mirror' as const, skip: false },
  { backend: 'cuda' as const, skip: !cudaAvailable && !REQUIRE_CUDA },
])('many-body budgets on $backend', ({ backend, skip }) => {
  it.skipIf(skip)('a force evaluation: 9 launches and one 40-byte status read; the virial (72 B per system) with stress', async () => {
    process.env.HOOKMD_CUDA_UNVERIFIED = '1';
    const { model, batch } = setup(await libraryOn(backend));
    model.compute(batch);
    batch.resetDeviceStats();
    batch.resetTransferStats();
    model.compute(batch);
    // The compute reads the energies back to check them (one field copy, 8 B per system): that is its second wait.
    expect(batch.deviceStats()).toMatchObject({ launches: 9, hostSyncs: 2, controlToHostBytes: 40, controlToDeviceBytes: 0, graphLaunches: 0 });
    expect(batch.transferStats()).toMatchObject({ toDeviceBytes: 0, toHostBytes: 8 * batch.numSystems });
    batch.resetDeviceStats();
    model.compute(batch, { stress: true });
    expect(batch.deviceStats()).toMatchObject({ launches: 9, controlToHostBytes: 40 + 72 * batch.numSystems, controlToDeviceBytes: 0 });
  }, 120_000);

  it.skipIf(skip)('an NVE step: 11 launches (kick + drift, the evaluation, the closing kick) and 1 host wait, no per-atom field moves', async () => {
    process.env.HOOKMD_CUDA_UNVERIFIED = '1';
    const hookmd = await libraryOn(backend);
    const { model, batch } = setup(hookmd);
    hookmd.initializeVelocities(batch, { temperature: 1000, seed: 1 });
    const md = new hookmd.VelocityVerlet({ model, dt: 1 });
    await md.run(batch, { steps: 1 });
    batch.resetDeviceStats();
    batch.resetTransferStats();
    const steps = 100;
    await md.run(batch, { steps });
    expect(batch.deviceStats()).toMatchObject({ launches: 11 * steps, hostSyncs: steps, controlToHostBytes: 40 * steps, controlToDeviceBytes: 0 });
    const { toDeviceBytes, toHostBytes } = batch.transferStats();
    expect(toDeviceBytes + toHostBytes).toBe(0);
  }, 120_000);

  it.skipIf(skip)('with the family dark, the CPU kernel on the host mirrors moves positions down and forces up every step', async () => {
    process.env.HOOKMD_CUDA_UNVERIFIED = '0';
    const hookmd = await libraryOn(backend);
    const { model, batch } = setup(hookmd);
    hookmd.initializeVelocities(batch, { temperature: 1000, seed: 1 });
    const md = new hookmd.VelocityVerlet({ model, dt: 1 });
    await md.run(batch, { steps: 1 });
    batch.resetTransferStats();
    const steps = 10;
    await md.run(batch, { steps });
    const field = 24 * batch.numAtoms;
    const { toDeviceBytes, toHostBytes } = batch.transferStats();
    expect(toHostBytes).toBeGreaterThanOrEqual(steps * field);
    expect(toDeviceBytes).toBeGreaterThanOrEqual(steps * field);
  }, 120_000);
});
