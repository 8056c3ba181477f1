// Issue 28 item 4: engine.stateDict() / loadStateDict() restart exactly, as nvalchemi's exact restart (upstream
// PR #176) does on top of the per-system integrator state its test/dynamics/test_state_management.py checks
// for every integrator: 10 + 10 steps equal 20 straight steps bit for bit, for FIRE, FIRE2, L-BFGS, Langevin
// (its noise is counter-based: the step count is its RNG counter), Nosé–Hoover chains and NPT, a FusedStage,
// and through a checkpoint file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import {
  ConvergenceHook, Dynamics, FIRE, FIRE2, fuse, initializeVelocities, LBFGS, Langevin, loadDynamicsCheckpoint, NoseHooverChain, saveDynamicsCheckpoint,
} from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { ljBatch, perturbedLj13 } from './lj-systems.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });
const copy = (batch: Batch): Batch => {
  const out = Batch.fromSystems(batch.toSystems(), { units: 'lj' });
  out.status.set(batch.read('status'));
  return out;
};
const clusters = (): Batch => ljBatch([perturbedLj13(0.1, 1), perturbedLj13(0.12, 2)]);
const hot = (batch: Batch): Batch => {
  initializeVelocities(batch, { temperature: 1, seed: 5 });
  return batch;
};

const ENGINES: ReadonlyArray<[string, () => Dynamics, () => Batch]> = [
  ['FIRE', () => new FIRE({ model: lj() }), clusters],
  ['FIRE2', () => new FIRE2({ model: lj() }), clusters],
  ['LBFGS', () => new LBFGS({ model: lj() }), clusters],
  ['Langevin', () => new Langevin({ model: lj(), dt: 0.005, temperature: 1, friction: 1, seed: 3 }), () => hot(clusters())],
  ['NoseHooverChain', () => new NoseHooverChain({ model: lj(), dt: 0.005, temperature: 1, tdamp: 0.1 }), () => hot(clusters())],
  ['FusedStage', () => fuse(new FIRE({ model: lj(), convergence: ConvergenceHook.fromFmax(0.5) }), new Langevin({ model: lj(), dt: 0.005, temperature: 0.5, friction: 1, seed: 9 })).withBudgets([0, 6]), clusters],
];

/** Positions, velocities, cells and statuses, as exact numbers. */
function snapshot(batch: Batch): number[][] {
  return [Array.from(batch.read('positions')), Array.from(batch.read('velocities')), Array.from(batch.read('cell')), Array.from(batch.read('status'))];
}

const dir = mkdtempSync(join(tmpdir(), 'hookmd-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('10 + 10 steps equal 20 steps bit for bit', () => {
  it.each(ENGINES)('%s', (_, make, start) => {
    const initial = start();
    const straight = copy(initial);
    make().runSync(straight, { steps: 20 });

    const first = copy(initial);
    const engine = make();
    engine.runSync(first, { steps: 10 });
    const state = JSON.parse(JSON.stringify(engine.stateDict()));
    const resumed = copy(first);
    const again = make();
    again.loadStateDict(state);
    again.runSync(resumed, { steps: 10 });
    expect(again.stepCount).toBe(20);
    expect(snapshot(resumed)).toEqual(snapshot(straight));

    // Without the engine state the second half is another trajectory (the restart test has teeth).
    const fresh = copy(first);
    make().runSync(fresh, { steps: 10 });
    expect(snapshot(fresh)).not.toEqual(snapshot(straight));
  });
});

describe('checkpoint files', () => {
  it('hold the batch (statuses and ids too) and the engine state', async () => {
    const straight = hot(clusters());
    const path = join(dir, 'md.ckpt.json');
    const make = (): Langevin => new Langevin({ model: lj(), dt: 0.005, temperature: 1, friction: 1, seed: 3 });
    const initial = copy(straight);
    make().runSync(straight, { steps: 20 });
    const md = make();
    md.runSync(initial, { steps: 10 });
    await saveDynamicsCheckpoint(path, initial, md);
    const again = make();
    const { batch } = await loadDynamicsCheckpoint(path, again);
    again.runSync(batch, { steps: 10 });
    expect(snapshot(batch)).toEqual(snapshot(straight));
  });

  it('restores system ids, on which Langevin noise depends', async () => {
    const batch = hot(clusters());
    batch.restoreSystemIds([7, 3]);
    const md = new Langevin({ model: lj(), dt: 0.005, temperature: 1, friction: 1, seed: 3 });
    md.runSync(batch, { steps: 3 });
    const path = join(dir, 'ids.ckpt.json');
    await saveDynamicsCheckpoint(path, batch, md);
    const { batch: loaded } = await loadDynamicsCheckpoint(path);
    expect(Array.from(loaded.read('systemId'))).toEqual([7, 3]);
  });

  it('a state of another engine, or of another batch size, is STATE_MISMATCH; a broken one INVALID_STATE', () => {
    const fire = new FIRE({ model: lj() });
    fire.runSync(clusters(), { steps: 2 });
    const state = fire.stateDict();
    expect(() => new FIRE2({ model: lj() }).loadStateDict(state as never)).toThrow(expect.objectContaining({ code: 'STATE_MISMATCH' }));
    const other = new FIRE({ model: lj() });
    other.loadStateDict(state);
    expect(() => other.runSync(ljBatch([perturbedLj13(0.1)]), { steps: 1 })).toThrow(expect.objectContaining({ code: 'STATE_MISMATCH' }));
    expect(() => new FIRE({ model: lj() }).loadStateDict({ ...state, native: 'not base64!' })).toThrow(expect.objectContaining({ code: 'INVALID_STATE' }));
    const truncated = new FIRE({ model: lj() });
    truncated.loadStateDict({ ...state, native: Buffer.from(new Float64Array([3, 1, 2]).buffer).toString('base64') });
    expect(() => truncated.runSync(clusters(), { steps: 1 })).toThrow(expect.objectContaining({ code: 'INVALID_STATE' }));
  });
});
