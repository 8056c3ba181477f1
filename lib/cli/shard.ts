// --shard i/N: which input systems one of N cooperating processes takes. The partition is round-robin on
// the index in the whole input (system k belongs to shard k mod N), so a shard is known while the input
// streams, without counting it first, and inputs sorted by size spread evenly (docs/scale-out.md).
import { InvalidArgumentError } from 'commander';
import { showText } from '../describe-value.js';

/** Shard `index` of `count` (0 ≤ index < count). */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/**
 * Parses `i/N` (a Slurm array task id and count, a Kubernetes completion index and count); a bad value
 * is a usage error naming the rule it broke.
 *
 * @example
 * parseShard('3/8'); // { index: 3, count: 8 }
 */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (match === null) throw new InvalidArgumentError('must be i/N: the shard index i (from 0) and the shard count N, e.g. 0/4.');
  const [index, count] = [Number(match[1]), Number(match[2])];
  if (!Number.isSafeInteger(count) || count < 1) throw new InvalidArgumentError(`the shard count N must be an integer ≥ 1, got ${showText(match[2])}.`);
  if (!Number.isSafeInteger(index) || index >= count) throw new InvalidArgumentError(`the shard index i must be from 0 to N-1 = ${count - 1}, got ${showText(match[1])}.`);
  return { index, count };
}

/**
 * Whether input system `inputIndex` (its position in the whole input, from 0) belongs to `shard`; every
 * system belongs when there is no shard.
 */
export function inShard(inputIndex: number, shard: Shard | undefined): boolean {
  return shard === undefined || inputIndex % shard.count === shard.index;
}

/** How many of the first `total` input systems belong to `shard`. */
export function shardSize(total: number, shard: Shard | undefined): number {
  if (shard === undefined) return total;
  return total > shard.index ? Math.floor((total - shard.index - 1) / shard.count) + 1 : 0;
}
