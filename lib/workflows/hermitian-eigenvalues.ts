// Eigenvalues of a small complex Hermitian matrix (a dynamical matrix D(q), 3n×3n for n atoms in the cell),
// by cyclic Jacobi rotations of its real symmetric embedding [[A, −B], [B, A]] (H = A + iB), whose spectrum
// is H's with every value twice. Accurate to rounding for the sizes phonons need (tens of rows).

/**
 * The eigenvalues of the Hermitian matrix whose upper triangle (diagonal included) is given by `re` and `im`
 * (row-major m×m; the lower triangle is ignored, as LAPACK's UPLO='U'), in ascending order.
 */
export function hermitianEigenvalues(re: Float64Array, im: Float64Array, m: number): Float64Array {
  const n = 2 * m;
  const a = new Float64Array(n * n);
  for (let i = 0; i < m; i++) {
    for (let j = i; j < m; j++) {
      const x = re[i * m + j] as number;
      const y = i === j ? 0 : (im[i * m + j] as number);
      // H[i][j] = x + iy, H[j][i] = x − iy.
      for (const [r, c, v] of [
        [i, j, x],
        [j, i, x],
        [i + m, j + m, x],
        [j + m, i + m, x],
        [i + m, j, y],
        [j + m, i, -y],
        [i, j + m, -y],
        [j, i + m, y],
      ] as const) a[r * n + c] = v;
    }
  }
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    let scale = 0;
    for (let p = 0; p < n; p++) {
      for (let q = 0; q < n; q++) {
        const v = (a[p * n + q] as number) ** 2;
        if (p === q) scale += v;
        else off += v;
      }
    }
    if (off <= 1e-30 * scale || off === 0) break;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q] as number;
        if (apq === 0) continue;
        const app = a[p * n + p] as number;
        const aqq = a[q * n + q] as number;
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p] as number;
          const akq = a[k * n + q] as number;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k] as number;
          const aqk = a[q * n + k] as number;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
      }
    }
  }
  const values = Array.from({ length: n }, (_, k) => a[k * n + k] as number).sort((x, y) => x - y);
  // Each eigenvalue of H appears twice in the embedding: keep one of each pair.
  return Float64Array.from({ length: m }, (_, k) => values[2 * k] as number);
}
