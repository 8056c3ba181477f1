// Issue 39 item 15 and issue 46's CLI/view item: readStructures, openSink, `hookmd view`'s loader and the CLI
// tell ASE .traj, LAMMPS dump and H5MD files by extension and by content, read them, and name a format they
// cannot read (or say they cannot tell) in printable text instead of misreading it as POSCAR.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { bulk, type System } from '../../lib/data/index.js';
import {
  H5mdSink, LammpsDumpSink, openSink, readStructures, readTraj, structureFormat, TrajSink, writeTraj,
} from '../../lib/io/index.js';
import { loadViewData, viewFileKind } from '../../lib/view/index.js';
import { ensureBuilt, runCli } from '../cli/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'hookmd-formats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const copper = (): System => ({ ...bulk('Cu', 'fcc', { a: 3.6, cubic: true }), info: { step: 3 } });
const printable = (message: string): void => expect(message).not.toMatch(/[\x00-\x08\x0e-\x1f\x7f-\x9f]/);

beforeAll(async () => {
  await writeTraj(join(dir, 'cu.traj'), [copper(), copper()]);
  const dump = new LammpsDumpSink(join(dir, 'cu.lammpstrj'));
  await dump.write([copper()]);
  await dump.close();
  const h5 = new H5mdSink(join(dir, 'cu.h5md'));
  await h5.write([copper()]);
  await h5.close();
  copyFileSync(join(dir, 'cu.traj'), join(dir, 'noext-traj'));
  copyFileSync(join(dir, 'cu.lammpstrj'), join(dir, 'noext-dump'));
  copyFileSync(join(dir, 'cu.h5md'), join(dir, 'noext-h5'));
  writeFileSync(join(dir, 'noise.bin'), Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x10, 0x41, 0x42, 0x0a, 0x07]));
});

describe('telling formats apart', () => {
  it('by extension and by content', () => {
    expect(structureFormat(join(dir, 'cu.traj'))).toBe('traj');
    expect(structureFormat(join(dir, 'cu.lammpstrj'))).toBe('lammps-dump');
    expect(structureFormat(join(dir, 'cu.h5md'))).toBe('h5md');
    expect(structureFormat(join(dir, 'noext-traj'))).toBe('traj');
    expect(structureFormat(join(dir, 'noext-dump'))).toBe('lammps-dump');
    expect(structureFormat(join(dir, 'noext-h5'))).toBe('h5md');
  });

  it('readStructures reads .traj and dumps (named or not), names H5MD, and cannot tell binary noise, in printable text', () => {
    for (const name of ['cu.traj', 'noext-traj', 'cu.lammpstrj', 'noext-dump']) {
      const systems = readStructures(join(dir, name));
      expect(systems.length, name).toBeGreaterThan(0);
      expect(systems[0]?.positions, name).toHaveLength(4);
    }
    expect(readStructures(join(dir, 'noext-traj'))).toEqual(readTraj(join(dir, 'cu.traj')));
    for (const name of ['cu.h5md', 'noext-h5']) {
      try {
        readStructures(join(dir, name));
        expect.unreachable();
      } catch (error) {
        expect(error).toMatchObject({ code: 'UNSUPPORTED_FORMAT' });
        expect((error as Error).message).toMatch(/H5MD.*readH5md/);
        printable((error as Error).message);
      }
    }
    try {
      readStructures(join(dir, 'noise.bin'));
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'UNKNOWN_FORMAT' });
      expect((error as Error).message).toMatch(/cannot tell the format.*binary/);
      printable((error as Error).message);
    }
  });

  it('openSink writes each format by extension', () => {
    expect(openSink(join(dir, 'o.traj'))).toBeInstanceOf(TrajSink);
    expect(openSink(join(dir, 'o.lammpstrj'))).toBeInstanceOf(LammpsDumpSink);
    expect(openSink(join(dir, 'o.dump'))).toBeInstanceOf(LammpsDumpSink);
    expect(openSink(join(dir, 'o.h5md'))).toBeInstanceOf(H5mdSink);
  });

  it("hookmd view's loader opens them, and says what it cannot tell", async () => {
    expect(viewFileKind(join(dir, 'noext-traj'))).toBe('traj');
    expect(viewFileKind(join(dir, 'noext-dump'))).toBe('lammps-dump');
    expect(viewFileKind(join(dir, 'noext-h5'))).toBe('h5md');
    const data = await loadViewData([join(dir, 'cu.traj'), join(dir, 'cu.lammpstrj'), join(dir, 'cu.h5md')]);
    expect(data.systems.reduce((n, s) => n + s.frames.length, 0)).toBe(4);
    try {
      viewFileKind(join(dir, 'noise.bin'));
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'VIEW_READ_FAILED' });
      printable((error as Error).message);
    }
  });
});

describe('the CLI reads and writes them by extension', () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it('relax reads a .traj and writes a .traj; a binary input exits 2 with a printable message', async () => {
    const relaxed = await runCli(['relax', 'cu.traj', '--model', 'lj:epsilon=0.4,sigma=2.3,cutoff=5', '--max-steps', '5', '--out', 'relaxed.traj'], { cwd: dir });
    expect(relaxed.code, relaxed.stderr).toBe(0);
    expect(readTraj(join(dir, 'relaxed.traj'))).toHaveLength(2);
    const dumped = await runCli(['relax', 'cu.lammpstrj', '--model', 'lj:epsilon=0.4,sigma=2.3,cutoff=5', '--max-steps', '5', '--out', 'relaxed.dump'], { cwd: dir });
    expect(dumped.code, dumped.stderr).toBe(0);
    expect(readStructures(join(dir, 'relaxed.dump'))).toHaveLength(1);
    const bad = await runCli(['relax', 'noise.bin', '--model', 'lj:epsilon=0.4,sigma=2.3,cutoff=5', '--out', 'x.traj'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/cannot tell the format/);
    printable(bad.stderr);
  }, 120_000);

  it('relax reads H5MD input, and --shard counts the frames of a .traj', async () => {
    const lj = ['--model', 'lj:epsilon=0.4,sigma=2.3,cutoff=5', '--max-steps', '3'];
    const h5 = await runCli(['relax', 'cu.h5md', ...lj, '--out', 'from-h5md.xyz'], { cwd: dir });
    expect(h5.code, h5.stderr).toBe(0);
    expect(readStructures(join(dir, 'from-h5md.xyz'))).toHaveLength(1);
    for (const shard of ['0/2', '1/2']) {
      const run = await runCli(['relax', 'cu.traj', ...lj, '--shard', shard, '--out', `shard-${shard[0]}.xyz`], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      expect(readStructures(join(dir, `shard-${shard[0]}.xyz`)), shard).toHaveLength(1);
    }
  }, 120_000);

  it('md writes --out and --traj in the format of their extensions', async () => {
    const md = await runCli(['md', 'noext-dump', '--model', 'lj:epsilon=0.4,sigma=2.3,cutoff=5', '--steps', '4', '--dt', '1', '--temperature', '100',
      '--out', 'md.traj', '--traj', 'md.lammpstrj', '--traj-every', '2'], { cwd: dir });
    expect(md.code, md.stderr).toBe(0);
    const [final] = readTraj(join(dir, 'md.traj'));
    expect(final?.info?.step).toBe(4);
    expect(readStructures(join(dir, 'md.lammpstrj')).map((s) => s.info?.step)).toEqual([0, 2, 4]);
  }, 120_000);
});
