// Resizing the thread pool between parallel computes. Workers started by setThreads() used to replay the
// last job serial and take a job they never ran off the busy count, so a later compute could return early
// or wait forever (a test file once hung in TrainingData's parallel build). The race is timing-dependent:
// this is a stress test, which passed on the old pool here as often as not.
import { afterAll, describe, expect, it } from 'vitest';

import { Batch, bulk, LennardJones, repeat } from '../../lib/index.js';
import { getThreads, setThreads } from '../../lib/native/index.js';

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
});
