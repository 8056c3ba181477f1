// hookmd triggers: residue signatures. For each small modulus m, the residues mod m that a trigger's
// firing steps (`on`) and non-firing steps (`off`) can have, once past its periodicity start. They are
// over-approximations, exact under `not` (which swaps them), and let `and`/`or` see clashes hidden
// under other operators: and(every(22, { phase: 1 }), or(every(10), every(4))) can never fire, since
// every candidate is odd and every firing of the `or` is even. A composite whose `on` (or `off`) is
// empty for some modulus is constant from its periodicity start, which ends its searches at once.

/** Prime powers whose product is 720720, the least common multiple of 1…16. */
const MODULI: readonly number[] = [16, 9, 5, 7, 11, 13];

/** Residue bitmasks, one per modulus, of firing (`on`) and non-firing (`off`) steps. */
export interface Signature {
  readonly on: readonly number[];
  readonly off: readonly number[];
}

const FULL: readonly number[] = MODULI.map((m) => 2 ** m - 1);
const NONE: readonly number[] = MODULI.map(() => 0);

/** No information (custom and polling triggers). */
export const UNKNOWN: Signature = { on: FULL, off: FULL };
/** Never fires (past the start). */
export const NEVER: Signature = { on: NONE, off: FULL };
/** Always fires (past the start). */
export const ALWAYS: Signature = { on: FULL, off: NONE };

/** The signature of every(n, { phase }): x ≡ phase (mod n) fixes x mod gcd(n, m). */
export function periodicSignature(n: number, phase: number): Signature {
  const on: number[] = [];
  const off: number[] = [];
  MODULI.forEach((m, i) => {
    const g = gcd(n, m);
    let mask = 0;
    for (let r = 0; r < m; r++) if (r % g === phase % g) mask |= 1 << r;
    on.push(mask);
    // Only when n divides m are the non-firing steps a union of residue classes mod m.
    off.push(m % n === 0 ? FULL[i] & ~mask : FULL[i]);
  });
  return { on, off };
}

/** The signature a trigger carries, or UNKNOWN. */
export function signatureOf(t: object): Signature {
  return (t as { signature?: Signature }).signature ?? UNKNOWN;
}

/** Of an `and`: firing needs every child's residues; a non-firing step is some child's. */
export function allOf(sigs: readonly Signature[]): Signature {
  return {
    on: FULL.map((f, i) => sigs.reduce((acc, s) => acc & s.on[i], f)),
    off: NONE.map((z, i) => sigs.reduce((acc, s) => acc | s.off[i], z)),
  };
}

/** Of an `or`: the dual of {@link allOf}. */
export function anyOf(sigs: readonly Signature[]): Signature {
  return {
    on: NONE.map((z, i) => sigs.reduce((acc, s) => acc | s.on[i], z)),
    off: FULL.map((f, i) => sigs.reduce((acc, s) => acc & s.off[i], f)),
  };
}

/** Of a `not`. */
export function negated(sig: Signature): Signature {
  return { on: sig.off, off: sig.on };
}

/** NEVER or ALWAYS when some modulus leaves no residue for firing (or for not firing); else undefined. */
export function constancy(sig: Signature): Signature | undefined {
  if (sig.on.some((mask) => mask === 0)) return NEVER;
  if (sig.off.some((mask) => mask === 0)) return ALWAYS;
  return undefined;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}
