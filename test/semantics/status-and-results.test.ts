// Issue 13, items 1, 2 and 14: status from one engine to the next, results valid or absent, and runs
// whose numbers blow up (issue 39 item 13: also atoms flung out of reach, with the time step).
import { describe, expect, it } from 'vitest';

import { at, Batch, bulk, ConvergenceHook, DynamicsStage, FIRE, Langevin, LennardJones, SnapshotHook, VelocityVerlet, HostMemorySink, initializeVelocities, rattle, repeat } from '../../lib/index.js';
import type { DynamicsHookContext } from '../../lib/index.js';
import { ljBatch, perturbedLj13 } from '../dynamics/lj-systems.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });

describe('status carries from one engine to the next (item 1)', () => {
  it('relax with FIRE, then Langevin runs every step asked for', async () => {
    const batch = ljBatch([perturbedLj13(0.1), perturbedLj13(0.1, 2)]);
    const fire = new FIRE({ model: lj(), convergence: ConvergenceHook.fromFmax(1e-2) });
    await fire.run(batch, { steps: 1000 });
    expect(Array.from(batch.read('status'))).toEqual([1, 1]);
    const md = new Langevin({ model: lj(), dt: 0.002, temperature: 0.1, friction: 1, seed: 1 });
    const result = await md.run(batch, { steps: 50 });
    expect(result.steps).toBe(50);
    expect(result.activeAtStart).toBe(2);
  });

  it('a run with nothing active takes no step and says so', async () => {
    const batch = ljBatch([perturbedLj13(0.1)]);
    const fire = new FIRE({ model: lj(), convergence: ConvergenceHook.fromFmax(1e-2) });
    await fire.run(batch, { steps: 1000 });
    const again = await fire.run(batch, { steps: 100 });
    expect(again).toMatchObject({ steps: 0, activeAtStart: 0 });
    const kept = await new Langevin({ model: lj(), dt: 0.002, temperature: 0.1, friction: 1 }).run(batch, { steps: 10, keepStatus: true });
    expect(kept).toMatchObject({ steps: 0, activeAtStart: 0 });
  });
});

describe('results are valid or absent (item 2)', () => {
  const strained = (): Batch => Batch.fromSystems([bulk('Ar', 'fcc', { a: 1.5, cubic: true })], { units: 'lj' });
  const model = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });

  it('a run that never computed the stress leaves it out; energy and forces stay', async () => {
    const batch = strained();
    initializeVelocities(batch, { temperature: 0.5, seed: 1 });
    await new VelocityVerlet({ model: model(), dt: 0.001 }).run(batch, { steps: 5 });
    const [system] = batch.toSystems();
    expect(system.stress).toBeUndefined();
    expect(system.energy).toBeTypeOf('number');
    expect(system.forces).toHaveLength(4);
    batch.positions[0] += 0.01;
    expect(batch.toSystems()[0].forces).toBeUndefined();
  });

  it('a hook that needs the stress gets the stress of the positions it sees', async () => {
    const batch = strained();
    initializeVelocities(batch, { temperature: 0.5, seed: 1 });
    const sink = Object.assign(new HostMemorySink(), { needs: ['stress'] as const });
    const md = new VelocityVerlet({ model: model(), dt: 0.001, hooks: [new SnapshotHook({ sink, frequency: 3 })] });
    await md.run(batch, { steps: 4 });
    const snapshots = sink.read();
    // Steps 0 (the input), 3 and 4 (the last).
    expect(snapshots.map((snapshot) => snapshot.info?.step)).toEqual([0, 3, 4]);
    for (const snapshot of snapshots) {
      const check = Batch.fromSystems([{ ...snapshot, stress: undefined, energy: undefined, forces: undefined }], { units: 'lj' });
      model().compute(check, { stress: true });
      const expected = Array.from(check.read('stress'));
      Array.from(snapshot.stress as number[][]).flat().forEach((value, k) => expect(value).toBeCloseTo(expected[k], 10));
      expect((snapshot.stress as number[][])[0][0]).not.toBe(0);
    }
  });
});

