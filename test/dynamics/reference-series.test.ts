// Issue 39, item 37: MsdHook and VacfHook per system, against what free particles give by hand: atoms
// moving at constant velocity v have MSD(t) = |v|²t² and VACF(t) = |v|², in every system of a batch.
import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { LoggingHook, type LogRow } from '../../lib/dynamics/hooks/logging-hook.js';
import { MsdHook, VacfHook, VelocityVerlet } from '../../lib/dynamics/index.js';
import { JsModel } from '../../lib/models/index.js';

const free = new JsModel((b: Batch) => ({ energy: new Float64Array(b.numSystems), forces: new Float64Array(3 * b.numAtoms) }));

describe('MsdHook and VacfHook', () => {
  it('give |v|²t² and |v|² for free particles, per system, from the state the run starts in', async () => {
    const batch = Batch.fromSystems([
      { symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [3, 0, 0]], velocities: [[0.1, 0, 0], [0, 0.2, 0]], masses: [1, 1] },
      { symbols: ['Ar'], positions: [[0, 0, 0]], velocities: [[0.3, 0.4, 0]], masses: [1] },
    ], { units: 'lj' });
    const msd = new MsdHook({ frequency: 5 });
    const vacf = new VacfHook({ frequency: 5 });
    const dt = 0.01;
    await new VelocityVerlet({ model: free, dt, hooks: [msd, vacf] }).run(batch, { steps: 21 });
    const v2 = [(0.1 ** 2 + 0.2 ** 2) / 2, 0.3 ** 2 + 0.4 ** 2];
    for (const s of [0, 1]) {
      // As a log's rows: the input state, every multiple of 5 steps, and the last step.
      const steps = [0, 5, 10, 15, 20, 21];
      expect(msd.series(s)?.steps).toEqual(steps);
      msd.series(s)?.values.forEach((value, k) => expect(value).toBeCloseTo(v2[s] * (steps[k] * dt) ** 2, 14));
      vacf.series(s)?.values.forEach((value) => expect(value).toBeCloseTo(v2[s], 14));
    }
    expect(msd.series(7)).toBeUndefined();
  });

  it('go into the log as columns', async () => {
    const batch = Batch.fromSystems([{ symbols: ['Ar'], positions: [[0, 0, 0]], velocities: [[0.3, 0.4, 0]], masses: [1] }], { units: 'lj' });
    const msd = new MsdHook({ frequency: 10 });
    const rows: LogRow[] = [];
    const log = new LoggingHook({ writer: (row) => rows.push(row), frequency: 10, columns: { msd: msd.column } });
    await new VelocityVerlet({ model: free, dt: 0.01, hooks: [msd, log] }).run(batch, { steps: 20 });
    // The rows of steps 0, 10 and 20, each with the MSD of its own state.
    expect(rows.map((row) => row.step)).toEqual([0, 10, 20]);
    expect(rows.map((row) => row.msd)).toEqual(msd.series(0)?.values);
    expect(rows[2].msd).toBeCloseTo(0.25 * (20 * 0.01) ** 2, 14);
  });
});
