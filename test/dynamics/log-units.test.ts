// Issue 39, item 36: log columns name their units in the csv header (as ASE's MDLogger writes `Time[ps]`),
// in the batch's unit system, and the `time` column of a fused FIRE → NHC run is each system's MD time, not
// empty: (steps since it left FIRE) × dt.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { FIRE, fuse, LennardJones, LoggingHook, NoseHooverChain, VelocityVerlet } from '../../lib/index.js';
import type { LogRow } from '../../lib/index.js';
import { Batch, bulk, rattle } from '../../lib/data/index.js';
import { columnName } from '../../lib/dynamics/hooks/log-units.js';
import { dynamicsCheckpoint, loadDynamicsCheckpoint } from '../../lib/dynamics/checkpoint.js';
import { decodeDoubles, encodeDoubles } from '../../lib/dynamics/engine-state.js';
import { ljBatch, perturbedLj13 } from './lj-systems.js';

const dir = mkdtempSync(join(tmpdir(), 'hookmd-log-units-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const headerOf = (path: string): string[] => (readFileSync(path, 'utf8').split('\n')[0] as string).split(',');
const argon = (): LennardJones => new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 });
/** Perturbed LJ13 clusters scaled to argon (σ = 3.4 Å), one per amplitude. */
const argonClusters = (amplitudes: number[]) => amplitudes.map((amplitude, k) => {
  const cluster = perturbedLj13(amplitude, k);
  return { ...cluster, positions: (cluster.positions as number[][]).map((p) => p.map((x) => 3.4 * x)) };
});

describe('log headers name their units (issue 39, item 36)', () => {
  it('metal: time in fs, energies in eV, fmax in eV/Å, volume in Å^3, pressure in eV/Å^3', async () => {
    const path = join(dir, 'metal.csv');
    const crystal = rattle(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), 0.05, 1);
    await new VelocityVerlet({ model: argon(), dt: 2, hooks: [new LoggingHook({ path, frequency: 5, pressure: true })] }).run(Batch.fromSystems([crystal]), { steps: 5 });
    expect(headerOf(path)).toEqual([
      'step', 'time[fs]', 'system', 'systemId', 'status', 'temperature[K]', 'energy[eV]', 'kineticEnergy[eV]', 'totalEnergy[eV]', 'fmax[eV/Å]', 'volume[Å^3]', 'pressure[eV/Å^3]',
    ]);
  });

  it('lj: reduced units; a custom column that replaces a built-in one carries no unit', async () => {
    const path = join(dir, 'lj.csv');
    const log = new LoggingHook({ path, frequency: 5, columns: { energy: () => 1, extra: () => 2 } });
    await new FIRE({ model: new LennardJones({ epsilon: 1, sigma: 1, cutoff: 3 }), hooks: [log] }).run(ljBatch([perturbedLj13(0.1)]), { steps: 5 });
    expect(headerOf(path)).toEqual(['step', 'time[τ]', 'system', 'systemId', 'status', 'temperature[ε/k_B]', 'energy', 'kineticEnergy[ε]', 'totalEnergy[ε]', 'fmax[ε/σ]', 'extra']);
    expect(headerOf(path).map(columnName)).toEqual(log.header);
  });
});

describe('the time column of a fused FIRE → NHC run (issue 39, item 36)', () => {
  it('is empty while a system relaxes, then (steps since it left FIRE) × dt', async () => {
    const rows: LogRow[] = [];
    const dt = 4;
    const clusters = argonClusters([0.1, 0.2, 0.3]);
    // Each system leaves FIRE when its budget is spent: after 6, 11 and 17 steps (a budget per system, which
    // FusedStage takes at run time as every engine parameter does).
    const fireSteps = [6, 11, 17];
    const pipeline = fuse(new FIRE({ model: argon() }), new NoseHooverChain({ model: argon(), dt, temperature: 30, velocities: { temperature: 30, seed: 2 } }))
      .withBudgets([fireSteps as unknown as number, 40]);
    pipeline.register(new LoggingHook({ writer: (row) => rows.push(row), frequency: 5 }));
    await pipeline.run(Batch.fromSystems(clusters), { steps: 30 });
    expect(rows.length).toBeGreaterThan(15);
    for (const row of rows) {
      const left = fireSteps[row.systemId as number] as number;
      const step = row.step as number;
      if (step <= left) expect(row.time, `system ${row.systemId} at step ${step}`).toBe('');
      else expect(row.time, `system ${row.systemId} at step ${step}`).toBeCloseTo((step - left) * dt, 12);
    }
  });
});

describe('a FusedStage state saved before the steps per sub-stage were counted', () => {
  it('still loads and continues as today\'s does; its MD time counts from the load', async () => {
    const make = () => fuse(new FIRE({ model: argon() }), new NoseHooverChain({ model: argon(), dt: 4, temperature: 30, velocities: { temperature: 30, seed: 2 } })).withBudgets([5, 40]);
    const clusters = argonClusters([0.1, 0.2]);
    const first = make();
    const batch = Batch.fromSystems(clusters);
    await first.run(batch, { steps: 8 });
    const checkpoint = dynamicsCheckpoint(batch, first);
    const state = checkpoint.engine;
    // The stepper's state is one part (the integrator's: no convergence checks here) after its length. The
    // old layout ends in [numSystems, 2, then (steps, sub-stage) per system]; today's adds a count per sub-stage.
    const native = decodeDoubles(state.native as string, 'test');
    expect(native[0]).toBe(native.length - 1);
    const systems = 2;
    const width = 2 + 2;
    const counters = native.slice(native.length - (2 + systems * width));
    expect(Array.from(counters.slice(0, 2))).toEqual([systems, width]);
    const old = [...native.slice(0, native.length - counters.length), systems, 2];
    old[0] = old.length - 1 + 2 * systems;
    for (let s = 0; s < systems; s++) old.push(counters[2 + s * width] as number, counters[3 + s * width] as number);
    // The saved run continued from today's state and from the old one, and the original run continued.
    const continued = async (encoded: string): Promise<{ batch: Batch; rows: LogRow[] }> => {
      const engine = make();
      const loaded = await loadDynamicsCheckpoint({ ...checkpoint, engine: { ...state, native: encoded } }, engine);
      const rows: LogRow[] = [];
      engine.register(new LoggingHook({ writer: (row) => rows.push(row), frequency: 4 }));
      await engine.run(loaded.batch, { steps: 4 });
      return { batch: loaded.batch, rows };
    };
    const today = await continued(state.native as string);
    const before = await continued(encodeDoubles(Float64Array.from(old)));
    await first.run(batch, { steps: 4 });
    expect(Array.from(today.batch.read('positions'))).toEqual(Array.from(batch.read('positions')));
    expect(Array.from(before.batch.read('positions'))).toEqual(Array.from(batch.read('positions')));
    // Both systems left FIRE at step 5: today's counts give 7 steps of MD at step 12; the loaded old counts start at 0.
    expect(today.rows.filter((row) => row.step === 12).map((row) => row.time)).toEqual([28, 28]);
    expect(before.rows.filter((row) => row.step === 12).map((row) => row.time)).toEqual([16, 16]);
  });
});
