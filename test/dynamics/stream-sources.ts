// Sources for the runStream tests: stretched LJ chains that count what they hand out.
import type { System } from '../../lib/data/index.js';

/** A stretched LJ chain of 2–6 atoms, tagged with its position in the source. */
export function chain(index: number): System {
  const n = 2 + (index % 5);
  const positions = Array.from({ length: n }, (_, k) => [1.3 * k, 0.2 * Math.sin(index + k), 0.2 * Math.cos(2 * index + k)]);
  return { symbols: Array(n).fill('Ar'), positions, info: { tag: index } };
}

/** A source of `count` chains that counts what it handed out; `replace(i)` swaps in another system or throws. */
export function source(count: number, replace: (i: number) => System | undefined = () => undefined): { systems: Generator<System>; yielded: () => number } {
  let yielded = 0;
  function* systems(): Generator<System> {
    for (let i = 0; i < count; i++) {
      const system = replace(i) ?? chain(i);
      yielded++;
      yield system;
    }
  }
  return { systems: systems(), yielded: () => yielded };
}

/** 0, 1, …, n − 1 without `skip`. */
export const range = (n: number, skip = -1): number[] => Array.from({ length: n }, (_, i) => i).filter((i) => i !== skip);
