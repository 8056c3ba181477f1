// hookmd hook kernel: the nearest of some names to a misspelt or foreign one, for "did you mean" messages.

/**
 * The candidate with the smallest edit distance to `name` (case-insensitive; the first of equals), or
 * undefined when there are no candidates.
 *
 * @example
 * closestName('onStepEnds', ['onAfterStep', 'onStepEnd']); // 'onStepEnd'
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

// Levenshtein distance, one row at a time.
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row.push(Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    }
    previous = row;
  }
  return previous[b.length];
}
