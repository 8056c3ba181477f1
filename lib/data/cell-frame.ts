// A system's cell as the native neighbor search sees it (native/cpp/math/CellMath.h): zero vectors of
// non-periodic directions completed, and its inverse, which gives fractional coordinates f = x · H⁻¹.
/** The inverse of a 3×3 matrix (row-major), or undefined when it is singular. */
export function invert3(m: ArrayLike<number>): number[] | undefined {
  const a = (i: number): number => m[i];
  const det = a(0) * (a(4) * a(8) - a(5) * a(7)) - a(1) * (a(3) * a(8) - a(5) * a(6)) + a(2) * (a(3) * a(7) - a(4) * a(6));
  if (det === 0) return undefined;
  const r = 1 / det;
  return [
    (a(4) * a(8) - a(5) * a(7)) * r, (a(2) * a(7) - a(1) * a(8)) * r, (a(1) * a(5) - a(2) * a(4)) * r,
    (a(5) * a(6) - a(3) * a(8)) * r, (a(0) * a(8) - a(2) * a(6)) * r, (a(2) * a(3) - a(0) * a(5)) * r,
    (a(3) * a(7) - a(4) * a(6)) * r, (a(1) * a(6) - a(0) * a(7)) * r, (a(0) * a(4) - a(1) * a(3)) * r,
  ];
}

const cross = (a: number[], b: number[]): number[] => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (v: number[]): number[] => {
  const length = Math.hypot(v[0], v[1], v[2]);
  return length > 0 ? v.map((x) => x / length) : v;
};

/**
 * System `s`'s cell with each zero vector of a non-periodic direction completed as ASE's complete_cell does
 * (native/cpp/math/CellMath.h, completeCell): a slab given without its vacuum vector still wraps.
 */
export function completedCell(cells: ArrayLike<number>, pbc: ArrayLike<number>, s: number): number[] {
  const rows = [0, 1, 2].map((k) => [0, 1, 2].map((c) => cells[9 * s + 3 * k + c]));
  const missing = [0, 1, 2].filter((k) => !pbc[3 * s + k] && rows[k].every((x) => x === 0));
  if (missing.length === 1) {
    const k = missing[0];
    rows[k] = unit(cross(rows[(k + 1) % 3], rows[(k + 2) % 3]));
  } else if (missing.length === 2) {
    const present = [0, 1, 2].find((k) => !missing.includes(k)) as number;
    const a = rows[present];
    const least = [0, 1, 2].reduce((best, c) => (Math.abs(a[c]) < Math.abs(a[best]) ? c : best), 0);
    const second = unit(cross([0, 1, 2].map((c) => (c === least ? 1 : 0)), a));
    rows[(present + 2) % 3] = second;
    rows[(present + 1) % 3] = unit(cross(second, a));
  }
  return rows.flat();
}
