// A chunk of steps with no JS hook due runs entirely on the device: over a 1,000-step NVE run of 4,000
// atoms with one JS hook every 100 steps that reads ctx.scalars.temperature, the host/device traffic must
// stay under 1% of one positions copy per step on average. Runs on `mirror` everywhere (it copies exactly
// as cuda does) and on `cuda` where a GPU is present.
import { describe, expect, it, vi } from 'vitest';

import { loadCudaBinding, REQUIRE_CUDA } from './support.js';

type Hookmd = typeof import('../../lib/index.js');

const cudaAvailable = loadCudaBinding()?.backends().find((entry) => entry.name === 'cuda')?.available === true;

async function libraryOn(backend: 'mirror' | 'cuda'): Promise<Hookmd> {
  vi.resetModules();
  const hookmd = await import('../../lib/index.js');
  hookmd.configureNative({ backend });
  return hookmd;
}

describe.each([
  { backend: 'mirror' as const, skip: false },
  { backend: 'cuda' as const, skip: !cudaAvailable && !REQUIRE_CUDA },
])('transfers on $backend', ({ backend, skip }) => {
  it.skipIf(skip)('1,000 NVE steps of 4,000 atoms with a temperature hook every 100 steps move < 1% of a positions copy per step', async () => {
    const hookmd = await libraryOn(backend);
    const a = (4 / 0.8442) ** (1 / 3);
    const crystal = hookmd.repeat(hookmd.bulk('Ar', 'fcc', { a, cubic: true }), [10, 10, 10]);
    const batch = hookmd.Batch.fromSystems([crystal], { units: 'lj' });
    expect(batch.numAtoms).toBe(4000);
    hookmd.initializeVelocities(batch, { temperature: 1.0, seed: 3 });
    const md = new hookmd.VelocityVerlet({ model: new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 }), dt: 0.005 });
    const temperatures: number[] = [];
    md.register({ stage: hookmd.DynamicsStage.AFTER_STEP, frequency: 100, call: (ctx) => { temperatures.push(ctx.scalars.temperature[0]); } });
    // The first run's start-up (positions and velocities to the device) is not part of the budget.
    await md.run(batch, { steps: 1 });
    batch.resetTransferStats();
    await md.run(batch, { steps: 1000 });
    const { toHostBytes, toDeviceBytes } = batch.transferStats();
    const positionsCopy = 3 * 8 * batch.numAtoms;
    expect((toHostBytes + toDeviceBytes) / 1000).toBeLessThan(0.01 * positionsCopy);
    // The hooks really ran and saw a physical temperature (the liquid from a 1.0 start settles near 0.7).
    expect(temperatures).toHaveLength(11);
    for (const t of temperatures) expect(t).toBeGreaterThan(0.3);
  });
});
