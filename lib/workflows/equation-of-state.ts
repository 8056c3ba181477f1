// An equation of state fitted to energies at several volumes, as ASE's `ase.eos.EquationOfState` fits it
// with eos='birchmurnaghan': a parabola gives the starting point (V₀ at its minimum, B₀ = V₀·E'', B₀' = 4),
// then Levenberg–Marquardt least squares of the Birch–Murnaghan form (PRB 70, 224107, eq. 3), as SciPy's
// curve_fit (MINPACK) does.
import { HookmdRangeError, HookmdTypeError } from '../errors.js';
import { describeValue } from '../describe-value.js';

/** The forms `EquationOfState` fits. ASE's others (sj, its default, murnaghan, vinet, …) are refused by name. */
export type EosName = 'birchmurnaghan';

/** What `EquationOfState.fit()` returns, in the units of its input: Å³ and eV give B in eV/Å³. */
export interface EosFit {
  /** Volume at the minimum. */
  readonly v0: number;
  /** Energy at the minimum. */
  readonly e0: number;
  /** Bulk modulus B₀ = V·d²E/dV² at v0 (eV/Å³ for Å³ and eV; × 160.21766 gives GPa). */
  readonly B: number;
  /** Its pressure derivative B₀′ (dimensionless). */
  readonly BPrime: number;
  /** Whether v0 lies inside the volumes given (ASE warns when it does not: the data may have no minimum). */
  readonly bracketed: boolean;
}

/** E(V) = E₀ + 9V₀B₀/16·(η² − 1)²·(6 + B₀′(η² − 1) − 4η²), η = (V₀/V)^(1/3); p = [E₀, B₀, B₀′, V₀]. */
function birchMurnaghan(v: number, p: readonly number[]): number {
  const [e0, b0, bp, v0] = p;
  const x = (v0 / v) ** (2 / 3);
  return e0 + (9 * b0 * v0 / 16) * (x - 1) ** 2 * (6 + bp * (x - 1) - 4 * x);
}

/** ∂E/∂p for p = [E₀, B₀, B₀′, V₀], written out. */
function gradient(v: number, p: readonly number[]): number[] {
  const [, b0, bp, v0] = p;
  const x = (v0 / v) ** (2 / 3);
  const g = (x - 1) ** 2 * (6 + bp * (x - 1) - 4 * x);
  const dg = 2 * (x - 1) * (6 + bp * (x - 1) - 4 * x) + (x - 1) ** 2 * (bp - 4);
  return [1, (9 * v0 / 16) * g, (9 * b0 * v0 / 16) * (x - 1) ** 3, (9 * b0 / 16) * (g + (2 / 3) * x * dg)];
}

/** Solves the small dense system A·x = b by Gaussian elimination with partial pivoting; undefined when singular. */
function solve(a: number[][], b: number[]): number[] | undefined {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[pivot][c])) pivot = r;
    if (!(Math.abs(m[pivot][c]) > 0)) return undefined;
    [m[c], m[pivot]] = [m[pivot], m[c]];
    for (let r = c + 1; r < n; r++) {
      const f = m[r][c] / m[c][c];
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r][n];
    for (let k = r + 1; k < n; k++) s -= m[r][k] * x[k];
    x[r] = s / m[r][r];
  }
  return x;
}

/** The least-squares parabola E = a + b·V + c·V² (centred on the mean volume for conditioning). */
function parabola(volumes: readonly number[], energies: readonly number[]): { a: number; b: number; c: number } | undefined {
  const mean = volumes.reduce((s, v) => s + v, 0) / volumes.length;
  const rows = volumes.map((v) => [1, v - mean, (v - mean) ** 2]);
  const normal = [0, 1, 2].map((i) => [0, 1, 2].map((j) => rows.reduce((s, r) => s + r[i] * r[j], 0)));
  const rhs = [0, 1, 2].map((i) => rows.reduce((s, r, k) => s + r[i] * energies[k], 0));
  const q = solve(normal, rhs);
  if (q === undefined) return undefined;
  // Back to powers of V: q0 + q1(V − m) + q2(V − m)².
  return { a: q[0] - q[1] * mean + q[2] * mean * mean, b: q[1] - 2 * q[2] * mean, c: q[2] };
}

function sumOfSquares(volumes: readonly number[], energies: readonly number[], p: readonly number[]): number {
  return volumes.reduce((s, v, i) => s + (birchMurnaghan(v, p) - energies[i]) ** 2, 0);
}

