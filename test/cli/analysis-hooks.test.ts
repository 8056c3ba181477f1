// RdfHook, MsdHook and VacfHook in a `hookmd run` config (issue 39 item 37): the csv files they write hold each
// system's MSD and g(r) as computed from the run's own trajectory (SnapshotHook frames at the same steps) and
// the VACF of the same NVE run in the library; `hookmd view` joins the MSD and VACF rows to the log's rows of
// the same system and step and gives each system its g(r) plot; bad entries exit 2 naming the entry.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { registerConfigHooks } from '../../lib/cli/hooks.js';
import { formatPath } from '../../lib/cli/json-schema.js';
import { Batch, bulk, repeat, type System } from '../../lib/data/index.js';
import { DynamicsStage, initializeVelocities, radialDistribution, VacfHook, VelocityVerlet } from '../../lib/dynamics/index.js';
import { HookRegistry } from '../../lib/hooks/index.js';
import { readExtxyz, writeExtxyz } from '../../lib/io/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { loadViewData } from '../../lib/view/index.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';
import { columnName } from '../../lib/dynamics/hooks/log-units.js';

const model = new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 });
let dir: string;
let input: System[];

const CONFIG = `model: { type: lj, epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 }
input: ar.xyz
stages:
  - { type: nve, dt: 5, steps: 200 }
hooks:
  - { type: MsdHook, frequency: 20, path: msd.csv }
  - { type: VacfHook, frequency: 20, path: vacf.csv }
  - { type: RdfHook, rmax: 7, nbins: 70, frequency: 50, path: rdf.csv }
  - { type: LoggingHook, frequency: 20, path: md.csv }
  - { type: SnapshotHook, frequency: 50, path: traj.xyz }
sinks:
  - { path: out.xyz }
`;

