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
import { ljBatch, perturbedLj13 } from './lj-systems.js';

const dir = mkdtempSync(join(tmpdir(), 'hookmd-log-units-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const headerOf = (path: string): string[] => (readFileSync(path, 'utf8').split('\n')[0] as string).split(',');
const argon = (): LennardJones => new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 });

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
    const clusters = [0.1, 0.2, 0.3].map((amplitude, k) => {
      const cluster = perturbedLj13(amplitude, k);
      return { ...cluster, positions: (cluster.positions as number[][]).map((p) => p.map((x) => 3.4 * x)) };
    });
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
