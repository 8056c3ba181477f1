// How TrainingLoggingHook prints to the console when it has neither a path nor a writer: one short line
// per row, metrics in the order the row has them, numbers to 4 significant digits.
import type { RunMetadata } from '../metadata.js';

/**
 * One row as a console line.
 *
 * @example
 * consoleRow({ epoch: 3, step: 16, lr: 0.05, loss: 0.00123 }); // 'epoch 3 · step 16 · lr 0.05 · loss 0.00123'
 */
export function consoleRow(row: Readonly<Record<string, number | string>>): string {
  return Object.entries(row)
    .map(([name, value]) => `${name} ${typeof value === 'number' && !Number.isInteger(value) ? Number(value.toPrecision(4)) : value}`)
    .join(' · ');
}

/**
 * The run metadata as a console line: run id, git commit, config hash and hooks.
 *
 * @example
 * consoleMetadata(trainer.metadata!); // 'run 1b2c… · commit 4f1c… · config 9a8b7c6d5e4f · hooks: EarlyStoppingHook, …'
 */
export function consoleMetadata(metadata: RunMetadata): string {
  const hooks = metadata.hooks.map((h) => h.name).join(', ') || '(none)';
  return `run ${metadata.runId} · commit ${metadata.gitCommit} · config ${metadata.configHash.slice(0, 12)} · hooks: ${hooks}`;
}
