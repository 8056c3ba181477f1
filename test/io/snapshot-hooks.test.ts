// SnapshotHook and ConvergedSnapshotHook in real FIRE runs on LJ13 clusters: what reaches the sink,
// sink ownership, config-built file sinks, and a downstream that fails mid-run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import {
  ConvergedSnapshotHook,
  ConvergenceHook,
  DynamicsStage,
  ExtxyzSink,
  FIRE,
  HookError,
  HostMemorySink,
  initializeVelocities,
  LennardJones,
  readExtxyz,
  SnapshotHook,
  VelocityVerlet,
} from '../../lib/index.js';
import type { Batch, DynamicsHookContext, Sink, System } from '../../lib/index.js';
import { ljBatch, perturbedLj13 } from '../dynamics/lj-systems.js';

const dir = mkdtempSync(join(tmpdir(), 'hookmd-snap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const model = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });
const fmaxOf = (forces: number[][]): number => Math.max(...forces.map((f) => Math.hypot(...f)));

describe('SnapshotHook', () => {
  it('writes every system, with its results, systemId and step, every `frequency` steps', () => {
    const sink = new HostMemorySink();
    const seen: Array<{ step: number; positions: number[]; energy: number[] }> = [];
    // At BEFORE_STEP of step k the batch holds the state after k steps; the last state is the batch's after the run.
    const probe = {
      stage: DynamicsStage.BEFORE_STEP, frequency: 10, order: 10,
      call: (ctx: DynamicsHookContext): void => {
        seen.push({ step: ctx.stepCount, positions: Array.from(ctx.batch.read('positions')), energy: Array.from(ctx.batch.read('energy')) });
      },
    };
    const fire = new FIRE({ model: model(), hooks: [new SnapshotHook({ sink, frequency: 10 }), probe] });
    const batch = ljBatch([perturbedLj13(0.2), perturbedLj13(0.3, 1)]);
    fire.runSync(batch, { steps: 25 });
    seen.push({ step: 25, positions: Array.from(batch.read('positions')), energy: Array.from(batch.read('energy')) });
    const written = sink.read();
    // The input (step 0), every multiple of 10, and the last step.
    expect(written).toHaveLength(8);
    expect(written.map((s) => s.info)).toEqual([0, 0, 10, 10, 20, 20, 25, 25].map((step, k) => ({ systemId: k % 2, step })));
    written.forEach((system, k) => {
      const at = seen[Math.floor(k / 2)];
      expect((system.positions as number[][]).flat()).toEqual(at.positions.slice(39 * (k % 2), 39 * (k % 2 + 1)));
      expect(system.energy).toBe(at.energy[k % 2]);
      expect(system.forces).toHaveLength(13);
    });
    expect(sink.count).toBe(8);
  });

  it('opens and owns a file sink from a config entry; the file is complete when the run ends', async () => {
    const path = join(dir, 'trajectory.xyz');
    const md = new VelocityVerlet({ model: model(), dt: 0.002 });
    md.hooks.fromConfig([{ type: 'SnapshotHook', path, frequency: 4, capacity: 2, units: 'lj' }]);
    const batch = ljBatch([perturbedLj13(0.2), perturbedLj13(0.1, 2), perturbedLj13(0.3, 3)]);
    initializeVelocities(batch, { temperature: 0.1, seed: 1 });
    await md.run(batch, { steps: 9 });
    const frames = readExtxyz(path, { units: 'lj' });
    expect(frames.map((s) => [s.info?.step, s.info?.systemId])).toEqual([0, 4, 8, 9].flatMap((step) => [[step, 0], [step, 1], [step, 2]]));
    expect(frames.every((s) => s.energy !== undefined && s.forces?.length === 13)).toBe(true);
    // Momenta in lj units are m·v with m = 1: the last frames hold the batch's velocities.
    const last = frames.slice(9).flatMap((s) => (s.velocities as number[][]).flat());
    const velocities = Array.from(batch.read('velocities'));
    last.forEach((v, i) => expect(v).toBeCloseTo(velocities[i], 12));
    expect(last.some((v) => v !== 0)).toBe(true);
    const metal = new FIRE({ model: model() });
    metal.hooks.fromConfig([{ type: 'SnapshotHook', path: join(dir, 'metal.xyz') }]);
    await expect(metal.run(ljBatch([perturbedLj13(0.2)]), { steps: 1 })).rejects.toMatchObject({ cause: { code: 'UNITS_MISMATCH' } });
  });

  it('turns a failing downstream into SINK_WRITE_FAILED; what was written before stays intact', async () => {
    const path = join(dir, 'failing.xyz');
    const file = new ExtxyzSink(path, { capacity: 1, units: 'lj' });
    let writes = 0;
    class FailingSink implements Sink {
      readonly capacity = 1;
      readonly isFull = false;
      get count(): number { return file.count; }
      async write(systems: readonly System[] | Batch): Promise<void> {
        if (++writes === 3) throw new Error('downstream went away');
        await file.write(systems);
      }
      clear(): void { file.clear(); }
      drain(): Promise<System[]> { return file.drain(); }
      close(): Promise<void> { return file.close(); }
    }
    const fire = new FIRE({ model: model(), hooks: [new SnapshotHook({ sink: new FailingSink(), frequency: 1, ownsSink: true })] });
    const failure = fire.run(ljBatch([perturbedLj13(0.2), perturbedLj13(0.25, 1)]), { steps: 10 });
    await expect(failure).rejects.toBeInstanceOf(HookError);
    // The third write is the frame of step 2 (after the input and step 1), written at AFTER_STEP of step 1.
    await expect(failure).rejects.toMatchObject({ hookName: 'SnapshotHook', step: 1, cause: { code: 'SINK_WRITE_FAILED' } });
    await expect(failure).rejects.toThrow(/FailingSink: write failed: downstream went away/);
    const frames = readExtxyz(path, { units: 'lj' });
    expect(frames.map((s) => s.info)).toEqual([{ systemId: 0, step: 0 }, { systemId: 1, step: 0 }, { systemId: 0, step: 1 }, { systemId: 1, step: 1 }]);
  });

  it('closes its sink when the run ends, unless ownsSink: false; validates its options', async () => {
    const sink = new HostMemorySink();
    await new FIRE({ model: model(), hooks: [new SnapshotHook({ sink, frequency: 5, ownsSink: false })] }).run(ljBatch([perturbedLj13(0.1)]), { steps: 3 });
    sink.write([{ symbols: ['Ar'], positions: [[0, 0, 0]] }]);
    // The input and the last step (3), then the system written here.
    expect(sink.count).toBe(3);
    const owned = new HostMemorySink();
    await new FIRE({ model: model(), hooks: [new SnapshotHook({ sink: owned, frequency: 5 })] }).run(ljBatch([perturbedLj13(0.1)]), { steps: 3 });
    expect(() => owned.write([{ symbols: ['Ar'], positions: [[0, 0, 0]] }])).toThrow(expect.objectContaining({ code: 'SINK_CLOSED' }));
    expect(owned.read()).toHaveLength(2);
    expect(() => new SnapshotHook({ sink, path: 'x.xyz' })).toThrow(expect.objectContaining({ code: 'INVALID_SINK' }));
    expect(() => new SnapshotHook({ sink: {} as Sink })).toThrow(expect.objectContaining({ code: 'INVALID_SINK' }));
    expect(() => new SnapshotHook({ sink, frequency: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_FREQUENCY' }));
  });
});

describe('ConvergedSnapshotHook', () => {
  it('writes each system once, at the step it converges, with its converged forces', async () => {
    const sink = new HostMemorySink();
    const starts = [perturbedLj13(0.05), perturbedLj13(0.3, 1), perturbedLj13(0.15, 2)];
    const fire = new FIRE({ model: model(), convergence: ConvergenceHook.fromFmax(1e-3), hooks: [new ConvergedSnapshotHook({ sink })] });
    const result = await fire.run(ljBatch(starts), { steps: 5000 });
    expect(Array.from(result.converged)).toEqual([1, 1, 1]);
    const written = sink.read();
    expect(written.map((s) => s.info?.systemId).sort()).toEqual([0, 1, 2]);
    for (const system of written) {
      expect(system.info?.converged).toBe(true);
      expect(fmaxOf(system.forces as number[][])).toBeLessThanOrEqual(1e-3);
      expect(system.energy).toBeCloseTo(-44.326801, 4);
    }
    const steps = written.map((s) => s.info?.step as number);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    // A system that converges in step k is written as the state after k + 1 steps: the last one after all of them.
    expect(Math.max(...steps)).toBe(result.stepCount);
  });
});
