// How large a system or batch may be. Per-atom arrays are indexed with 32-bit integers in native code, and
// a request beyond that would otherwise fail deep inside an allocation, or abort the process when the JS
// heap runs out, instead of with an error the caller can catch.
import { HookmdRangeError } from '../errors.js';

/** The most atoms one system or batch may hold: N×3 coordinates must stay below 2³¹. */
export const MAX_ATOMS: number = Math.floor((2 ** 31 - 1) / 3);

/** Throws TOO_MANY_ATOMS when `n` exceeds {@link MAX_ATOMS}; `where` starts the message. */
export function checkAtomCount(n: number, where: string): void {
  if (n > MAX_ATOMS) {
    throw new HookmdRangeError('TOO_MANY_ATOMS', `${where} has ${n} atoms; at most ${MAX_ATOMS} are supported`, { field: 'positions', value: n, max: MAX_ATOMS });
  }
}
