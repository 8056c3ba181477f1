// Logs and trajectories as LAMMPS thermo and ASE's MDLogger write them (docs/dynamics.md, "Logs and
// trajectories"): row and frame 0 are the input state (its positions and their energy), then the state after
// every multiple of the interval, and the last step always. The references are computed here from the
// input and from the final batch, not read back from our own rows.
import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { ConvergenceHook, FIRE, initializeVelocities, VelocityVerlet, type DynamicsHookContext } from '../../lib/dynamics/index.js';
import { LoggingHook, type LogRow } from '../../lib/dynamics/hooks/logging-hook.js';
import { SnapshotHook } from '../../lib/dynamics/hooks/snapshot-hook.js';
import { HostMemorySink } from '../../lib/io/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { ljBatch, perturbedLj13 } from './lj-systems.js';

const argon = (): LennardJones => new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 });
// A dimer at rest, stretched past the minimum: it starts to move at once.
const dimer = () => ({ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, 4.2]] });

function energyOf(positions: number[][]): number {
  const batch = Batch.fromSystems([{ symbols: ['Ar', 'Ar'], positions }]);
  argon().compute(batch);
  return batch.read('energy')[0];
}

describe('LoggingHook and SnapshotHook rows and frames', () => {
  it('an MD run of 250 steps logs and snapshots steps 0, 100, 200 and 250; step 0 is the input at rest', async () => {
    const rows: LogRow[] = [];
    const sink = new HostMemorySink();
    const md = new VelocityVerlet({ model: argon(), dt: 5, hooks: [new LoggingHook({ writer: (row) => rows.push(row), frequency: 100 }), new SnapshotHook({ sink, frequency: 100 })] });
    const batch = Batch.fromSystems([dimer()]);
    await md.run(batch, { steps: 250 });
    expect(rows.map((row) => row.step)).toEqual([0, 100, 200, 250]);
    expect(rows.map((row) => row.time)).toEqual([0, 500, 1000, 1250]);
    expect(rows[0].temperature).toBe(0);
    expect(rows[0].kineticEnergy).toBe(0);
    expect(rows[0].energy).toBe(energyOf(dimer().positions));
    const frames = sink.read();
    expect(frames.map((frame) => frame.info?.step)).toEqual([0, 100, 200, 250]);
    expect(frames[0].positions).toEqual(dimer().positions);
    expect(frames[0].energy).toBe(rows[0].energy);
    // The last row and frame are the state the run ends in.
    expect((frames[3].positions as number[][]).flat()).toEqual(Array.from(batch.read('positions')));
    expect(rows[3].energy).toBe(batch.read('energy')[0]);
    expect(rows[1].temperature).toBeGreaterThan(0);
  });

  it('a second run goes on from the last state without repeating it; runSync does the same', () => {
    const rows: LogRow[] = [];
    const md = new VelocityVerlet({ model: argon(), dt: 5, hooks: [new LoggingHook({ writer: (row) => rows.push(row), frequency: 10 })] });
    const batch = Batch.fromSystems([dimer(), dimer()]);
    md.runSync(batch, { steps: 25 });
    md.runSync(batch, { steps: 25 });
    const steps = rows.filter((row) => row.system === 1).map((row) => row.step);
    expect(steps).toEqual([0, 10, 20, 25, 30, 40, 50]);
    expect(rows).toHaveLength(2 * steps.length);
  });

  it('frequency 1 gives every state once, labelled by the steps taken, as a hook at BEFORE_STEP of the next step sees it', async () => {
    const rows: LogRow[] = [];
    const seen: number[] = [];
    const probe = { stage: 0, frequency: 1, call: (ctx: DynamicsHookContext) => { seen.push(ctx.batch.read('energy')[0]); } };
    const md = new VelocityVerlet({ model: argon(), dt: 5, hooks: [probe, new LoggingHook({ writer: (row) => rows.push(row) })] });
    const batch = Batch.fromSystems([dimer()]);
    initializeVelocities(batch, { temperature: 30, seed: 2 });
    await md.run(batch, { steps: 6 });
    expect(rows.map((row) => row.step)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(rows.slice(0, 6).map((row) => row.energy)).toEqual(seen);
  });

  it('an optimizer that converges early logs its input and its last step', async () => {
    const rows: LogRow[] = [];
    const fire = new FIRE({ model: new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 }), convergence: ConvergenceHook.fromFmax(1e-3), hooks: [new LoggingHook({ writer: (row) => rows.push(row), frequency: 1000 })] });
    const batch = ljBatch([perturbedLj13(0.1)]);
    const result = await fire.run(batch, { steps: 5000 });
    expect(result.converged[0]).toBe(1);
    expect(rows.map((row) => row.step)).toEqual([0, result.stepCount]);
    expect(rows[1].fmax).toBeLessThanOrEqual(1e-3);
  });
});
