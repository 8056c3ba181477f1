// Norms and percentiles of gradient vectors, shared by GradientMonitorHook and GradientClipHook.

/** @internal The 2-norm or the max-norm of `values`. */
export function gradientNorm(values: readonly number[], type: 2 | 'inf'): number {
  if (type === 'inf') return values.reduce((max, v) => Math.max(max, Math.abs(v)), 0);
  return Math.sqrt(values.reduce((sum, v) => sum + v * v, 0));
}

/** @internal The q-th percentile (0–100) of `sorted` (ascending), interpolated linearly as numpy's default. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (q / 100) * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.min(low + 1, sorted.length - 1);
  return sorted[low] + (position - low) * (sorted[high] - sorted[low]);
}
