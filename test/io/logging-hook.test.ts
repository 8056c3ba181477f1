// LoggingHook: one row per system for the input state, every multiple of the interval and the last step,
// values equal to the batch's, a stable header written once, buffered writes flushed on close, and
// registration from a config.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

// The public entry: importing it registers every built-in hook type for configs.
import { ConvergenceHook, DynamicsStage, FIRE, hookTypes, initializeVelocities, LennardJones, LOG_COLUMNS, LoggingHook, VelocityVerlet } from '../../lib/index.js';
import { SystemScalars } from '../../lib/dynamics/index.js';
import { columnName } from '../../lib/dynamics/hooks/log-units.js';
import type { Batch, DynamicsHookContext, LogRow } from '../../lib/index.js';
import { ljBatch, perturbedLj13 } from '../dynamics/lj-systems.js';

const dir = mkdtempSync(join(tmpdir(), 'hookmd-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const model = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });
const clusters = (): ReturnType<typeof ljBatch> => ljBatch([perturbedLj13(0.1), perturbedLj13(0.2, 1), perturbedLj13(0.3, 2)]);

/** The rows of the state after `step` steps, as the batch and its scalars hold it. */
function stateRows(step: number, batch: Batch, scalars: SystemScalars, rows: LogRow[]): void {
  for (let s = 0; s < batch.numSystems; s++) {
    rows.push({
      step, time: '', system: s, systemId: batch.systemId[s], status: batch.status[s], temperature: scalars.temperature[s],
      energy: scalars.energy[s], kineticEnergy: scalars.kineticEnergy[s], totalEnergy: scalars.energy[s] + scalars.kineticEnergy[s],
      fmax: scalars.fmax[s], twice: 2 * scalars.energy[s],
    });
  }
}

/**
 * Records the state after every multiple of `frequency` steps where a step begins: at BEFORE_STEP of step k
 * the batch holds the state after k steps (the run's last state is read from the batch after it).
 */
function probe(frequency: number, rows: LogRow[]): { stage: DynamicsStage; frequency: number; order: number; call: (ctx: DynamicsHookContext) => void } {
  return { stage: DynamicsStage.BEFORE_STEP, frequency, order: 10, call: (ctx) => stateRows(ctx.stepCount, ctx.batch, ctx.scalars, rows) };
}

function parseCsv(text: string): { header: string[]; rows: LogRow[] } {
  const [head, ...lines] = text.trimEnd().split('\n');
  // The header names each built-in column's unit (`energy[ε]`, test/dynamics/log-units.test.ts).
  const header = head.split(',').map(columnName);
  const rows = lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [header[i], cell === '' ? '' : Number(cell)])));
  return { header, rows };
}