describe('numbers that blow up (item 14)', () => {
  it('names the system, the step and the cause: overlapping atoms keep their own code and the pair', async () => {
    const ok = perturbedLj13(0.05);
    const overlapping = { symbols: ['Ar', 'Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, 0], [1.1, 0, 0]] };
    const batch = ljBatch([ok, overlapping]);
    const md = new VelocityVerlet({ model: lj(), dt: 0.005 });
    const failure = await md.run(batch, { steps: 20 }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'OVERLAPPING_ATOMS', details: { step: 0, systems: [expect.objectContaining({ system: 1, systemId: 1 })] } });
    expect((failure as Error).message).toMatch(/step 0: system 1 \(systemId 1\): .*energy.*atoms 13 and 14 of system 1/);
  });

  it('names the system, the step and the cause when a position becomes non-finite', async () => {
    const batch = ljBatch([perturbedLj13(0.05), perturbedLj13(0.05, 2)]);
    const md = new VelocityVerlet({ model: lj(), dt: 0.005 });
    md.register({ stage: DynamicsStage.AFTER_POST_UPDATE, frequency: 1, trigger: at(3), call: (ctx) => { ctx.batch.positions[3 * 15] = Number.NaN; } });
    const failure = await md.run(batch, { steps: 20 }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'NUMERICAL_BLOWUP', details: { systems: [expect.objectContaining({ system: 1, systemId: 1 })] } });
    expect((failure as Error).message).toMatch(/step [34]: system 1 \(systemId 1\): positions of atom 2 became NaN/);
  });

  it('a time step far too large: NUMERICAL_BLOWUP naming the systems, the step and dt, not an atom 1e9 cells away (issue 39 item 13)', async () => {
    const crystal = repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), [2, 2, 2]);
    const batch = Batch.fromSystems([rattle(crystal, 0.05, 1), rattle(crystal, 0.2, 2)]);
    const model = new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 });
    const md = new Langevin({ model, dt: 100, temperature: 300, friction: 0.01, seed: 1 });
    const failure = (await md.run(batch, { steps: 2000 }).catch((error: unknown) => error)) as Error & { details: { step: number; systems: { system: number; dt: number; cause: string }[] } };
    expect(failure).toMatchObject({ code: 'NUMERICAL_BLOWUP', details: { step: expect.any(Number), systems: expect.arrayContaining([expect.objectContaining({ dt: 100 })]) } });
    expect(failure.details.systems.length).toBeGreaterThan(0);
    expect(failure.message).toMatch(/^Langevin\.run: the numbers blew up at step \d+: system \d \(systemId \d\): .*; dt is 100 fs \(a time step too large/);
  });

  it('per-system time steps are named with each system', async () => {
    const batch = ljBatch([perturbedLj13(0.05), perturbedLj13(0.05, 2)]);
    const md = new VelocityVerlet({ model: lj(), dt: [0.005, 0.004] });
    md.register({ stage: DynamicsStage.AFTER_POST_UPDATE, frequency: 1, trigger: at(3), call: (ctx) => { ctx.batch.velocities[3 * 15] = Number.POSITIVE_INFINITY; } });
    const failure = await md.run(batch, { steps: 20 }).catch((error: unknown) => error);
    expect((failure as Error).message).toMatch(/system 1 \(systemId 1, dt 0\.004 τ\): /);
  });
});

describe('ON_CONVERGE context', () => {
  it('a plain engine gives convergedFrom the source status', async () => {
    const batch = ljBatch([perturbedLj13(0.1)]);
    const seen: number[] = [];
    const fire = new FIRE({ model: lj(), convergence: { criteria: [{ key: 'fmax', threshold: 1e-2 }] } });
    fire.register({ stage: DynamicsStage.ON_CONVERGE, frequency: 1, call: (ctx: DynamicsHookContext) => { seen.push(...Array.from(ctx.convergedFrom ?? [])); } });
    await fire.run(batch, { steps: 1000 });
    expect(seen).toEqual([0]);
  });
});
