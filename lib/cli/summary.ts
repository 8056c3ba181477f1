// What a command prints when it ends: one human line, or the JSON summary with --json. Both go to stdout;
// --quiet silences the line but not --json (a script asked for it). Warnings about a flagged run
// (run-checks.ts) go to stderr whatever the flags, and mark the summary; with --strict they make it exit 3.
import { EXIT_FLAGGED, EXIT_OK } from './exit-code.js';

/** The outcome of relax, md or run. */
export interface RunSummary {
  command: 'relax' | 'md' | 'run';
  input: string;
  /** Systems in the input. */
  systems: number;
  /** Systems written to the outputs (every system for md). */
  processed: number;
  /** Systems that converged (relax) or went through every stage (run: converged, or spent the last stage's budget); null for md. */
  converged: number | null;
  /** Engine steps taken. */
  steps: number;
  seconds: number;
  /** The signal that stopped the run early ('SIGINT', 'SIGTERM'), or null. */
  interrupted: string | null;
  /** Files written. */
  outputs: string[];
  /** Why the run is flagged (run-checks.ts): absurd temperatures, energy drift, an empty input; empty when it is not. */
  warnings: string[];
}

function describe(summary: RunSummary): string {
  const { command, systems, processed, converged, steps, seconds, interrupted, outputs } = summary;
  // A pipeline's last stage may be MD, which does not converge: its systems finish.
  const [done, notDone] = command === 'run' ? ['finished', 'unfinished'] : ['converged', 'unconverged'];
  const counts = converged === null ? `${processed}/${systems} systems` : `${processed}/${systems} systems written, ${converged} ${done}, ${processed - converged} ${notDone}`;
  const stop = interrupted === null ? '' : `interrupted by ${interrupted} after step ${steps}; `;
  const written = outputs.length === 0 ? '' : ` → ${outputs.join(', ')}`;
  const flagged = summary.warnings.length === 0 ? '' : ` [FLAGGED: ${summary.warnings.length} warning${summary.warnings.length === 1 ? '' : 's'}]`;
  return `${command}: ${stop}${counts}, ${steps} steps in ${seconds.toFixed(2)} s${written}${flagged}`;
}

/**
 * Prints the summary of a run to stdout.
 *
 * @example
 * printSummary(summary, { json: false, quiet: false });
 * // relax: 256/256 systems written, 256 converged, 0 unconverged, 133 steps in 0.42 s → relaxed.extxyz
 */
export function printSummary(summary: RunSummary, options: { json?: boolean; quiet?: boolean }): void {
  for (const warning of summary.warnings) process.stderr.write(`hookmd: warning: ${warning}\n`);
  if (options.json === true) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  else if (options.quiet !== true) process.stdout.write(`${describe(summary)}\n`);
}

/**
 * The exit code of a run that ended without an error: 128 + n after signal n, else 3 for a flagged run
 * under --strict, else 0.
 *
 * @example
 * return finalExitCode(summary, interrupt.exitCode, options.strict);
 */
export function finalExitCode(summary: { warnings: readonly string[] }, interrupted: number | undefined, strict: boolean | undefined): number {
  if (interrupted !== undefined) return interrupted;
  return strict === true && summary.warnings.length > 0 ? EXIT_FLAGGED : EXIT_OK;
}