/** Levenberg–Marquardt from `start`, with Marquardt's scaling by the diagonal of JᵀJ. */
function leastSquares(volumes: readonly number[], energies: readonly number[], start: readonly number[]): number[] {
  let p = [...start];
  let cost = sumOfSquares(volumes, energies, p);
  let lambda = 1e-3;
  for (let iteration = 0; iteration < 500; iteration++) {
    const jacobian = volumes.map((v) => gradient(v, p));
    const residual = volumes.map((v, i) => birchMurnaghan(v, p) - energies[i]);
    const jtj = [0, 1, 2, 3].map((i) => [0, 1, 2, 3].map((j) => jacobian.reduce((s, row) => s + row[i] * row[j], 0)));
    const jtr = [0, 1, 2, 3].map((i) => jacobian.reduce((s, row, k) => s + row[i] * residual[k], 0));
    let improved = false;
    while (lambda < 1e16) {
      const damped = jtj.map((row, i) => row.map((value, j) => (i === j ? value * (1 + lambda) : value)));
      const step = solve(damped, jtr.map((g) => -g));
      const next = step === undefined ? undefined : p.map((value, i) => value + step[i]);
      const nextCost = next === undefined ? Infinity : sumOfSquares(volumes, energies, next);
      if (next !== undefined && nextCost < cost) {
        const moved = Math.max(...next.map((value, i) => Math.abs(value - p[i]) / Math.max(Math.abs(p[i]), 1e-300)));
        const gained = (cost - nextCost) / Math.max(cost, 1e-300);
        p = next;
        cost = nextCost;
        lambda = Math.max(lambda / 10, 1e-12);
        improved = true;
        if (moved < 1e-14 || gained < 1e-15) return p;
        break;
      }
      lambda *= 10;
    }
    if (!improved) return p;
  }
  return p;
}

function checkSeries(name: string, values: unknown): number[] {
  if (!Array.isArray(values) && !ArrayBuffer.isView(values)) {
    throw new HookmdTypeError('INVALID_ARGUMENT', `EquationOfState: ${name} must be an array of numbers, got ${describeValue(values)}`, { field: name });
  }
  const numbers = Array.from(values as ArrayLike<unknown>, (value, i) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new HookmdRangeError('INVALID_ARGUMENT', `EquationOfState: ${name}[${i}] is ${describeValue(value)}; it must be a finite number`, { field: `${name}[${i}]`, value });
    }
    return value;
  });
  return numbers;
}

/**
 * Energies at several volumes and the equation of state fitted to them (ASE's
 * `EquationOfState(volumes, energies, eos='birchmurnaghan')`). hookmd fits Birch–Murnaghan only; ASE's
 * default, 'sj', and its other forms are UNSUPPORTED_EOS (pass eos: 'birchmurnaghan').
 *
 * @example
 * const { v0, e0, B } = new EquationOfState(volumes, energies, 'birchmurnaghan').fit();
 * console.log(B * 160.21766208, 'GPa');
 */
export class EquationOfState {
  readonly volumes: readonly number[];
  readonly energies: readonly number[];
  readonly eos: EosName;

  constructor(volumes: ArrayLike<number>, energies: ArrayLike<number>, eos: EosName = 'birchmurnaghan') {
    this.volumes = checkSeries('volumes', volumes);
    this.energies = checkSeries('energies', energies);
    if (this.volumes.length !== this.energies.length) {
      throw new HookmdRangeError('LENGTH_MISMATCH', `EquationOfState: ${this.volumes.length} volumes and ${this.energies.length} energies`, { field: 'energies' });
    }
    if (this.volumes.length < 5) {
      throw new HookmdRangeError('INVALID_ARGUMENT', `EquationOfState: ${this.volumes.length} points fit no four-parameter form well; give at least 5 volumes around the minimum`, { field: 'volumes' });
    }
    if (this.volumes.some((v) => v <= 0)) throw new HookmdRangeError('INVALID_ARGUMENT', 'EquationOfState: volumes must be > 0', { field: 'volumes' });
    if (eos !== 'birchmurnaghan') {
      throw new HookmdTypeError('UNSUPPORTED_EOS', `EquationOfState: eos ${describeValue(eos)} is not one hookmd fits; it fits 'birchmurnaghan' (ASE's default is 'sj': pass eos: 'birchmurnaghan' there to compare)`, { field: 'eos', value: eos });
    }
    this.eos = eos;
  }

  /** Fits the form: V₀, E₀, B₀ (and B₀′), as ASE's `fit()` returns `(v0, e0, B)`. */
  fit(): EosFit {
    const guess = parabola(this.volumes, this.energies);
    if (guess === undefined || !(guess.c > 0)) {
      throw new HookmdRangeError('EOS_NO_MINIMUM', 'EquationOfState.fit: the energies curve downward (or are flat): they have no minimum to fit; give volumes on both sides of the equilibrium', { field: 'energies' });
    }
    const vmin = -guess.b / (2 * guess.c);
    const start = [guess.a + guess.b * vmin + guess.c * vmin * vmin, 2 * guess.c * vmin, 4, vmin];
    const [e0, B, BPrime, v0] = leastSquares(this.volumes, this.energies, start);
    return { v0, e0, B, BPrime, bracketed: Math.min(...this.volumes) < v0 && v0 < Math.max(...this.volumes) };
  }
}
