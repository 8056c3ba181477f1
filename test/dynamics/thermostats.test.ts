import { describe, expect, it } from 'vitest';

import { initializeVelocities, Langevin, NoseHooverChain, temperatures } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { ljBatch, ljFcc } from './lj-systems.js';

const TARGET = 1.5;

async function meanTemperature(engine: NoseHooverChain | Langevin): Promise<number> {
  const batch = ljBatch([ljFcc(10)]);
  initializeVelocities(batch, { temperature: TARGET, seed: 3 });
  await engine.run(batch, { steps: 1000 });
  const samples: number[] = [];
  engine.register({ stage: 7, frequency: 10, call: () => { samples.push(temperatures(batch)[0]); } });
  await engine.run(batch, { steps: 3000 });
  return samples.reduce((a, b) => a + b, 0) / samples.length;
}

describe('thermostats hold a 4,000-atom LJ liquid at the target temperature (within 2%)', () => {
  it('Langevin (BAOAB)', async () => {
    const model = new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });
    const mean = await meanTemperature(new Langevin({ model, dt: 0.005, temperature: TARGET, friction: 1, seed: 11 }));
    expect(Math.abs(mean - TARGET) / TARGET).toBeLessThan(0.02);
  });

  it('Nosé–Hoover chain (length 3)', async () => {
    const model = new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });
    const mean = await meanTemperature(new NoseHooverChain({ model, dt: 0.005, temperature: TARGET, tdamp: 0.5 }));
    expect(Math.abs(mean - TARGET) / TARGET).toBeLessThan(0.02);
  });
});
