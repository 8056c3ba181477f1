// The names of the model kinds, in one table that the command line (--model, --model-config), run configs
// and Trainer configs all resolve through: `lj`, `LennardJones` and `lennard-jones` are one kind. A new
// kind of model is added here first.
import { Vocabulary } from '../vocabulary.js';

/** The canonical name of each model kind (the `--model` prefix). */
export type ModelKind = 'lj' | 'morse' | 'eam' | 'tersoff' | 'sw' | 'onnx' | 'ipi';

/**
 * Every spelling of each model kind, case-insensitive: `lj` (LennardJones), `morse` (Morse), `eam` (EAM),
 * `tersoff` (Tersoff), `sw` (StillingerWeber), `onnx` (OnnxModel), `ipi` (IpiModel, i-PI).
 *
 * @example
 * MODEL_KINDS.resolve('LennardJones'); // 'lj'
 */
export const MODEL_KINDS: Vocabulary<ModelKind> = new Vocabulary<ModelKind>({
  lj: ['LennardJones', 'lennard-jones'],
  morse: ['Morse'],
  eam: ['EAM'],
  tersoff: ['Tersoff'],
  sw: ['StillingerWeber', 'stillinger-weber'],
  onnx: ['OnnxModel'],
  ipi: ['IpiModel'],
});
