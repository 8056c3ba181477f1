// Dense linear least squares for the linear fits of training (fitSnap): min ‖A x − b‖² + λ ‖x‖² by
// Householder QR of A with the ridge rows √λ I below it (Golub & Van Loan, Matrix Computations, §5.2 and
// §5.3: backward stable, so the error is that of the problem's conditioning, not its square as with the
// normal equations). A is held by columns, which the reflections read and update contiguously.
import { HookmdError } from '../errors.js';

/** The solution and the residual norm ‖A x − b‖ (without the ridge term). */
export interface LeastSquaresSolution {
  readonly x: Float64Array;
  readonly residualNorm: number;
}

/**
 * Solves min ‖A x − b‖² + ridge ‖x‖² for A given as `columns` (n columns of m rows each) and b of m rows.
 * The inputs are not changed. Throws RANK_DEFICIENT when a column is (numerically) a combination of the
 * ones before it and no ridge makes the problem well posed, naming the column.
 *
 * @example
 * // x ≈ [1, 2] for the rows x0 = 1, x1 = 2, x0 + x1 = 3
 * leastSquares([Float64Array.of(1, 0, 1), Float64Array.of(0, 1, 1)], Float64Array.of(1, 2, 3)).x;
 */
export function leastSquares(columns: readonly Float64Array[], b: Float64Array, ridge = 0): LeastSquaresSolution {
  const n = columns.length;
  const m = b.length;
  const rows = m + (ridge > 0 ? n : 0);
  const a = columns.map((column, j) => {
    const copy = new Float64Array(rows);
    copy.set(column);
    if (ridge > 0) copy[m + j] = Math.sqrt(ridge);
    return copy;
  });
  const rhs = new Float64Array(rows);
  rhs.set(b);
  const diagonal = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const v = a[k] as Float64Array;
    let norm = 0;
    for (let i = k; i < rows; i++) norm += (v[i] as number) ** 2;
    norm = Math.sqrt(norm);
    // R_kk = −sign(v_k) ‖v‖, so that v_k − R_kk never cancels.
    const alpha = (v[k] as number) > 0 ? -norm : norm;
    diagonal[k] = alpha;
    if (norm === 0) continue;
    v[k] = (v[k] as number) - alpha;
    // The reflection H = I − 2 v vᵀ / vᵀv; vᵀv = 2 R_kk² − 2 R_kk v_k(old) = −2 R_kk v_k(new).
    const vv = -2 * alpha * (v[k] as number);
    const reflect = (w: Float64Array): void => {
      let dot = 0;
      for (let i = k; i < rows; i++) dot += (v[i] as number) * (w[i] as number);
      const scale = (2 * dot) / vv;
      for (let i = k; i < rows; i++) w[i] = (w[i] as number) - scale * (v[i] as number);
    };
    for (let j = k + 1; j < n; j++) reflect(a[j] as Float64Array);
    reflect(rhs);
  }
  const largest = diagonal.reduce((max, d) => Math.max(max, Math.abs(d)), 0);
  const tolerance = largest * rows * Number.EPSILON;
  const x = new Float64Array(n);
  for (let k = n - 1; k >= 0; k--) {
    const rkk = diagonal[k] as number;
    if (!(Math.abs(rkk) > tolerance)) {
      throw new HookmdError('RANK_DEFICIENT', `leastSquares: column ${k} of ${n} is a combination of the others (|R_kk| = ${Math.abs(rkk)} of the largest ${largest}): the data do not determine it; add a ridge`, { index: k });
    }
    let sum = rhs[k] as number;
    for (let j = k + 1; j < n; j++) sum -= ((a[j] as Float64Array)[k] as number) * (x[j] as number);
    x[k] = sum / rkk;
  }
  let residual = 0;
  const fitted = new Float64Array(m);
  columns.forEach((column, j) => {
    const xj = x[j] as number;
    for (let i = 0; i < m; i++) fitted[i] = (fitted[i] as number) + (column[i] as number) * xj;
  });
  for (let i = 0; i < m; i++) residual += ((fitted[i] as number) - (b[i] as number)) ** 2;
  return { x, residualNorm: Math.sqrt(residual) };
}
