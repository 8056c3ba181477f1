import { describe, expect, it } from 'vitest';

import type { System } from '../../lib/data/index.js';
import { ConvergenceHook, FIRE } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { perturbedLj13 } from './lj-systems.js';

/** A small LJ cluster of 2–6 atoms (a stretched chain, so it has to relax), tagged with its input index. */
function smallCluster(index: number): System {
  const n = 2 + (index % 5);
  const positions = Array.from({ length: n }, (_, k) => [1.3 * k, 0.2 * Math.sin(index + k), 0.2 * Math.cos(2 * index + k)]);
  return { symbols: Array(n).fill('Ar'), positions, info: { tag: index } };
}

class CollectingSink {
  readonly systems: System[] = [];
  closed = false;
  write(systems: readonly System[]): void {
    this.systems.push(...systems);
  }
  close(): void {
    this.closed = true;
  }
}

const fire = (fmax: number): FIRE => new FIRE({ model: new LennardJones({ epsilon: 1, sigma: 1, cutoff: 3 }), convergence: ConvergenceHook.fromFmax(fmax) });

describe('runStream: in-flight refill', () => {
  it('10,000 small systems pass through a 512-atom budget, each exactly once with the right systemId', async () => {
    const sink = new CollectingSink();
    function* source(): Generator<System> {
      for (let i = 0; i < 10_000; i++) yield smallCluster(i);
    }
    const result = await fire(1e-3).runStream(source(), { sinks: [sink], maxAtoms: 512, refillEvery: 5, maxSteps: 2000, units: 'lj' });
    expect(result.processed).toBe(10_000);
    expect(sink.systems).toHaveLength(10_000);
    expect(sink.closed).toBe(true);
    const seen = new Set<number>();
    for (const system of sink.systems) {
      const id = system.info?.systemId as number;
      expect(system.info?.tag).toBe(id);
      expect(seen.has(id)).toBe(false);
      seen.add(id);
      expect(system.positions).toHaveLength(2 + (id % 5));
    }
    expect(result.converged + result.unconverged).toBe(10_000);
    expect(result.converged).toBeGreaterThan(9_900);
    const converged = sink.systems.filter((s) => s.info?.converged === true);
    for (const system of converged.slice(0, 200)) {
      const forces = system.forces as number[][];
      expect(Math.max(...forces.map((f) => Math.hypot(...f)))).toBeLessThanOrEqual(1e-3);
      expect(system.info?.steps).toBeGreaterThan(0);
    }
  }, 300_000);

  it('restores input order on request and flags systems that hit maxSteps as unconverged', async () => {
    const sink = new CollectingSink();
    const inputs = [perturbedLj13(0.3), smallCluster(1), perturbedLj13(0.25, 1), smallCluster(3)];
    const result = await fire(1e-6).runStream(inputs, { sinks: [sink], maxAtoms: 30, refillEvery: 3, maxSteps: 30, units: 'lj', restoreOrder: true });
    expect(sink.systems.map((s) => s.info?.systemId)).toEqual([0, 1, 2, 3]);
    const lj13 = sink.systems.filter((s) => (s.positions as unknown[]).length === 13);
    for (const s of lj13) expect(s.info).toMatchObject({ converged: false, steps: 30 });
    expect(result.unconverged).toBeGreaterThanOrEqual(2);
  });

  it('async sources work, and a bad system in the source is a typed error after the earlier ones left', async () => {
    const sink = new CollectingSink();
    async function* source(): AsyncGenerator<System> {
      yield smallCluster(0);
      yield smallCluster(1);
      yield { symbols: ['Ar'], positions: [[NaN, 0, 0]] };
    }
    await expect(fire(1e-3).runStream(source(), { sinks: [sink], maxAtoms: 8, refillEvery: 2, units: 'lj' })).rejects.toMatchObject({ code: 'INVALID_POSITIONS' });
    expect(sink.closed).toBe(true);
  });

  it('rejects bad options', async () => {
    await expect(fire(1e-3).runStream([], { maxAtoms: 0 })).rejects.toMatchObject({ code: 'INVALID_STREAM_OPTION' });
    await expect(fire(1e-3).runStream(42 as never, { maxAtoms: 10 })).rejects.toMatchObject({ code: 'INVALID_SOURCE' });
    await expect(fire(1e-3).runStream([], { maxAtoms: 10, sinks: [{} as never] })).rejects.toMatchObject({ code: 'INVALID_SINK' });
  });
});

describe('runStream with a failing sink', () => {
  it('a sink that throws mid-run gives a typed error, and the frames already written stay intact and readable', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { ExtxyzSink, readExtxyz } = await import('../../lib/io/index.js');
    const path = join(mkdtempSync(join(tmpdir(), 'hookmd-stream-')), 'out.xyz');
    const file = new ExtxyzSink(path, { capacity: 1, units: 'lj' });
    let writes = 0;
    const failing = { write: (): void => { if (++writes === 3) throw new Error('downstream is gone'); } };
    const inputs = Array.from({ length: 40 }, (_, i) => smallCluster(i));
    await expect(fire(1e-3).runStream(inputs, { sinks: [file, failing], maxAtoms: 12, refillEvery: 2, units: 'lj' })).rejects.toMatchObject({
      code: 'SINK_WRITE_FAILED',
    });
    const written = readExtxyz(path, { units: 'lj' });
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBe(file.count);
    for (const system of written) expect(system.info?.converged).toBe(true);
  });
});