/** The rows of a csv file with a header, as records of numbers (an empty cell is null). */
function csv(path: string): Array<Record<string, number | null>> {
  const [header, ...rows] = readFileSync(path, 'utf8').trim().split('\n').map((line) => line.split(','));
  // Keyed by column name: the header also names each unit (`msd[Å^2]`).
  return rows.map((cells) => Object.fromEntries((header as string[]).map((name, i) => [columnName(name), cells[i] === '' ? null : Number(cells[i])])));
}

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  // Two argon crystals at 60 K, their velocities in the input (a stage's `velocities:` draws them after the
  // state of step 0, which the hooks see at rest).
  const batch = Batch.fromSystems([repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), 3), repeat(bulk('Ar', 'fcc', { a: 5.4, cubic: true }), 3)]);
  initializeVelocities(batch, { temperature: 60, seed: 3 });
  input = batch.toSystems();
  await writeExtxyz(join(dir, 'ar.xyz'), input);
  writeFileSync(join(dir, 'md.yaml'), CONFIG);
  const run = await runCli(['run', 'md.yaml', '--quiet'], { cwd: dir });
  expect(run.code, run.stderr).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('analysis hooks in a run config', () => {
  it('MsdHook writes each system’s ⟨|r(t) − r(0)|²⟩ of the run’s own trajectory', () => {
    const msd = csv(join(dir, 'msd.csv'));
    expect(msd.map((row) => row.step)).toEqual([0, 1].flatMap(() => Array.from({ length: 11 }, (_, k) => 20 * k)));
    // The frames every 50 steps meet the MSD's rows every 20 at steps 0, 100 and 200.
    const frames = readExtxyz(join(dir, 'traj.xyz')).filter((frame) => (frame.info?.step as number) % 20 === 0);
    expect(frames).toHaveLength(6);
    for (const frame of frames) {
      const id = frame.info?.systemId as number;
      const start = (input[id] as System).positions as number[][];
      const expected = (frame.positions as number[][]).reduce((sum, r, i) => sum + (r[0] - start[i][0]) ** 2 + (r[1] - start[i][1]) ** 2 + (r[2] - start[i][2]) ** 2, 0) / start.length;
      const row = msd.find((r) => r.systemId === id && r.step === frame.info?.step);
      expect(row?.msd).toBeCloseTo(expected, 10);
    }
  });

  it('VacfHook writes the VACF of the same NVE run in the library', async () => {
    const vacf = new VacfHook({ frequency: 20 });
    await new VelocityVerlet({ model, dt: 5, hooks: [vacf] }).run(Batch.fromSystems(input), { steps: 200 });
    const rows = csv(join(dir, 'vacf.csv'));
    for (const id of [0, 1]) {
      const mine = rows.filter((row) => row.systemId === id);
      expect(mine.map((row) => row.step)).toEqual(vacf.series(id)?.steps);
      expect(mine.map((row) => row.vacf)).toEqual(vacf.series(id)?.values.map((v) => expect.closeTo(v, 12)));
    }
    expect(rows[0]?.vacf).toBeGreaterThan(0);
  });

  it('RdfHook writes each system’s g(r), the average over the frames at its steps', () => {
    const rows = csv(join(dir, 'rdf.csv'));
    const frames = readExtxyz(join(dir, 'traj.xyz'));
    for (const id of [0, 1]) {
      const mine = frames.filter((frame) => frame.info?.systemId === id);
      expect(mine).toHaveLength(5);
      const g = mine.map((frame) => radialDistribution(Batch.fromSystems([frame]), 0, 7, 70).g);
      const average = Array.from({ length: 70 }, (_, k) => g.reduce((sum, one) => sum + (one[k] as number), 0) / g.length);
      const file = rows.filter((row) => row.systemId === id);
      expect(file.map((row) => row.frames)).toEqual(new Array(70).fill(5));
      expect(file.map((row) => row.g)).toEqual(average.map((v) => expect.closeTo(v, 10)));
    }
  });

  it('hookmd view joins the MSD and VACF rows to the log and plots each system’s g(r)', async () => {
    const data = await loadViewData(['md.csv', 'msd.csv', 'vacf.csv', 'rdf.csv'].map((name) => join(dir, name)));
    const log = csv(join(dir, 'md.csv'));
    const msd = csv(join(dir, 'msd.csv'));
    const rdf = csv(join(dir, 'rdf.csv'));
    expect(data.systems.map((s) => s.key)).toEqual(['id:0', 'id:1']);
    for (const system of data.systems) {
      const id = Number(system.key.slice(3));
      // One row per logged step, with the log's energy and the MSD of that step beside it.
      expect(system.scalars.step).toEqual(log.filter((row) => row.systemId === id).map((row) => row.step));
      expect(system.scalars.energy).toEqual(log.filter((row) => row.systemId === id).map((row) => row.energy));
      expect(system.scalars.msd).toEqual(msd.filter((row) => row.systemId === id).map((row) => row.msd));
      expect(system.scalars.vacf?.every((v) => typeof v === 'number')).toBe(true);
      const plot = data.plots.find((p) => p.system === system.key);
      expect(plot?.series[0]?.x).toEqual(rdf.filter((row) => row.systemId === id).map((row) => row.r));
      expect(plot?.series[0]?.y).toEqual(rdf.filter((row) => row.systemId === id).map((row) => row.g));
    }
  });

  it('on an MD engine the files get a time column, step × dt (fs), as a LoggingHook log has', async () => {
    const engine = new VelocityVerlet({ model, dt: 5 });
    const path = join(dir, 'engine-msd.csv');
    registerConfigHooks(engine, [{ type: 'MsdHook', frequency: 50, path }], 'metal', formatPath);
    await engine.run(Batch.fromSystems(input), { steps: 100 });
    expect(csv(path).map((row) => [row.step, row.time])).toEqual([0, 1].flatMap(() => [[0, 0], [50, 250], [100, 500]]));
    expect(readFileSync(path, 'utf8').split('\n')[0]).toMatch(/^step,time\[fs\],systemId,(msd\[Å\^2\]|vacf\[Å\^2\/fs\^2\])$/);
    // Given to the engine's constructor, which registers it before its time step exists.
    const given = join(dir, 'given-vacf.csv');
    const [handle] = new HookRegistry(DynamicsStage).fromConfig([{ type: 'VacfHook', frequency: 50, path: given }]);
    await new VelocityVerlet({ model, dt: 5, hooks: [handle?.hook as never] }).run(Batch.fromSystems(input), { steps: 100 });
    expect(csv(given).map((row) => row.time)).toEqual([0, 1].flatMap(() => [0, 250, 500]));
  });

  it.each([
    ['{ type: MsdHook, frequency: 20 }', /hooks\[0\].*path/],
    ['{ type: RdfHook, path: rdf.csv }', /hooks\[0\].*rmax/],
    ['{ type: RdfHook, rmax: -1, path: rdf.csv }', /hooks\[0\]\.rmax/],
    ['{ type: VacfHook, path: v.csv, every: 3 }', /hooks\[0\].*every/],
  ])('%s exits 2 naming the entry', async (entry, message) => {
    writeFileSync(join(dir, 'bad.yaml'), CONFIG.replace(/hooks:[\s\S]*sinks:/, `hooks:\n  - ${entry}\nsinks:`));
    const run = await runCli(['run', 'bad.yaml', '--quiet'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('from registry.fromConfig, bad arguments are typed errors naming the option', () => {
    const registry = new HookRegistry(DynamicsStage);
    expect(() => registry.fromConfig([{ type: 'MsdHook' }])).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/MsdHook: path must be/) }));
    expect(() => registry.fromConfig([{ type: 'RdfHook', rmax: 0, path: 'r.csv' }])).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
    expect(() => registry.fromConfig([{ type: 'VacfHook', path: 'v.csv', frequncy: 3 }])).toThrow(expect.objectContaining({ code: 'UNKNOWN_OPTION', message: expect.stringMatching(/frequency/) }));
  });
});
