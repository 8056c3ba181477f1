// Issue 46, item 2: H5mdSink's appends reach the disk in order. HDF5's flush only hands its buffers to the
// OS, so each append boundary (the values, then the position steps that count them) is fsynced, and a copy
// made for new objects is fsynced before it is renamed over the file. The file copied after every append
// opens with all its frames in readH5md and in h5py.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { basename, join } from 'node:path';
import { tmpdir } from 'node:os';

import { afterAll, describe, expect, it, vi } from 'vitest';

// What was fsynced, in order: the path each descriptor was opened on.
const synced: string[] = [];
const opened = new Map<number, string>();
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return {
    ...actual,
    openSync: (path: fs.PathLike, ...rest: unknown[]) => {
      const fd = (actual.openSync as (...args: unknown[]) => number)(path, ...rest);
      opened.set(fd, String(path));
      return fd;
    },
    fsyncSync: (fd: number) => {
      synced.push(opened.get(fd) ?? `fd ${fd}`);
      actual.fsyncSync(fd);
    },
  };
});

const { bulk } = await import('../../lib/data/index.js');
const { H5mdSink, readH5md } = await import('../../lib/io/index.js');

const h5pyPython = ['/usr/bin/python3', 'python3'].find((python) => spawnSync(python, ['-c', 'import h5py'], { stdio: 'ignore' }).status === 0);
const dir = fs.mkdtempSync(join(tmpdir(), 'hookmd-h5md-fsync-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('H5mdSink appends', () => {
  it('fsync the file at each append boundary and a staged copy before its rename; a copy after each append reads whole', async () => {
    const path = join(dir, 'md.h5md');
    const cu = bulk('Cu', 'fcc', { a: 3.61, cubic: true });
    const sink = new H5mdSink(path, { capacity: 1 });
    for (let step = 0; step < 4; step++) {
      synced.length = 0;
      // Forces first come at step 2: that append makes a new element in a staged copy.
      const forces = step >= 2 ? (cu.positions as number[][]).map((x) => [step, -step, x[0] as number]) : undefined;
      await sink.write([{ ...cu, energy: -step, forces, info: { step } }]);
      const staged = synced.filter((p) => basename(p).startsWith(`.${basename(path)}.`) && p.endsWith('.tmp'));
      expect(staged).toHaveLength(step === 0 || step === 2 ? 1 : 0);
      // The staged copy is synced before the two append boundaries of the file itself.
      expect(synced.filter((p) => p === path)).toHaveLength(2);
      if (staged.length > 0) expect(synced.indexOf(staged[0] as string)).toBeLessThan(synced.indexOf(path));
      const copy = join(dir, `copy-${step}.h5md`);
      fs.copyFileSync(path, copy);
      const frames = await readH5md(copy);
      expect(frames.map((f) => f.energy)).toEqual(Array.from({ length: step + 1 }, (_, k) => -k));
      if (h5pyPython !== undefined) {
        const count = execFileSync(h5pyPython, ['-c', `import h5py, sys
f = h5py.File(sys.argv[1], 'r', swmr=True)
p = f['particles/all/position']
print(min(p['step'].shape[0], p['value'].shape[0]), f['observables/potential_energy/value'].shape[0])`, copy], { encoding: 'utf8' });
        expect(count.trim()).toBe(`${step + 1} ${step + 1}`);
      }
    }
    await sink.close();
  });
});
