// Marks the batches a run is driving. Two runs stepping one batch would interleave their native steps
// and hook dispatches silently; the second one is refused instead. The mark lives here, apart from the
// Batch class, in a WeakSet, so a batch that is dropped is not kept alive by it.
import type { Batch } from '../data/index.js';
import { HookmdError } from '../errors.js';

const running = new WeakSet<Batch>();

/**
 * Marks `batch` as being run by `operation` and returns the function that releases it; throws BATCH_BUSY
 * when another run (of any engine) holds it.
 *
 * @example
 * const release = acquireBatch(batch, 'FIRE.run');
 * try { ... } finally { release(); }
 */
export function acquireBatch(batch: Batch, operation: string): () => void {
  if (running.has(batch)) {
    throw new HookmdError('BATCH_BUSY', `${operation}: the batch is already being run (by this or another engine); wait for that run to finish`, {
      field: 'batch',
    });
  }
  running.add(batch);
  return () => {
    running.delete(batch);
  };
}
