// The many-body kernel on the emulated device (the many-body-forces family, dark: docs/cuda.md "Dark
// kernels"): with HOOKMD_CUDA_UNVERIFIED=1 `mirror` runs it on its "device" arrays and charges what cuda's
// kernel would; without, both device backends run the CPU kernel on the host mirrors. Either way the results
// equal cpu's bit for bit: compute with stress, NVE, and FIRE whose systems converge at different steps (so
// later computes evaluate only some systems).
import { afterEach, describe, expect, it } from 'vitest';

import { libraryOn, type Hookmd } from '../helpers/library.js';
import { MANY_BODY_CASES, potentialsInstalled, type ManyBodyCase } from './many-body-cases.js';

function bits(values: ArrayLike<number>): string {
  return Buffer.from(Float64Array.from(values).buffer).toString('hex');
}

interface Outcome {
  results: Record<string, string>;
  /** Launches the first compute charged to the device ledger. */
  launches: number;
}

async function scenario(hookmd: Hookmd, c: ManyBodyCase): Promise<Outcome> {
  const model = c.model(hookmd);
  const batch = hookmd.Batch.fromSystems(c.systems(hookmd));
  batch.resetDeviceStats();
  model.compute(batch, { stress: true });
  const launches = batch.deviceStats().launches;
  const results: Record<string, string> = {
    energy: bits(batch.read('energy')),
    forces: bits(batch.read('forces')),
    stress: bits(batch.read('stress')),
  };
  hookmd.initializeVelocities(batch, { temperature: 800, seed: 3 });
  await new hookmd.VelocityVerlet({ model, dt: 1 }).run(batch, { steps: 10 });
  results.nvePositions = bits(batch.read('positions'));
  results.nveEnergy = bits(batch.read('energy'));
  const relax = hookmd.Batch.fromSystems(c.systems(hookmd));
  await new hookmd.FIRE({ model, convergence: hookmd.ConvergenceHook.fromFmax(0.5) }).run(relax, { steps: 60 });
  results.firePositions = bits(relax.read('positions'));
  results.fireForces = bits(relax.read('forces'));
  results.fireStatus = bits(relax.read('status'));
  return { results, launches };
}

const saved = process.env.HOOKMD_CUDA_UNVERIFIED;
afterEach(() => {
  if (saved === undefined) delete process.env.HOOKMD_CUDA_UNVERIFIED;
  else process.env.HOOKMD_CUDA_UNVERIFIED = saved;
});

describe.skipIf(!potentialsInstalled)('many-body kernel on mirror', () => {
  describe.each([
    { family: 'on', unverified: '1' },
    { family: 'off', unverified: '0' },
  ])('family $family (HOOKMD_CUDA_UNVERIFIED=$unverified)', ({ unverified }) => {
    it.each(MANY_BODY_CASES)('$name: a batch of sizes, chemistries and boundaries equals cpu bit for bit', async (c) => {
      process.env.HOOKMD_CUDA_UNVERIFIED = unverified;
      const cpu = await scenario(await libraryOn('cpu'), c);
      const mirror = await scenario(await libraryOn('mirror'), c);
      for (const key of Object.keys(cpu.results)) expect(mirror.results[key], key).toBe(cpu.results[key]);
      expect(cpu.launches).toBe(0);
      // The device kernel's evaluation (9 launches, more where a row grew); without it nothing runs on the device.
      if (unverified === '1') expect(mirror.launches).toBeGreaterThanOrEqual(9);
      else expect(mirror.launches).toBe(0);
    }, 120_000);
  });
});
