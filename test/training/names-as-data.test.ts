// Issue 27, item 9: names are data, not code. Metrics and log columns named after Object.prototype's
// members (constructor, valueOf, toString, hasOwnProperty, __proto__) reach the training csv and jsonl,
// the dynamics log, and `hookmd view` like any other name; a self-referencing info is INVALID_INFO in
// ZarrSink.write, as in writeExtxyz.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { VelocityVerlet } from '../../lib/dynamics/index.js';
import { LoggingHook } from '../../lib/index.js';
import { readZarr, writeExtxyz, ZarrSink } from '../../lib/io/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { TrainingLoggingHook, TrainingStage } from '../../lib/training/index.js';
import type { TrainingHook, TrainingHookContext } from '../../lib/training/index.js';
import { loadViewData } from '../../lib/view/index.js';
import { makeTrainer, removeTempDirs, tempDir } from './fixtures.js';

afterAll(removeTempDirs);

const NAMES = ['constructor', 'valueOf', 'toString', 'hasOwnProperty', '__proto__'];

/** Sets metric `name` to 100 + its index + the epoch at AFTER_EPOCH. */
const namedMetrics: TrainingHook = {
  name: 'NamedMetrics', stage: TrainingStage.AFTER_EPOCH, frequency: 1,
  call: (ctx: TrainingHookContext) => {
    NAMES.forEach((name, i) => Object.defineProperty(ctx.metrics, name, { value: 100 + i + ctx.epoch, enumerable: true, writable: true, configurable: true }));
  },
};

describe('training logs', () => {
  it.each(['csv', 'jsonl'] as const)('%s: metrics and columns named constructor, valueOf, toString, __proto__ are columns like any other', async (format) => {
    const dir = tempDir('names');
    const path = join(dir, `fit.${format}`);
    const columns = Object.fromEntries([['valueOf', () => 7], ['toString', () => 'text'], ['isPrototypeOf', () => 9]]);
    const rows: Record<string, unknown>[] = [];
    const log = new TrainingLoggingHook({ path, format, columns, writer: (row) => void rows.push({ ...row }) });
    const { epochs } = await makeTrainer({ epochs: 2, hooks: [namedMetrics, log] }).fit();
    expect(Object.getOwnPropertyNames(epochs[1].metrics)).toEqual(expect.arrayContaining(NAMES));
    const text = readFileSync(path, 'utf8').trim().split('\n');
    let parsed: Record<string, unknown>[];
    if (format === 'csv') {
      const header = (text[0] as string).split(',');
      expect(header).toEqual(expect.arrayContaining([...NAMES, 'isPrototypeOf']));
      parsed = text.slice(1).map((line) => Object.fromEntries(line.split(',').map((cell, i) => [header[i], cell])));
    } else {
      parsed = text.filter((line) => !line.includes('"event"')).map((line) => JSON.parse(line) as Record<string, unknown>);
    }
    expect(parsed).toHaveLength(2);
    const own = (row: Record<string, unknown>, name: string): unknown => (Object.hasOwn(row, name) ? row[name] : 'absent');
    expect(String(own(parsed[1], 'constructor'))).toBe('101');
    expect(String(own(parsed[1], '__proto__'))).toBe('105');
    // A custom column wins over a metric of the same name, as for any name.
    expect(String(own(parsed[1], 'valueOf'))).toBe('7');
    expect(own(parsed[1], 'toString')).toBe('text');
    expect(String(own(parsed[1], 'isPrototypeOf'))).toBe('9');
    expect(own(rows[0], 'constructor')).toBe(100);

    // hookmd view reads the log, with every column.
    const data = await loadViewData([path]);
    const training = data.training as Record<string, unknown[]>;
    for (const name of [...NAMES, 'isPrototypeOf']) expect(Object.hasOwn(training, name)).toBe(true);
    expect(training['constructor']).toEqual([100, 101]);
    expect(Object.getPrototypeOf(training) === null || Object.getPrototypeOf(training) === Object.prototype).toBe(true);
  });
});

describe('dynamics logs', () => {
  it('a LoggingHook column named constructor or __proto__ is logged, and hookmd view shows it', async () => {
    const dir = tempDir('names-md');
    const path = join(dir, 'md.csv');
    const columns = Object.fromEntries([['constructor', () => 1], ['__proto__', () => 2]]);
    const batch = Batch.fromSystems([{ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [3.8, 0, 0]] }]);
    const engine = new VelocityVerlet({ model: new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8 }), dt: 0.002, hooks: [new LoggingHook({ path, frequency: 1, columns })] });
    await engine.run(batch, { steps: 2 });
    const [header] = readFileSync(path, 'utf8').split('\n');
    expect(header?.split(',')).toEqual(expect.arrayContaining(['constructor', '__proto__']));
    const data = await loadViewData([path]);
    const scalars = data.systems[0]?.scalars as Record<string, unknown[]>;
    expect(Object.hasOwn(scalars, 'constructor') && Object.hasOwn(scalars, '__proto__')).toBe(true);
    const column = scalars['constructor'] as unknown[];
    expect(column.length).toBeGreaterThan(0);
    expect(column.every((v) => v === 1)).toBe(true);
  });
});

describe('ZarrSink.write', () => {
  it('a self-referencing info is INVALID_INFO, as in writeExtxyz, and the store keeps its earlier systems', async () => {
    const dir = tempDir('names-zarr');
    const info: Record<string, unknown> = { name: 'loop' };
    info.self = info;
    const system = { symbols: ['Ar'], positions: [[0, 0, 0]], info };
    await expect(writeExtxyz(join(dir, 'x.xyz'), [system])).rejects.toMatchObject({ code: 'INVALID_INFO' });
    const sink = new ZarrSink(join(dir, 'x.zarr'));
    await sink.write([{ symbols: ['Ar'], positions: [[0, 0, 0]] }]);
    await expect(sink.write([system])).rejects.toMatchObject({ code: 'INVALID_INFO', message: expect.stringMatching(/info/) });
    await sink.close();
    expect(await readZarr(join(dir, 'x.zarr'))).toHaveLength(1);
  });
});
