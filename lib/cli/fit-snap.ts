// `hookmd fit` of a config whose model is `{ type: snap }`: SNAP by weighted least squares (fitSnap,
// docs/training.md "Fitting SNAP"), the errors on the training and validation sets, and with --out the
// LAMMPS files (`<prefix>.snap`, `.snapcoeff`, `.snapparam`), each written atomically.
import type { SNAP } from '../models/index.js';
import type { ErrorMetrics } from '../training/metrics.js';
import { createProgress, progressMode } from './progress.js';

/** The flags of `hookmd fit` a SNAP fit reads. */
export interface SnapFitCommandOptions {
  out?: string;
  json?: boolean;
  quiet?: boolean;
  progressInterval: number;
}

/** What `hookmd fit --json` prints for a SNAP fit. */
export interface SnapFitSummary {
  command: 'fit';
  config: string;
  model: 'snap';
  structures: number;
  /** Coefficients per element, β₀ included. */
  coefficients: number;
  seconds: number;
  /** MAE and RMSE on the training set, and on the validation set when the config gives one. */
  train: ErrorMetrics;
  validation: ErrorMetrics | null;
  outputs: string[];
}

/** `out` without a `.snap` / `.mliap` ending: the prefix the LAMMPS writers take. */
export function lammpsPrefix(out: string, ending: '.snap' | '.mliap'): string {
  return out.endsWith(ending) ? out.slice(0, -ending.length) : out;
}

const errorsLine = (label: string, e: ErrorMetrics): string =>
  `${label}: energy MAE ${(1000 * e.energyMae).toFixed(2)} meV/atom, forces MAE ${e.forcesMae.toFixed(4)} eV/Å`;

/** Runs the least-squares fit of `file`; resolves to the exit code. */
export async function fitSnapCommand(file: string, options: SnapFitCommandOptions): Promise<number> {
  const { fitSnap, modelErrors, snapFitFromConfig } = await import('../training/index.js');
  const { options: fitOptions, validation } = snapFitFromConfig(file);
  const progress = createProgress({ mode: progressMode(options.quiet), label: 'fit', unit: 'solves', total: 1, interval: options.progressInterval });
  const started = performance.now();
  let snap: SNAP;
  try {
    progress.note(`fit: SNAP by least squares on ${fitOptions.train.length} structures`);
    snap = fitSnap(fitOptions);
    progress.update({ done: 1, step: 1, detail: 'solved' });
  } finally {
    progress.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  // The per-structure energies stay out of the summary: the MAE and RMSE are what a fit reports.
  const errors = async (systems: Parameters<typeof modelErrors>[1]): Promise<ErrorMetrics> => {
    const { energies: _energies, ...metrics } = await modelErrors(snap, systems);
    return metrics;
  };
  const train = await errors(fitOptions.train);
  const held = validation === undefined ? null : await errors(validation);
  const outputs: string[] = [];
  if (options.out !== undefined) {
    const paths = snap.save(lammpsPrefix(options.out, '.snap'));
    outputs.push(paths.include, paths.coefficients, paths.parameters);
  }
  const coefficients = Object.values(snap.coefficients)[0]?.coefficients.length ?? 0;
  const summary: SnapFitSummary = { command: 'fit', config: file, model: 'snap', structures: fitOptions.train.length, coefficients, seconds, train, validation: held, outputs };
  if (options.json === true) {
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  } else if (options.quiet !== true) {
    const lines = [
      `fit: SNAP, ${coefficients} coefficients per element, least squares on ${summary.structures} structures in ${seconds.toFixed(2)} s${outputs.length === 0 ? '' : ` → ${outputs.join(', ')}`}`,
      errorsLine('fit: train', train),
      ...(held === null ? [] : [errorsLine('fit: validation', held)]),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return 0;
}
