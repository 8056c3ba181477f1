// The names of the model kinds, in one table that the command line (--model, --model-config), run configs
// and Trainer configs all resolve through: `lj`, `LennardJones` and `lennard-jones` are one kind. Pair
// models bring their names from their declarations (pair-models.ts), which pairModelNamed looks up; another
// kind of model is added here.
import { Vocabulary } from '../vocabulary.js';
import type { PairModelDeclaration } from './native-pair-model.js';
import { PAIR_MODELS, type PairModelKind } from './pair-models.js';

/** The canonical name of each model kind (the `--model` prefix). */
export type ModelKind = PairModelKind | 'eam' | 'tersoff' | 'sw' | 'snap' | 'mliap' | 'onnx' | 'ipi';

const pairKinds = {} as Record<PairModelKind, readonly string[]>;
for (const model of PAIR_MODELS) pairKinds[model.kind] = [model.name, ...model.spellings];

/**
 * Every spelling of each model kind, case-insensitive: `lj` (LennardJones), `morse` (Morse), `eam` (EAM),
 * `tersoff` (Tersoff), `sw` (StillingerWeber), `snap` (SNAP), `mliap` (MLIAP), `onnx` (OnnxModel), `ipi`
 * (IpiModel, i-PI).
 *
 * @example
 * MODEL_KINDS.resolve('LennardJones'); // 'lj'
 */
export const MODEL_KINDS: Vocabulary<ModelKind> = new Vocabulary<ModelKind>({
  ...pairKinds,
  eam: ['EAM'],
  tersoff: ['Tersoff'],
  sw: ['StillingerWeber', 'stillinger-weber'],
  snap: ['SNAP'],
  mliap: ['MLIAP', 'ml-iap'],
  onnx: ['OnnxModel'],
  ipi: ['IpiModel'],
});

/** The declaration of the pair model whose kind or class name is `name` (already resolved), or undefined. */
export function pairModelNamed(name: string): PairModelDeclaration | undefined {
  return (PAIR_MODELS as readonly PairModelDeclaration[]).find((model) => model.kind === name || model.name === name);
}
