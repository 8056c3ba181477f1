// The thread pool. Resizing between parallel computes: workers started by setThreads() used to replay the
// last job serial and take a job they never ran off the busy count, so a later compute could return early
// or wait forever (a test file once hung in TrainingData's parallel build); that race is timing-dependent,
// and its stress test passed on the old pool here as often as not. And a worker that lost its CPU: the
// caller used to wait for every worker to acknowledge every parallel loop, so on a busy machine each loop
// waited for the late worker's next time slice (2 threads took 1.4-2.2x as long as 1).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Batch, bulk, LennardJones, repeat } from '../../lib/index.js';
import { getThreads, setThreads } from '../../lib/native/index.js';
import { ensureBuilt, ROOT } from '../cli/run-cli.js';

const TASKSET = ['/usr/bin/taskset', '/bin/taskset'].find((path) => existsSync(path));

const initial = getThreads();
afterAll(() => setThreads(initial));

describe('thread pool', () => {
  it('stays consistent over many resizes between threaded computes', () => {
    const crystals = Array.from({ length: 8 }, () => repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), [3, 3, 3]));
    const batch = Batch.fromSystems(crystals);
    const model = new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8 });
    model.compute(batch);
    const reference = batch.read('energy').slice();
    for (let round = 0; round < 300; round++) {
      setThreads(1 + (round % 3));
      batch.positions[0] += round % 2 === 0 ? 1e-9 : -1e-9;
      model.compute(batch);
    }
    for (const [s, e] of batch.read('energy').entries()) expect(e).toBeCloseTo(reference[s], 9);
  });

  describe('with a worker that wakes late', () => {
    beforeAll(() => ensureBuilt());

    // On one CPU the caller takes every chunk before the worker runs. The old pool then slept until the
    // worker had its turn, at every parallel loop (about 0.6 times per step here); now the caller goes on.
    it.skipIf(TASKSET === undefined || process.platform !== 'linux')('does not wait for it: the caller never sleeps between loops', () => {
      const script = join(ROOT, 'test', 'native', 'pool', 'late-worker.mjs');
      const library = pathToFileURL(join(ROOT, 'dist', 'index.js')).href;
      const child = spawnSync(TASKSET as string, ['-c', '0', process.execPath, script, library], { encoding: 'utf8', timeout: 120_000 });
      expect({ status: child.status, stderr: child.stderr }).toEqual({ status: 0, stderr: '' });
      const { steps, sleeps } = JSON.parse(child.stdout) as { steps: number; sleeps: number };
      // A few sleeps remain possible: the timer can preempt the caller while the worker holds a chunk.
      expect(sleeps).toBeLessThan(0.1 * steps);
    });
  });
});
