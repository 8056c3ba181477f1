// The emulated device (`mirror`) runs the cpu code on arrays kept apart from their host mirrors and syncs
// exactly as cuda does. Every engine path must therefore give cpu's results bit for bit: a kernel or a
// hook that reads a stale copy anywhere shows up here as a difference. This is the regression test for
// the bug where the cuda backend left atoms unmoved (positions overwritten by a stale device copy).
import { describe, expect, it, vi } from 'vitest';

import type { Batch } from '../../lib/index.js';
import { LennardJones as StaticLennardJones } from '../../lib/models/index.js';
import { argonSet } from '../training/argon-data.js';

type Hookmd = typeof import('../../lib/index.js');
type Results = Record<string, string>;

/** A fresh copy of the library bound to `backend` (the backend is chosen once per module graph). */
async function libraryOn(backend: 'cpu' | 'mirror'): Promise<Hookmd> {
  vi.resetModules();
  const hookmd = await import('../../lib/index.js');
  hookmd.configureNative({ backend });
  return hookmd;
}

/** The exact bits of a numeric array, so the comparison cannot hide a last-bit difference. */
function bits(values: ArrayLike<number>): string {
  const copy = Float64Array.from(values);
  return Buffer.from(copy.buffer).toString('hex');
}

function fcc(hookmd: Hookmd, n: number) {
  const a = (4 / 0.8442) ** (1 / 3);
  return hookmd.repeat(hookmd.bulk('Ar', 'fcc', { a, cubic: true }), [n, n, n]);
}

function lj13(amplitude: number, phase: number) {
  const t = (1 + Math.sqrt(5)) / 2;
  const scale = 1.1 / 2;
  const vertices = [[0, 0, 0], ...[[0, 1, t], [0, -1, t], [0, 1, -t], [0, -1, -t], [1, t, 0], [-1, t, 0], [1, -t, 0], [-1, -t, 0], [t, 0, 1], [-t, 0, 1], [t, 0, -1], [-t, 0, -1]]
    .map((p) => p.map((x) => x * scale))];
  const positions = vertices.map((p, i) => p.map((x, c) => x + amplitude * Math.sin(1.3 * i + 2.1 * c + phase)));
  return { symbols: Array(13).fill('Ar'), positions };
}

function snapshot(out: Results, prefix: string, batch: Batch): void {
  for (const field of ['positions', 'velocities', 'forces', 'energy', 'status'] as const) {
    out[`${prefix}.${field}`] = bits(batch.read(field));
  }
}

/** Every engine path once: native chunks, JS-walked steps, host writes mid-step, native hooks, refill. */
async function scenarios(hookmd: Hookmd): Promise<Results> {
  const out: Results = {};
  const lj = () => new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });

  // NVE with native hooks, a reading hook every 25 steps and a hook that writes velocities mid-step.
  const nve = hookmd.Batch.fromSystems([hookmd.rattle(fcc(hookmd, 3), 0.02, 3)], { units: 'lj' });
  hookmd.initializeVelocities(nve, { temperature: 0.7, seed: 2 });
  const verlet = new hookmd.VelocityVerlet({ model: lj(), dt: 0.005, hooks: [new hookmd.NaNDetectorHook({ frequency: 10 }), new hookmd.WrapPeriodicHook({ frequency: 20 })] });
  let seen = 0;
  verlet.register({ stage: hookmd.DynamicsStage.AFTER_STEP, frequency: 25, call: (ctx) => { seen += ctx.batch.positions[0]; } });
  verlet.register({
    stage: hookmd.DynamicsStage.BEFORE_COMPUTE, frequency: 1, trigger: hookmd.at(60),
    call: (ctx) => { ctx.batch.velocities[4] *= 1.01; },
  });
  await verlet.run(nve, { steps: 150 });
  snapshot(out, 'nve', nve);
  out['nve.hookSum'] = bits([seen]);

  // Langevin with frozen atoms.
  const nvt = hookmd.Batch.fromSystems([fcc(hookmd, 2), hookmd.rattle(fcc(hookmd, 2), 0.03, 5)], { units: 'lj' });
  const langevin = new hookmd.Langevin({ model: lj(), dt: 0.005, temperature: 1.0, friction: 0.5, seed: 9, hooks: [new hookmd.FreezeAtomsHook({ indices: [0, 1, 40] })] });
  await langevin.run(nvt, { steps: 80 });
  snapshot(out, 'nvt', nvt);

  // FIRE, with a hook that finishes one system mid-step (its start-of-step state must come back).
  const relax = hookmd.Batch.fromSystems(Array.from({ length: 12 }, (_, i) => lj13(0.05 + 0.01 * i, i)), { units: 'lj' });
  const fire = new hookmd.FIRE({ model: new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 }), convergence: hookmd.ConvergenceHook.fromFmax(1e-4) });
  fire.register({ stage: hookmd.DynamicsStage.AFTER_COMPUTE, frequency: 1, trigger: hookmd.at(10), call: (ctx) => { ctx.batch.status[3] = fire.exitStatus; } });
  const relaxed = await fire.run(relax, { steps: 3000 });
  snapshot(out, 'fire', relax);
  out['fire.converged'] = bits(relaxed.converged);
  out['fire.stepCount'] = String(relaxed.stepCount);

  // runStream with in-flight refill.
  const sink = new hookmd.HostMemorySink();
  const stream = new hookmd.FIRE({ model: new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 3 }), convergence: hookmd.ConvergenceHook.fromFmax(1e-3) });
  const clusters = Array.from({ length: 30 }, (_, i) => ({
    symbols: Array(2 + (i % 4)).fill('Ar'),
    positions: Array.from({ length: 2 + (i % 4) }, (_, k) => [1.3 * k, 0.2 * Math.sin(i + k), 0.2 * Math.cos(2 * i + k)]),
  }));
  await stream.runStream(clusters, { sinks: [sink], maxAtoms: 24, refillEvery: 3, maxSteps: 500, units: 'lj' });
  const left = [...sink.read()].sort((a, b) => Number(a.info?.systemId) - Number(b.info?.systemId));
  out['stream.energy'] = bits(left.map((s) => s.energy ?? NaN));
  out['stream.positions'] = bits(left.flatMap((s) => (s.positions as number[][]).flat()));

  // A fused FIRE → Langevin stage.
  const fused = hookmd.Batch.fromSystems(Array.from({ length: 6 }, (_, i) => lj13(0.1, 2 * i)), { units: 'lj' });
  const nvtStage = new hookmd.Langevin({ model: new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 }), dt: 0.005, temperature: 0.05, friction: 1, seed: 4 });
  const fuseFire = new hookmd.FIRE({ model: new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 }), convergence: hookmd.ConvergenceHook.fromFmax(1e-3) });
  await hookmd.fuse(fuseFire, nvtStage).withBudgets([undefined, 40]).run(fused, { steps: 2000 });
  snapshot(out, 'fused', fused);

  // L-BFGS through a cell filter: the cell moves and the stress is read on every step.
  const cells = hookmd.Batch.fromSystems([hookmd.rattle(fcc(hookmd, 2), 0.03, 7), hookmd.rattle(fcc(hookmd, 2), 0.02, 8)], { units: 'lj' });
  const lbfgs = new hookmd.LBFGS({ model: lj(), cellFilter: new hookmd.CellFilter({ scalarPressure: [0, 0.5] }), convergence: hookmd.ConvergenceHook.fromFmaxAndStress(1e-4, 1e-4) });
  await lbfgs.run(cells, { steps: 60 });
  snapshot(out, 'cellFilter', cells);
  out['cellFilter.cell'] = bits(cells.read('cell'));

  return out;
}

