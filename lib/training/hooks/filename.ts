// Checkpoint file names from a template: '{epoch}', '{step}' and any metric ('{val_loss}'), optionally
// formatted as in Python's format spec: '{val_loss:.4f}' (fixed decimals) or '{epoch:03d}' (zero-padded).
import { HookmdError } from '../../errors.js';

const FIELD = /\{([A-Za-z_][A-Za-z0-9_]*)(?::(\.\d+f|0\d+d))?\}/g;

/**
 * `template` with its fields filled from `values`; an unknown field is METRIC_NOT_FOUND.
 *
 * @example
 * checkpointFilename('fit-{epoch:03d}-{val_loss:.3f}', { epoch: 7, val_loss: 0.01234 }, 'CheckpointHook'); // 'fit-007-0.012'
 */
export function checkpointFilename(template: string, values: Readonly<Record<string, number>>, owner: string): string {
  return template.replace(FIELD, (_match, name: string, format: string | undefined) => {
    const value = values[name];
    if (typeof value !== 'number') {
      throw new HookmdError('METRIC_NOT_FOUND', `${owner}: the filename template names '${name}', which is not a metric; known: ${Object.keys(values).sort().join(', ')}`, {
        field: 'filename',
        value: name,
      });
    }
    if (format === undefined) return String(value);
    const width = Number(format.slice(1, -1));
    return format.endsWith('f') ? value.toFixed(width) : String(Math.trunc(value)).padStart(width, '0');
  });
}
