// Issue 13, items 12 and 13: the sink protocol, runStream's maxSystems and source statuses, the energy-drift
// monitor's metrics and actions, and LoggingHook columns that override built-in ones.
import { describe, expect, it, vi } from 'vitest';

import { ConvergenceHook, DynamicsStage, EnergyDriftMonitorHook, FIRE, HostMemorySink, LennardJones, LoggingHook, VelocityVerlet, initializeVelocities } from '../../lib/index.js';
import type { LogRow } from '../../lib/index.js';
import { ljBatch, perturbedLj13 } from '../dynamics/lj-systems.js';

const model = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });

describe('sinks (item 12)', () => {
  it('isFull, clear and masked writes from a batch', () => {
    const sink = new HostMemorySink({ capacity: 2 });
    const batch = ljBatch([perturbedLj13(0.1), perturbedLj13(0.1, 2), perturbedLj13(0.1, 3)]);
    sink.write(batch, [0, 0, 0]);
    expect(sink.count).toBe(0);
    sink.write(batch, [true, false, true]);
    expect(sink.read().map((s) => s.info?.systemId)).toEqual([0, 2]);
    expect(sink.isFull).toBe(true);
    sink.clear();
    expect(sink.isFull).toBe(false);
    expect(() => sink.write(batch, [1, 0])).toThrow(expect.objectContaining({ code: 'LENGTH_MISMATCH' }));
  });

  it('runStream takes maxSystems and keeps a status the source gives', async () => {
    const sizes: number[] = [];
    const fire = new FIRE({ model: model(), convergence: ConvergenceHook.fromFmax(1e-2) });
    fire.register({ stage: DynamicsStage.BEFORE_STEP, frequency: 1, call: (ctx) => { sizes.push(ctx.batch.numSystems); } });
    const sink = new HostMemorySink();
    const source = [perturbedLj13(0.1), { ...perturbedLj13(0.1, 2), info: { status: 1 } }, perturbedLj13(0.1, 3), perturbedLj13(0.1, 4)];
    const result = await fire.runStream(source, { sinks: [sink], maxAtoms: 1000, maxSystems: 2, units: 'lj', refillEvery: 5 });
    expect(Math.max(...sizes)).toBe(2);
    expect(result.processed).toBe(4);
    const passed = sink.read().find((s) => s.info?.systemId === 1);
    expect(passed?.info).toMatchObject({ converged: true, status: 1 });
  });
});

describe('EnergyDriftMonitorHook and LoggingHook (item 13)', () => {
  const md = async (hook: EnergyDriftMonitorHook): Promise<void> => {
    const batch = ljBatch([perturbedLj13(0.1)]);
    initializeVelocities(batch, { temperature: 0.5, seed: 1 });
    await new VelocityVerlet({ model: model(), dt: 0.02, hooks: [hook] }).run(batch, { steps: 40 });
  };

  it('absolute and perAtomPerStep metrics, includeKinetic', async () => {
    const absolute = new EnergyDriftMonitorHook({ frequency: 10, metric: 'absolute' });
    await md(absolute);
    const [first, last] = [absolute.history[0], absolute.history[absolute.history.length - 1]];
    expect(absolute.drift()[0]).toBe(Math.abs(last.total[0] - first.total[0]));
    const perAtom = new EnergyDriftMonitorHook({ frequency: 10, metric: 'perAtomPerStep' });
    await md(perAtom);
    expect(perAtom.drift()[0]).toBeCloseTo(absolute.drift()[0] / (13 * 30), 12);
    const potential = new EnergyDriftMonitorHook({ frequency: 10, includeKinetic: false });
    await md(potential);
    expect(potential.history[0].total[0]).toBeLessThan(-30);
  });

  it("action 'warn' logs and goes on; 'raise' throws ENERGY_DRIFT", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await md(new EnergyDriftMonitorHook({ frequency: 10, metric: 'absolute', threshold: 1e-12, action: 'warn' }));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('absolute energy drift'));
    warn.mockRestore();
    await expect(md(new EnergyDriftMonitorHook({ frequency: 10, metric: 'absolute', threshold: 1e-12, action: 'raise' }))).rejects.toMatchObject({ cause: expect.objectContaining({ code: 'ENERGY_DRIFT' }) });
  });

  it('a custom column named like a built-in one replaces it in place', async () => {
    const rows: LogRow[] = [];
    const log = new LoggingHook({ writer: (row) => rows.push(row), columns: { energy: () => 'mine' } });
    expect(log.header).toEqual(['step', 'time', 'system', 'systemId', 'status', 'temperature', 'energy', 'kineticEnergy', 'totalEnergy', 'fmax']);
    await new FIRE({ model: model(), hooks: [log] }).run(ljBatch([perturbedLj13(0.1)]), { steps: 1 });
    expect(rows[0].energy).toBe('mine');
  });
});
