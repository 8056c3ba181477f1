// Norms, percentiles and histograms of gradient vectors, shared by GradientMonitorHook and GradientClipHook.
// A gradient record holds a number per parameter (pair models) or an array per tensor (networks).
import type { ParameterTensors } from '../trainable-space.js';

/** @internal Every entry of the named gradients, in order. */
export function gradientEntries(gradients: Readonly<ParameterTensors>, names: readonly string[]): number[] {
  const out: number[] = [];
  for (const name of names) {
    const value = gradients[name];
    if (typeof value === 'number') out.push(value);
    else for (const entry of value) out.push(entry);
  }
  return out;
}

/** @internal Applies `f` to every entry of the named gradients, in place (arrays) or by replacement (numbers). */
export function mapGradients(gradients: ParameterTensors, names: readonly string[], f: (value: number) => number): void {
  for (const name of names) {
    const value = gradients[name];
    if (typeof value === 'number') gradients[name] = f(value);
    else for (let k = 0; k < value.length; k++) value[k] = f(value[k]);
  }
}

/** @internal Counts of `values` per bin of `edges` (ascending; the last bin includes its right edge, as numpy's histogram). */
export function histogram(values: readonly number[], edges: readonly number[]): number[] {
  const counts = new Array<number>(Math.max(edges.length - 1, 0)).fill(0);
  const last = edges.length - 1;
  for (const v of values) {
    if (!(v >= edges[0] && v <= edges[last])) continue;
    let lo = 0;
    let hi = last;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (v >= edges[mid]) lo = mid;
      else hi = mid;
    }
    counts[lo] += 1;
  }
  return counts;
}

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
