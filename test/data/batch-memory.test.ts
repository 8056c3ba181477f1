// A batch's fields live in native memory that V8 does not allocate; the binding reports it to V8
// (napi_adjust_external_memory), so the garbage collector sees a batch's real size and collects dropped
// batches before their memory piles up (docs/performance.md, "Batch memory"). Without the report, V8 counts
// only the few fields JS happens to hold views of.
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/index.js';
import { loadBinding } from '../../lib/native/index.js';

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

const FIELDS = ['positions', 'velocities', 'forces', 'masses', 'atomicNumbers', 'systemIndex', 'energy', 'stress', 'cell', 'pbc', 'status', 'systemId', 'numAtoms', 'ptr'] as const;

/** Collects garbage and lets the finalizers of collected native handles run (Node runs them on a later turn). */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The bytes of every field of `batch` as JS reads them. */
function fieldBytes(batch: Batch): number {
  return FIELDS.reduce((sum, field) => sum + batch.read(field).byteLength, 0);
}

/** `count` argon trimers in a row, 10 Å apart. */
function trimers(count: number) {
  const positions = new Float64Array(9 * count);
  for (let k = 0; k < 3 * count; k++) positions[3 * k] = 10 * Math.floor(k / 3) + 1.1 * (k % 3);
  return { positions, atomicNumbers: new Int32Array(3 * count).fill(18), numAtomsPerSystem: new Int32Array(count).fill(3) };
}

describe('batch memory reported to V8', () => {
  // V8's count holds what native code reported plus the array buffers JS holds, which V8 counts itself (and
  // process.memoryUsage().external shows): the difference is what the batches reported.
  const externalMemory = () => loadBinding().externalMemory() - process.memoryUsage().external;
  // mirror keeps its emulated device arrays in host memory beside the host mirrors.
  const copiesOf = (batch: Batch) => (batch.backend === 'mirror' ? 2 : 1);
  // The two counts drift apart by a few hundred bytes of V8's own bookkeeping; the batches here hold megabytes.
  const SLACK = 32 * 1024;
  const expectReported = (bytes: number) => expect(Math.abs(bytes)).toBeLessThan(SLACK);

  it('counts every field of a batch from its construction until it is collected', async () => {
    await settle();
    const before = externalMemory();
    let batch: Batch | undefined = Batch.fromArrays(trimers(20_000));
    const bytes = fieldBytes(batch) * copiesOf(batch);
    // 60,000 atoms: positions, velocities and forces alone are 1.44 MB.
    expect(bytes).toBeGreaterThan(4_000_000);
    expectReported(externalMemory() - before - bytes);
    batch = undefined;
    await settle();
    expectReported(externalMemory() - before);
  });

  // Issue 39, item 19: Node runs a collected handle's finalizer only on a later turn of the event loop, so a
  // synchronous loop that dropped 150 batches of 256,000 atoms held all of them (3.5 GB). The next batch
  // built now frees what collected batches and their views held, with no turn of the loop in between.
  it('frees dropped batches in a synchronous loop, without a turn of the event loop', async () => {
    await settle();
    const before = externalMemory();
    const rssBefore = process.memoryUsage().rss;
    let bytes = 0;
    // One input for every batch: nothing but the batches themselves comes and goes.
    const input = trimers(70_000);
    for (let i = 0; i < 20; i++) {
      let batch: Batch | undefined = Batch.fromArrays(input);
      bytes = fieldBytes(batch) * copiesOf(batch);
      batch = undefined;
      // Twice: a batch built while V8 was marking incrementally survives the cycle that marking finishes.
      collectGarbage();
      collectGarbage();
    }
    // 210,000 atoms a batch: 20 of them held at once would be over 300 MB.
    expect(bytes).toBeGreaterThan(15_000_000);
    const last = Batch.fromArrays(input);
    // Only the last batch is left, give or take V8's bookkeeping (which grows with the views made here).
    expect(Math.abs(externalMemory() - before - fieldBytes(last) * copiesOf(last))).toBeLessThan(bytes / 2);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(6 * bytes);
  });

  it('follows a batch that grows and shrinks', async () => {
    await settle();
    const before = externalMemory();
    const batch = Batch.fromSystems([{ symbols: ['Ar'], positions: [[0, 0, 0]] }]);
    batch.append(Array.from({ length: 5_000 }, (_, k) => ({ symbols: ['Ar', 'Ar'], positions: [[10 * k, 0, 0], [10 * k, 0, 1.1]] })));
    expect(fieldBytes(batch)).toBeGreaterThan(20 * SLACK);
    expectReported(externalMemory() - before - fieldBytes(batch) * copiesOf(batch));
    batch.refill([0], []);
    expect(batch.numAtoms).toBe(1);
    expectReported(externalMemory() - before - fieldBytes(batch) * copiesOf(batch));
  });
});