describe('LoggingHook', () => {
  it('writes one csv row per system per firing, equal to the batch values, header first', async () => {
    const path = join(dir, 'fire.csv');
    const log = new LoggingHook({ path, frequency: 5, columns: { twice: (ctx, s) => 2 * ctx.scalars.energy[s] } });
    const expected: LogRow[] = [];
    const fire = new FIRE({ model: model(), hooks: [log, probe(5, expected)] });
    const batch = clusters();
    await fire.run(batch, { steps: 23 });
    stateRows(23, batch, new SystemScalars(batch), expected);
    const { header, rows } = parseCsv(readFileSync(path, 'utf8'));
    expect(header).toEqual([...LOG_COLUMNS, 'twice']);
    // The input (step 0), every multiple of 5, and the last step.
    expect(rows.map((r) => r.step)).toEqual([0, 5, 10, 15, 20, 23].flatMap((step) => [step, step, step]));
    expect(rows).toEqual(expected);
    expect(rows.slice(3).every((r) => Number(r.fmax) > 0)).toBe(true);
  });

  it('logs thermo as LAMMPS and ASE do: step, time = step × dt, T, potential, kinetic and total energy', async () => {
    expect(LOG_COLUMNS).toEqual(['step', 'time', 'system', 'systemId', 'status', 'temperature', 'energy', 'kineticEnergy', 'totalEnergy', 'fmax']);
    const path = join(dir, 'nve.csv');
    const batch = clusters();
    initializeVelocities(batch, { temperature: 0.5, seed: 3 });
    const log = new LoggingHook({ path, frequency: 4 });
    await new VelocityVerlet({ model: model(), dt: 0.005, hooks: [log] }).run(batch, { steps: 9 });
    const { rows } = parseCsv(readFileSync(path, 'utf8'));
    expect(rows.map((r) => r.step)).toEqual([0, 4, 8, 9].flatMap((step) => [step, step, step]));
    rows.forEach((row) => expect(row.time).toBeCloseTo(0.005 * Number(row.step), 15));
    for (const row of rows) {
      expect(Number(row.kineticEnergy)).toBeGreaterThan(0);
      expect(row.totalEnergy).toBeCloseTo(Number(row.energy) + Number(row.kineticEnergy), 12);
    }
  });

  it('append keeps the rows already in the file (a resumed run) and writes the header only to an empty file', async () => {
    const path = join(dir, 'append.csv');
    await new FIRE({ model: model(), hooks: [new LoggingHook({ path, frequency: 5 })] }).run(clusters(), { steps: 6 });
    const first = readFileSync(path, 'utf8');
    await new FIRE({ model: model(), hooks: [new LoggingHook({ path, frequency: 5, append: true })] }).run(clusters(), { steps: 6 });
    const both = readFileSync(path, 'utf8');
    expect(both.startsWith(first)).toBe(true);
    expect(parseCsv(both).rows).toHaveLength(2 * parseCsv(first).rows.length);
    expect(both.split('\n').filter((line) => line.startsWith('step,'))).toHaveLength(1);
    const fresh = join(dir, 'append-new.csv');
    await new FIRE({ model: model(), hooks: [new LoggingHook({ path: fresh, frequency: 5, append: true })] }).run(clusters(), { steps: 6 });
    expect(readFileSync(fresh, 'utf8')).toBe(first);
    expect(() => new LoggingHook({ path, append: 'yes' as unknown as boolean })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });

  it('writes jsonl and passes every row to a writer; the header stays the same across runs', async () => {
    const path = join(dir, 'fire.jsonl');
    const seen: LogRow[] = [];
    const log = new LoggingHook({ path, format: 'jsonl', frequency: 4, writer: (row) => seen.push(row), stage: 'AFTER_STEP' });
    const expected: LogRow[] = [];
    const fire = new FIRE({ model: model(), convergence: ConvergenceHook.fromFmax(1e-12), hooks: [log, probe(4, expected)] });
    const batch = clusters();
    await fire.run(batch, { steps: 8 });
    await fire.run(batch, { steps: 4 });
    stateRows(12, batch, new SystemScalars(batch), expected);
    const rows = readFileSync(path, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as LogRow);
    const strip = ({ twice: _, ...row }: LogRow): LogRow => row;
    expect(rows).toEqual(expected.map(strip));
    expect(seen).toEqual(rows);
    expect(Object.keys(rows[0])).toEqual([...LOG_COLUMNS]);
    // The second run starts from step 8, which the first one logged as its last: no row twice.
    expect(rows.map((r) => r.step)).toEqual([0, 4, 8, 12].flatMap((step) => [step, step, step]));
  });

  it('buffers file rows until close() (or bufferRows), and writes the csv header once', () => {
    const path = join(dir, 'buffered.csv');
    const log = new LoggingHook({ path, bufferRows: 4 });
    const batch = clusters();
    model().compute(batch);
    const ctx = { batch, stepCount: 0 } as unknown as DynamicsHookContext;
    log.call(ctx);
    expect(existsSync(path)).toBe(false);
    log.call({ ...ctx, stepCount: 1 } as DynamicsHookContext);
    expect(parseCsv(readFileSync(path, 'utf8')).rows).toHaveLength(6);
    log.call({ ...ctx, stepCount: 2 } as DynamicsHookContext);
    expect(parseCsv(readFileSync(path, 'utf8')).rows).toHaveLength(6);
    log.close();
    const { header, rows } = parseCsv(readFileSync(path, 'utf8'));
    expect(header).toEqual(LOG_COLUMNS);
    // At AFTER_STEP of step k the systems have taken k + 1 steps.
    expect(rows.map((r) => r.step)).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3]);
    expect(rows[0].energy).toBe(batch.read('energy')[0]);
  });

  it('is registered for configs and validates its options', async () => {
    expect(hookTypes()).toEqual(expect.arrayContaining(['LoggingHook', 'SnapshotHook', 'ConvergedSnapshotHook']));
    const path = join(dir, 'config.jsonl');
    const fire = new FIRE({ model: model() });
    fire.hooks.fromConfig([{ type: 'LoggingHook', path, format: 'jsonl', frequency: 3 }]);
    await fire.run(clusters(), { steps: 7 });
    const rows = readFileSync(path, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as LogRow);
    expect(rows.map((r) => r.step)).toEqual([0, 3, 6, 7].flatMap((step) => [step, step, step]));
    expect(() => fire.hooks.fromConfig([{ type: 'LoggingHook', path, format: 'xml' }])).toThrow(/hooks\[0\]\.format/);
    expect(() => fire.hooks.fromConfig([{ type: 'LoggingHook', path, frequency: 0 }])).toThrow(expect.objectContaining({ code: 'INVALID_FREQUENCY' }));
    expect(() => new LoggingHook({})).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', details: expect.objectContaining({ field: 'path' }) }));
    expect(() => new LoggingHook({ path, stage: 'AFTER_LUNCH' as 'AFTER_STEP' })).toThrow(expect.objectContaining({ code: 'INVALID_STAGE' }));
  });

  it('reports an unwritable file as LOG_WRITE_FAILED', () => {
    const log = new LoggingHook({ path: join(dir, 'no', 'such', 'dir.csv') });
    expect(() => log.close()).toThrow(expect.objectContaining({ code: 'LOG_WRITE_FAILED' }));
  });
});
