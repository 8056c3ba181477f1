// Issue 39, item 23: a LoggingHook whose write fails part-way (a full disk) cuts its file back to whole rows,
// as ExtxyzSink does, before it reports LOG_WRITE_FAILED.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it, vi } from 'vitest';

// The disk fills during the second append: half of what was asked is written, then ENOSPC.
const disk = vi.hoisted(() => ({ appends: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const appendFileSync = (path: Parameters<typeof fs.appendFileSync>[0], data: string | Uint8Array, ...rest: unknown[]): void => {
    disk.appends += 1;
    if (disk.appends !== 2 || typeof data !== 'string') return fs.appendFileSync(path, data, ...(rest as []));
    fs.appendFileSync(path, data.slice(0, Math.floor(data.length / 2)));
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  };
  return { ...fs, default: { ...fs, appendFileSync }, appendFileSync };
});

const { DynamicsStage, VelocityVerlet } = await import('../../lib/dynamics/index.js');
const { LoggingHook } = await import('../../lib/dynamics/hooks/logging-hook.js');
const { LennardJones } = await import('../../lib/models/index.js');
const { ljBatch, perturbedLj13 } = await import('./lj-systems.js');

describe('LoggingHook on a full disk', () => {
  it('leaves only whole rows in the file, and says LOG_WRITE_FAILED', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'hookmd-log-')), 'md.csv');
    const log = new LoggingHook({ path, frequency: 1, bufferRows: 2, stage: DynamicsStage.AFTER_STEP });
    const md = new VelocityVerlet({ model: new LennardJones({ epsilon: 1, sigma: 1, cutoff: 3 }), dt: 0.002, hooks: [log] });
    const error = await md.run(ljBatch([perturbedLj13(0.05), perturbedLj13(0.05, 2)]), { steps: 20 }).then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ cause: expect.objectContaining({ code: 'LOG_WRITE_FAILED' }) });
    const text = readFileSync(path, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const [header, ...rows] = text.trimEnd().split('\n');
    for (const row of rows) expect(row.split(',')).toHaveLength(header.split(',').length);
  });
});
