// A Nosé–Hoover chain only rescales the velocities it is given: from rest it stays near 0 K. A run on a
// system at rest, and a pipeline that hands systems at rest from an optimizer to one, are COLD_START errors
// naming `velocities: { temperature, seed }` and initializeVelocities (issue 39, item 1).
import { describe, expect, it } from 'vitest';

import { ConvergenceHook, FIRE, fuse, initializeVelocities, Langevin, NoseHooverChain, NPT, temperatures } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { ljBatch, ljFcc } from './lj-systems.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });
const COLD = expect.objectContaining({ code: 'COLD_START', message: expect.stringMatching(/velocities: \{ temperature: 1\.5, seed: 1 \}.*initializeVelocities/) });

describe('a Nosé–Hoover thermostat refuses systems at rest (COLD_START)', () => {
  it('run, runSync and step on a batch at rest', async () => {
    const nvt = new NoseHooverChain({ model: lj(), dt: 0.005, temperature: 1.5 });
    await expect(nvt.run(ljBatch([ljFcc(3)]), { steps: 10 })).rejects.toEqual(COLD);
    expect(() => nvt.runSync(ljBatch([ljFcc(3)]), { steps: 10 })).toThrow(COLD);
    expect(() => nvt.step(ljBatch([ljFcc(3)]))).toThrow(COLD);
    const npt = new NPT({ model: lj(), dt: 0.005, temperature: 1.5, pressure: 1 });
    await expect(npt.run(ljBatch([ljFcc(3)]), { steps: 10 })).rejects.toEqual(COLD);
  });

  it('names the system at rest; moving systems and velocities: {…} run', async () => {
    const batch = ljBatch([ljFcc(3), ljFcc(3)]);
    initializeVelocities(batch, { temperature: 1.5, seed: 1 });
    batch.velocities.fill(0, 3 * 108);
    await expect(new NoseHooverChain({ model: lj(), dt: 0.005, temperature: 1.5 }).run(batch, { steps: 1 })).rejects.toMatchObject({ code: 'COLD_START', details: { system: 1 } });
    initializeVelocities(batch, { temperature: 1.5, seed: 1 });
    await new NoseHooverChain({ model: lj(), dt: 0.005, temperature: 1.5 }).run(batch, { steps: 5 });
    const rest = ljBatch([ljFcc(3)]);
    await new NoseHooverChain({ model: lj(), dt: 0.005, temperature: 1.5, velocities: { temperature: 1.5, seed: 1 } }).run(rest, { steps: 5 });
    expect(temperatures(rest)[0]).toBeGreaterThan(0.5);
  });

  it('a FusedStage FIRE → NHC without velocities is refused at construction; with them it heats', async () => {
    const fire = new FIRE({ model: lj(), convergence: ConvergenceHook.fromFmax(0.05) });
    expect(() => fuse(fire, new NoseHooverChain({ model: lj(), dt: 0.005, temperature: 1.5 }))).toThrow(COLD);
    expect(() => fire.andThen(new NoseHooverChain({ model: lj(), dt: 0.005, temperature: 1.5 }))).toThrow(COLD);
    // From a thermostat that heats (Langevin), the chain receives moving systems.
    fuse(new Langevin({ model: lj(), dt: 0.005, temperature: 1.5, friction: 1 }), new NoseHooverChain({ model: lj(), dt: 0.005, temperature: 1.5 }));
    const pipeline = fuse(fire, new NoseHooverChain({ model: lj(), dt: 0.005, temperature: 1.5, velocities: { temperature: 1.5, seed: 1 } })).withBudgets([200, 0]);
    const batch = ljBatch([ljFcc(3)]);
    await pipeline.run(batch, { steps: 300 });
    expect(batch.status[0]).toBe(1);
    expect(temperatures(batch)[0]).toBeGreaterThan(0.3);
  });

  it('a FusedStage whose chain sub-stage holds systems at rest at the start refuses the run', async () => {
    const pipeline = fuse(new NoseHooverChain({ model: lj(), dt: 0.005, temperature: 1.5 }), new Langevin({ model: lj(), dt: 0.005, temperature: 1.5, friction: 1 }));
    await expect(pipeline.run(ljBatch([ljFcc(3)]), { steps: 3 })).rejects.toEqual(COLD);
  });
});
