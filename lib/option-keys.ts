// The unknown-option check every public function and constructor that takes an options object shares: a
// misspelt option (`dtt`, `cubc`) would otherwise be ignored silently and the run would use the default.
// The error names the closest known key, or what a user of ASE or LAMMPS should write instead.
import { HookmdTypeError } from './errors.js';

/**
 * Keys users bring from other tools (ASE, LAMMPS, nvalchemi) that hookmd spells differently or takes
 * elsewhere: each maps to the hookmd key (`{ alat: 'a' }`), or to advice printed as it stands
 * (`{ fmax: 'fmax is a convergence criterion: give the engine convergence: ConvergenceHook.fromFmax(f)' }`).
 */
export type OptionAliases = Readonly<Record<string, string>>;

// Case, `_` and `-` never tell two hookmd options apart: `max_step`, `MaxStep` and `maxstep` are `maxStep`.
function folded(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

// Optimal string alignment distance (Damerau–Levenshtein without repeated edits of one substring).
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}

/**
 * The known key with the fewest edits from `key` (case, `_` and `-` ignored; the first of equals) and that
 * number of edits, among the keys no further than `maxEdits(key)` (any distance by default); undefined when
 * none is. {@link suggestKey} allows a third of each key's length; a "did you mean" that must always name
 * something (a misspelt hook method) allows any.
 *
 * @example
 * closestKey('onStepEnds', ['onAfterStep', 'onStepEnd']); // { key: 'onStepEnd', distance: 1 }
 */
export function closestKey(
  key: string,
  known: readonly string[],
  maxEdits: (name: string) => number = () => Infinity,
): { key: string; distance: number } | undefined {
  const target = folded(key);
  let best: { key: string; distance: number } | undefined;
  for (const name of known) {
    const d = distance(target, folded(name));
    if (d <= maxEdits(name) && (best === undefined || d < best.distance)) best = { key: name, distance: d };
  }
  return best;
}

/**
 * What the user probably meant by `key`: the advice of a matching alias, else the known key that differs
 * only in case, `_` or `-`, else the closest known key within a few edits (a third of its length), else a
 * known key that `key` abbreviates (`freq` → `frequency`) or extends (`temperature_K` → `temperature`);
 * undefined when nothing is close.
 *
 * @example
 * suggestKey('dtmax', ['dt', 'dtMax']);       // 'dtMax'
 * suggestKey('cubc', ['a', 'c', 'cubic']);    // 'cubic'
 */
export function suggestKey(key: string, known: readonly string[], aliases: OptionAliases = {}): string | undefined {
  const alias = Object.entries(aliases).find(([name]) => folded(name) === folded(key));
  if (alias !== undefined) return alias[1];
  const target = folded(key);
  const same = known.find((name) => folded(name) === target);
  if (same !== undefined) return same;
  const near = closestKey(key, known, (name) => Math.max(1, Math.floor(name.length / 3)));
  if (near !== undefined) return near.key;
  if (target.length >= 3) {
    const expanded = known.find((name) => folded(name).startsWith(target));
    if (expanded !== undefined) return expanded;
  }
  return known.find((name) => name.length >= 3 && target.startsWith(folded(name)));
}

/**
 * Returns `options` as a record when it is a plain object whose own keys are all in `known`; otherwise
 * throws INVALID_OPTIONS (not an object) or UNKNOWN_OPTION naming the first unknown key and what the
 * caller probably meant (`details.suggestion`: a known key, or an alias's advice). `prefix` names a nested object in messages
 * (`'lossWeights.'`); `aliases` maps other tools' spellings to advice.
 *
 * @example
 * checkKeys('FIRE', { model, dtmax: 1 }, ['model', 'dt', 'dtMax']);
 * // UNKNOWN_OPTION: FIRE: unknown option dtmax (did you mean dtMax?); expected one of model, dt, dtMax
 */
export function checkKeys(owner: string, options: unknown, known: readonly string[], prefix: string = '', aliases: OptionAliases = {}): Record<string, unknown> {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: ${prefix === '' ? 'options' : prefix.slice(0, -1)} must be an object`, {
      field: prefix === '' ? 'options' : prefix.slice(0, -1),
      value: options,
    });
  }
  const unknown = Object.keys(options).find((key) => !known.includes(key));
  if (unknown !== undefined) {
    const suggestion = suggestKey(unknown, known, aliases);
    const hint = suggestion === undefined ? '' : known.includes(suggestion) ? ` (did you mean ${suggestion}?)` : ` (${suggestion})`;
    throw new HookmdTypeError('UNKNOWN_OPTION', `${owner}: unknown option ${prefix}${unknown}${hint}; expected one of ${known.join(', ')}`, {
      field: `${prefix}${unknown}`,
      value: (options as Record<string, unknown>)[unknown],
      ...(suggestion === undefined ? {} : { suggestion }),
    });
  }
  return options as Record<string, unknown>;
}
