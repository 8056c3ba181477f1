// The order of the training systems in each epoch: a Fisher–Yates shuffle drawn from a generator seeded by
// (seed, epoch) alone. No generator state carries over between epochs, so a run resumed at any epoch (or
// mid-epoch) visits the systems in exactly the order the uninterrupted run does.
import { createRng } from '../data/index.js';
import { fnv1a } from '../hooks/state.js';

/**
 * The indices 0..n−1 in epoch `epoch`'s order (identity when `shuffle` is false).
 *
 * @example
 * epochOrder(5, 7, 0, true); // e.g. Int32Array [3, 0, 4, 1, 2], the same on every call
 */
export function epochOrder(n: number, seed: number, epoch: number, shuffle: boolean): Int32Array {
  const order = Int32Array.from({ length: n }, (_, k) => k);
  if (!shuffle) return order;
  const rng = createRng(Number.parseInt(fnv1a(`${seed}:${epoch}`), 16));
  for (let k = n - 1; k > 0; k--) {
    const j = Math.floor(rng.uniform() * (k + 1));
    const swap = order[k];
    order[k] = order[j];
    order[j] = swap;
  }
  return order;
}
