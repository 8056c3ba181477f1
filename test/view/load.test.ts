// What the page is given: files read into systems, frames and scalar columns. Counts and values are
// taken from the files by plain text handling (or from what was written), not from hookmd's readers.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { ZarrSink } from '../../lib/io/index.js';
import { parseCsv, readLog } from '../../lib/view/log-read.js';
import { loadViewData, viewFileKind } from '../../lib/view/index.js';
import { mdFiles, trainingLog, type MdFiles } from './fixtures.js';
import { columnName } from '../../lib/dynamics/hooks/log-units.js';

let md: MdFiles;
beforeAll(async () => {
  md = await mdFiles(100, 20, 10);
});

describe('loadViewData', () => {
  it('joins a trajectory and its log into one system through systemId', async () => {
    const data = await loadViewData([md.traj, md.log]);
    expect(data.systems).toHaveLength(1);
    const [system] = data.systems;
    expect(system.key).toBe('id:0');
    expect(system.symbols).toEqual(Array(32).fill('Ar'));
    const text = readFileSync(md.log, 'utf8').trim().split('\n');
    const header = text[0].split(',').map(columnName);
    const column = (name: string): number[] => text.slice(1).map((line) => Number(line.split(',')[header.indexOf(name)]));
    expect(system.scalars.step).toEqual(column('step'));
    expect(system.scalars.energy).toEqual(column('energy'));
    expect(system.scalars.temperature).toEqual(column('temperature'));
    // Frames: the count and the first atom of the last frame as the file has them.
    const frames = readFileSync(md.traj, 'utf8').split('\n').filter((line) => line.includes('Lattice='));
    expect(system.frames).toHaveLength(frames.length);
    const lastFrame = readFileSync(md.traj, 'utf8').trim().split('\n');
    const firstAtomOfLast = lastFrame[lastFrame.length - 32].trim().split(/\s+/).slice(1, 4).map(Number);
    expect(system.frames.at(-1)?.positions.slice(0, 3)).toEqual(firstAtomOfLast);
    expect(system.frames[0].cell).toEqual([10.52, 0, 0, 0, 10.52, 0, 0, 0, 10.52]);
    expect(data.files.map((f) => f.href)).toEqual(['files/0/traj.extxyz', 'files/1/md.csv']);
  });

  it('plots a trajectory without a log from its frames: energy and fmax per frame', async () => {
    const data = await loadViewData([md.traj]);
    const [system] = data.systems;
    expect(system.scalars.step).toEqual(system.frames.map((f) => f.step));
    const energies = readFileSync(md.traj, 'utf8').split('\n').filter((line) => line.includes('Lattice=')).map((line) => Number(/\benergy=(\S+)/.exec(line)?.[1]));
    expect(system.scalars.energy).toEqual(energies);
    expect(system.scalars.fmax).toHaveLength(energies.length);
    expect(system.scalars.fmax?.every((f) => f !== null && f > 0)).toBe(true);
  });

  it('reads a ZarrSink store: one system per stored system, with its energy and converged flag', async () => {
    const path = join(md.dir, 'out.zarr');
    const sink = new ZarrSink(path);
    const systems = [0, 1, 2].map((k) => ({ symbols: ['Cu', 'Cu'], positions: [[0, 0, 0], [0, 0, 2 + k / 10]], energy: -k, info: { systemId: 10 + k, converged: k !== 1, steps: 5 } }));
    await sink.write(systems);
    await sink.close();
    expect(viewFileKind(path)).toBe('zarr');
    const data = await loadViewData([path]);
    expect(data.systems.map((s) => [s.key, s.energy, s.converged, s.frames[0].positions[5]])).toEqual([
      ['id:10', -0, true, 2], ['id:11', -1, false, 2.1], ['id:12', -2, true, 2.2],
    ]);
    // A store is a directory: listed, not downloadable as one file.
    expect(data.files).toEqual([{ name: 'out.zarr', href: null }]);
  });

  it('reads a training log against epoch, without its metadata line', async () => {
    const data = await loadViewData([trainingLog(md.dir, 5)]);
    expect(data.systems).toEqual([]);
    expect(data.training?.epoch).toEqual([0, 1, 2, 3, 4]);
    expect(data.training?.val_loss).toHaveLength(5);
    expect(data.training?.runId).toBeUndefined();
  });

  it('frames without systemIds are one trajectory when their atoms match, else separate systems', async () => {
    const same = join(md.dir, 'same.xyz');
    writeFileSync(same, '1\nProperties=species:S:1:pos:R:3\nH 0 0 0\n1\nProperties=species:S:1:pos:R:3\nH 0 0 1\n');
    const mixed = join(md.dir, 'mixed.xyz');
    writeFileSync(mixed, '1\nProperties=species:S:1:pos:R:3\nH 0 0 0\n1\nProperties=species:S:1:pos:R:3\nHe 0 0 1\n');
    expect((await loadViewData([same])).systems.map((s) => s.frames.length)).toEqual([2]);
    expect((await loadViewData([mixed])).systems.map((s) => s.symbols)).toEqual([['H'], ['He']]);
  });

  it('refuses what it cannot read with typed errors', async () => {
    const other = join(md.dir, 'other.csv');
    writeFileSync(other, 'a,b\n1,2\n');
    await expect(loadViewData([other])).rejects.toMatchObject({ code: 'VIEW_UNKNOWN_LOG' });
    await expect(loadViewData([join(md.dir, 'missing.xyz')])).rejects.toMatchObject({ code: 'VIEW_READ_FAILED' });
    const broken = join(md.dir, 'broken.jsonl');
    writeFileSync(broken, '{"step": 0, "system": 0}\n{oops\n');
    await expect(loadViewData([broken])).rejects.toMatchObject({ code: 'VIEW_BAD_LOG' });
  });
});

describe('csv', () => {
  it('reads RFC 4180 quoting: commas, doubled quotes and line breaks inside quotes, CRLF', () => {
    expect(parseCsv('a,"b,c","say ""hi""","two\nlines"\r\n1,2,3,4\n')).toEqual([['a', 'b,c', 'say "hi"', 'two\nlines'], ['1', '2', '3', '4']]);
  });

  it('reads a LoggingHook csv with a quoted custom column as numbers, and text as null', () => {
    const path = join(md.dir, 'custom.csv');
    writeFileSync(path, 'step,system,energy,note\n0,0,-1.5,"a, b"\n10,0,-1.25,c\n');
    expect(readLog(path)).toEqual({ kind: 'dynamics', rows: [{ step: 0, system: 0, energy: -1.5, note: null }, { step: 10, system: 0, energy: -1.25, note: null }] });
  });
});