/** Two epochs of fitting LJ to data labelled once (outside the backend under test). */
async function training(hookmd: Hookmd, train: ReturnType<typeof argonSet>): Promise<Results> {
  const trainer = new hookmd.Trainer({
    model: new hookmd.LennardJones({ epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true }),
    train,
    optimizer: new hookmd.Adam({ lr: 0.05 }),
    epochs: 2,
    batchSize: 3,
    lossWeights: { energy: 1, forces: 1, stress: 1 },
    seed: 5,
  });
  const history = await trainer.fit();
  return {
    'fit.parameters': JSON.stringify(history.parameters),
    'fit.losses': bits(history.epochs.map((epoch) => epoch.metrics.train_loss ?? NaN)),
  };
}

describe('mirror equals cpu bit for bit', () => {
  it('dynamics, relaxation, streaming, fused stages and native hooks', async () => {
    const cpu = await scenarios(await libraryOn('cpu'));
    const mirror = await scenarios(await libraryOn('mirror'));
    expect(Object.keys(mirror)).toEqual(Object.keys(cpu));
    for (const key of Object.keys(cpu)) expect(mirror[key], key).toBe(cpu[key]);
    // The runs did something: NVE moved the atoms and FIRE converged most clusters.
    expect(cpu['nve.positions']).not.toBe(cpu['fused.positions']);
  });

  it('training', async () => {
    const train = argonSet(new StaticLennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5, shift: true }), { clusters: 3, crystals: 3, seed: 21 });
    const cpu = await training(await libraryOn('cpu'), train);
    const mirror = await training(await libraryOn('mirror'), train);
    expect(mirror).toEqual(cpu);
    expect(cpu['fit.parameters']).not.toBe(JSON.stringify({ epsilon: 0.02, sigma: 3.0 }));
  });

  it('the mirror backend really keeps device arrays apart: data moves only when the other side reads it', async () => {
    const hookmd = await libraryOn('mirror');
    const batch = hookmd.Batch.fromSystems([fcc(hookmd, 2)], { units: 'lj' });
    expect(batch.backend).toBe('mirror');
    batch.resetTransferStats();
    await new hookmd.VelocityVerlet({ model: new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 }), dt: 0.005 }).run(batch, { steps: 3 });
    // The positions written by fromSystems go to the device once; the whole step runs there.
    expect(batch.transferStats().toDeviceCopies).toBeGreaterThan(0);
    const before = batch.transferStats().toHostBytes;
    batch.read('positions');
    expect(batch.transferStats().toHostBytes - before).toBe(3 * 8 * batch.numAtoms);
  });
});
