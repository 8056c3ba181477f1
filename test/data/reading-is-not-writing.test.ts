// Results stay valid until the geometry really changes (docs/dynamics.md, "Results"): reading
// batch.positions, the README tour's way to read positions, must not drop energy and forces; a write drops
// them for the systems it changed, and only those. On every backend, with the coherence semantics of
// docs/cuda.md unchanged.
import { describe, expect, it } from 'vitest';

import type { DynamicsHookContext } from '../../lib/index.js';
import { libraryOn, type Hookmd } from '../helpers/library.js';


function dimers(hookmd: Hookmd) {
  const dimer = (d: number) => ({ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, d]], cell: [[10, 0, 0], [0, 10, 0], [0, 0, 10]], pbc: [true, true, true] });
  const batch = hookmd.Batch.fromSystems([dimer(3.8), dimer(4.0), dimer(4.2)]);
  const model = new hookmd.LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 4.9 });
  model.compute(batch, { stress: true });
  return { batch, model };
}

describe.each(['cpu', 'mirror'] as const)('reading is not writing (%s)', (backend) => {
  it('reading batch.positions, batch.cell and batch.atomicNumbers keeps every result', async () => {
    const hookmd = await libraryOn(backend);
    const { batch } = dimers(hookmd);
    let sum = 0;
    for (const x of batch.positions) sum += x;
    sum += batch.cell[0] + batch.atomicNumbers[0];
    expect(sum).toBeGreaterThan(0);
    for (const field of ['energy', 'forces', 'stress'] as const) expect(Array.from(batch.resultValid(field))).toEqual([1, 1, 1]);
    const systems = batch.toSystems();
    expect(systems.every((s) => s.energy !== undefined && s.forces !== undefined && s.stress !== undefined)).toBe(true);
  });

  it('a write drops the results of the systems it changed, and only those', async () => {
    const hookmd = await libraryOn(backend);
    const { batch, model } = dimers(hookmd);
    batch.positions[3 * 3 + 2] += 0.1;   // system 1's second atom
    expect(Array.from(batch.resultValid('forces'))).toEqual([1, 0, 1]);
    // Writing the same value back is no change.
    const x = batch.positions;
    x[0] = x[0] + 0;
    expect(Array.from(batch.resultValid('energy'))).toEqual([1, 0, 1]);
    const [first, second] = batch.toSystems();
    expect(first.energy).toBeDefined();
    expect(second.energy).toBeUndefined();
    model.compute(batch);
    expect(Array.from(batch.resultValid('energy'))).toEqual([1, 1, 1]);
    batch.cell[9 * 2] = 11;
    // The stress of system 1 went stale with its positions (that compute left the stress out).
    expect(Array.from(batch.resultValid('stress'))).toEqual([1, 0, 0]);
    model.compute(batch, { stress: true });
    batch.atomicNumbers[0] = 36;
    expect(Array.from(batch.resultValid('energy'))).toEqual([0, 1, 1]);
  });

  it('a hook that reads ctx.batch.positions leaves the results a snapshot writes', async () => {
    const hookmd = await libraryOn(backend);
    const { batch, model } = dimers(hookmd);
    const sink = new hookmd.HostMemorySink();
    const reader = { stage: hookmd.DynamicsStage.AFTER_STEP, frequency: 1, call: (ctx: DynamicsHookContext) => { void ctx.batch.positions[0]; } };
    const md = new hookmd.VelocityVerlet({ model, dt: 5, hooks: [reader, new hookmd.SnapshotHook({ sink, stage: 'AFTER_STEP', frequency: 5 })] });
    batch.resetTransferStats();
    await md.run(batch, { steps: 10 });
    const frames = sink.read();
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.every((s) => s.energy !== undefined && s.forces !== undefined)).toBe(true);
  });
});
