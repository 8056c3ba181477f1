// What a snapshot hook was given is on disk when run() returns (docs/formats.md, "Hooks that write"): the
// hook closes its sink at the end of the run, as nvalchemi's stores are closed, or with ownsSink: false
// flushes it and leaves it open for the next run.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import {
  ConvergedSnapshotHook,
  ConvergenceHook,
  ExtxyzSink,
  FIRE,
  LennardJones,
  readExtxyz,
  readZarr,
  SnapshotHook,
  ZarrSink,
} from '../../lib/index.js';
import { ljBatch, perturbedLj13 } from '../dynamics/lj-systems.js';

const dir = mkdtempSync(join(tmpdir(), 'hookmd-sink-life-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const model = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });
const clusters = () => ljBatch([perturbedLj13(0.1), perturbedLj13(0.2, 1)]);

describe('snapshot sinks at the end of a run', () => {
  it('SnapshotHook({ sink: new ZarrSink(path) }): the store holds every frame when run() returns', async () => {
    const path = join(dir, 'frames.zarr');
    const sink = new ZarrSink(path);
    await new FIRE({ model: model(), hooks: [new SnapshotHook({ sink, frequency: 5 })] }).run(clusters(), { steps: 10 });
    expect(existsSync(path)).toBe(true);
    const frames = await readZarr(path);
    expect(frames.length).toBe(sink.count);
    expect(frames.length).toBeGreaterThanOrEqual(4);
  });

  it('ConvergedSnapshotHook with an ExtxyzSink: the file holds every converged system when run() returns', async () => {
    const path = join(dir, 'relaxed.xyz');
    const hook = new ConvergedSnapshotHook({ sink: new ExtxyzSink(path, { units: 'lj', capacity: 100 }) });
    const result = await new FIRE({ model: model(), convergence: ConvergenceHook.fromFmax(1e-3), hooks: [hook] }).run(clusters(), { steps: 3000 });
    expect(Array.from(result.converged)).toEqual([1, 1]);
    expect(readExtxyz(path, { units: 'lj' }).map((s) => s.info?.systemId).sort()).toEqual([0, 1]);
  });

  it('ownsSink: false flushes the sink and keeps it open; a closed sink names the option in its error', async () => {
    const path = join(dir, 'kept.xyz');
    const sink = new ExtxyzSink(path, { units: 'lj', capacity: 1000 });
    const fire = new FIRE({ model: model(), hooks: [new SnapshotHook({ sink, frequency: 5, ownsSink: false })] });
    const batch = clusters();
    await fire.run(batch, { steps: 10 });
    const first = readExtxyz(path, { units: 'lj' }).length;
    expect(first).toBe(sink.count);
    await fire.run(batch, { steps: 10 });
    expect(readExtxyz(path, { units: 'lj' }).length).toBe(sink.count);
    expect(sink.count).toBeGreaterThan(first);
    await sink.close();
    const closing = new FIRE({ model: model(), hooks: [new SnapshotHook({ sink: new ExtxyzSink(join(dir, 'once.xyz'), { units: 'lj' }), frequency: 5 })] });
    await closing.run(batch, { steps: 5 });
    await expect(closing.run(batch, { steps: 5 })).rejects.toMatchObject({ cause: { code: 'SINK_CLOSED', message: expect.stringMatching(/ownsSink: false/) } });
  });
});
