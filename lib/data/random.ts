// A small seeded generator (sfc32 with a splitmix32 seed expansion) for reproducible rattles and velocity
// draws. Math.random() cannot be seeded, and results must repeat for a given seed.

/** Uniform and normal draws from a seeded stream. */
export interface Rng {
  /** Uniform in [0, 1). */
  uniform(): number;
  /** Standard normal (Box–Muller). */
  normal(): number;
}

function splitmix32(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** A generator for `seed` (an integer; the same seed gives the same stream). */
export function createRng(seed: number): Rng {
  const expand = splitmix32(Math.floor(seed) ^ Math.floor(seed / 2 ** 32));
  let a = expand();
  let b = expand();
  let c = expand();
  let counter = expand();
  const next32 = (): number => {
    const t = (((a + b) >>> 0) + counter) >>> 0;
    counter = (counter + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  };
  let spare: number | undefined;
  const uniform = (): number => (next32() * 2 ** 21 + (next32() >>> 11)) / 2 ** 53;
  return {
    uniform,
    normal(): number {
      if (spare !== undefined) {
        const value = spare;
        spare = undefined;
        return value;
      }
      let u = 0;
      while (u === 0) u = uniform();
      const radius = Math.sqrt(-2 * Math.log(u));
      const angle = 2 * Math.PI * uniform();
      spare = radius * Math.sin(angle);
      return radius * Math.cos(angle);
    },
  };
}
