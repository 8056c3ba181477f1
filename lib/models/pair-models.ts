// The list of pair models: each entry is a model's declaration (its own file), and the config schema, the
// model kinds and the trainer read this list. Adding a pair model is its file and a line here
// (docs/ARCHITECTURE.md, "Adding a potential").
import { LENNARD_JONES } from './lennard-jones.js';
import { MORSE } from './morse.js';
import type { NativePairModel, PairModelDeclaration } from './native-pair-model.js';

/**
 * Every pair model, in the order the config schema lists them.
 *
 * @example
 * PAIR_MODELS.map((model) => model.kind); // ['lj', 'morse']
 */
export const PAIR_MODELS: readonly [typeof LENNARD_JONES, typeof MORSE] = [LENNARD_JONES, MORSE];

type Declared = (typeof PAIR_MODELS)[number];

/**
 * The class name of a pair model, which is also its native evaluator's.
 *
 * @example
 * const type: PairModelType = 'Morse';
 */
export type PairModelType = Declared['name'];

/**
 * The CLI and config name of a pair model (`--model lj:…`).
 *
 * @example
 * const kind: PairModelKind = 'lj';
 */
export type PairModelKind = Declared['kind'];

type SpecOf<D> = D extends PairModelDeclaration<infer Name, string, infer Options> ? { type: Name } & Options : never;

/**
 * A pair model as plain data: its type and constructor options.
 *
 * @example
 * const spec: PairModelSpec = { type: 'LennardJones', epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true };
 */
export type PairModelSpec = SpecOf<Declared>;

/**
 * Any pair model of the list (LennardJones, Morse, …): what a Trainer fits.
 *
 * @example
 * const model: PairModel = new Morse({ D: 0.34, alpha: 1.36, r0: 2.87, cutoff: 7 });
 */
export type PairModel = NativePairModel;

/** The declaration of the pair model whose kind or class name is `name` (already resolved), or undefined. */
export function pairModelNamed(name: string): PairModelDeclaration | undefined {
  return (PAIR_MODELS as readonly PairModelDeclaration[]).find((model) => model.kind === name || model.name === name);
}
