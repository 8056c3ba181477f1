// ASE trajectories against ASE 3.22: what ase.io.write writes (calculator results, momenta, masses, info,
// constraints, changing atom counts) readTraj reads field for field, and what writeTraj and TrajSink write
// ase.io.read(path, ':') reads field for field. Hostile files: typed errors with the byte offset.
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { Batch, type System } from '../../lib/data/index.js';
import { readTraj, TrajSink, writeTraj } from '../../lib/io/index.js';
import { aseSkipReason, runAse } from '../helpers/ase.js';

const dir = mkdtempSync(join(tmpdir(), 'hookmd-traj-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** ASE's view of a trajectory, frame by frame, in hookmd's units (velocities Å/fs). */
const DUMP = `
def dump(images):
    import numpy as np
    from ase import units
    from ase.constraints import FixAtoms
    out = []
    for a in images:
        f = {'numbers': a.numbers.tolist(), 'positions': a.positions.tolist(), 'cell': a.cell.tolist(),
             'pbc': a.pbc.tolist(), 'masses': a.get_masses().tolist(),
             'velocities': (a.get_velocities() * units.fs).tolist(), 'hasMomenta': a.has('momenta'),
             'info': a.info, 'fixed': [c.get_indices().tolist() for c in a.constraints if isinstance(c, FixAtoms)]}
        if a.calc is not None:
            r = a.calc.results
            if 'energy' in r: f['energy'] = float(r['energy'])
            if 'forces' in r: f['forces'] = r['forces'].tolist()
            if 'stress' in r:
                from ase.stress import voigt_6_to_full_3x3_stress
                st = np.asarray(r['stress'])
                f['stress'] = (voigt_6_to_full_3x3_stress(st) if st.shape == (6,) else st).tolist()
        out.append(f)
    return out
`;

interface AseFrame {
  numbers: number[];
  positions: number[][];
  cell: number[][];
  pbc: boolean[];
  masses: number[];
  velocities: number[][];
  hasMomenta: boolean;
  info: Record<string, unknown>;
  fixed: number[][];
  energy?: number;
  forces?: number[][];
  stress?: number[][];
}

const WRITE = `
import json, sys
import numpy as np
from ase import Atoms, units
from ase.build import bulk, molecule
from ase.calculators.singlepoint import SinglePointCalculator
from ase.constraints import FixAtoms
from ase.io import read, write
${DUMP}
d = json.load(sys.stdin)
rng = np.random.RandomState(3)
a = bulk('Cu', 'fcc', a=3.6, cubic=True).repeat((2, 1, 1))
a.rattle(0.05, seed=1)
a.set_cell(a.cell + rng.rand(3, 3) * 0.1, scale_atoms=False)
a.set_momenta(rng.randn(len(a), 3) * 0.3)
a.set_masses([63.5 + i for i in range(len(a))])
a.info = {'step': 7, 'label': 'hot', 'flags': [1, 2, 3], 'nested': {'x': 1.5}}
a.set_constraint(FixAtoms(indices=[0, 2]))
a.calc = SinglePointCalculator(a, energy=-12.3456789, forces=rng.randn(len(a), 3), stress=rng.randn(6))
b = a.copy()
b.positions += 0.01
b.calc = SinglePointCalculator(b, energy=-12.0, forces=rng.randn(len(b), 3))
c = molecule('H2O')
c.pbc = [True, False, True]
c.cell = [6, 7, 8]
c.calc = SinglePointCalculator(c, energy=1.5, stress=rng.randn(3, 3) * 0.01 + np.eye(3) * 0.1)
d3 = Atoms('Ar2', positions=[[0, 0, 0], [1.5, 0.2, 0.1]])
write(d['path'], [a, b, c, d3])
print(json.dumps(dump(read(d['path'], ':'))))
`;

const READ = `
import json, sys
from ase.io import read
${DUMP}
d = json.load(sys.stdin)
print(json.dumps(dump(read(d['path'], ':'))))
`;

function close(actual: ArrayLike<number> | number[][] | undefined, expected: ArrayLike<number> | number[][] | undefined, tol = 1e-12): void {
  expect(actual === undefined).toBe(expected === undefined);
  if (actual === undefined || expected === undefined) return;
  const a = (Array.from(actual as ArrayLike<unknown>) as unknown[]).flat() as number[];
  const e = (Array.from(expected as ArrayLike<unknown>) as unknown[]).flat() as number[];
  expect(a.length).toBe(e.length);
  a.forEach((v, k) => expect(Math.abs(v - (e[k] as number))).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(e[k] as number))));
}

function expectSame(system: System, frame: AseFrame): void {
  const [resolved] = Batch.fromSystems([system]).toSystems();
  expect(Array.from(system.atomicNumbers ?? [])).toEqual(frame.numbers);
  close(system.positions as number[][], frame.positions);
  close(system.cell as number[][], frame.cell);
  expect(resolved?.pbc).toEqual(frame.pbc);
  close(resolved?.masses, frame.masses);
  close(resolved?.velocities, frame.velocities);
  expect(system.energy).toBe(frame.energy);
  close(system.forces as number[][] | undefined, frame.forces);
  close(system.stress as number[][] | undefined, frame.stress);
  const { aseConstraints, ...info } = system.info ?? {};
  expect(info).toEqual(frame.info);
  const fixed = ((aseConstraints ?? []) as { name: string; kwargs: { indices: number[] } }[]).filter((c) => c.name === 'FixAtoms').map((c) => c.kwargs.indices);
  expect(fixed).toEqual(frame.fixed);
}

describe.skipIf(aseSkipReason !== '')(`ASE .traj round trips ${aseSkipReason}`, () => {
  it('reads what ase.io.write writes, every field equal', () => {
    const path = join(dir, 'ase.traj');
    const frames = runAse<AseFrame[]>(WRITE, { path });
    const systems = readTraj(path);
    expect(systems).toHaveLength(4);
    systems.forEach((system, k) => expectSame(system, frames[k] as AseFrame));
    expect(frames[0]?.hasMomenta).toBe(true);
    expect(frames[0]?.fixed).toEqual([[0, 2]]);
  });

  it('writes what ase.io.read reads, every field equal (writeTraj and TrajSink; read back by hookmd too)', async () => {
    const source = join(dir, 'source.traj');
    runAse<AseFrame[]>(WRITE, { path: source });
    const systems = readTraj(source);
    const written = join(dir, 'hookmd.traj');
    await writeTraj(written, systems);
    const frames = runAse<AseFrame[]>(READ, { path: written });
    expect(frames).toHaveLength(systems.length);
    systems.forEach((system, k) => expectSame(system, frames[k] as AseFrame));
    readTraj(written).forEach((back, k) => {
      // Velocities pass through ASE momenta (m·v per ASE time unit): equal to rounding.
      const { velocities: v1, ...rest1 } = back;
      const { velocities: v2, ...rest2 } = systems[k] as System;
      expect(rest1).toEqual(rest2);
      close(v1 as number[][] | undefined, v2 as number[][] | undefined, 1e-14);
    });

    // A sink writing 50 frames in uneven pieces grows the offset table past ASE's first 42 slots.
    const sinkPath = join(dir, 'sink.traj');
    const sink = new TrajSink(sinkPath, { capacity: 7 });
    const many = Array.from({ length: 50 }, (_, k) => ({ ...(systems[k % 4] as System), info: { frame: k } }));
    const batch = Batch.fromSystems(many.slice(0, 4).map((s) => ({ ...s, info: { frame: -1 } })));
    await sink.write(batch, [0, 1, 0, 0]);
    for (let k = 0; k < 50; k += 5) await sink.write(many.slice(k, k + 5));
    await sink.close();
    const back = runAse<AseFrame[]>(READ, { path: sinkPath });
    expect(back).toHaveLength(51);
    expect(back[0]?.info).toEqual({ frame: -1, systemId: 1 });
    back.slice(1).forEach((frame, k) => expectSame(many[k] as System, frame));
  });

  it('appends in ASE\'s layout: ASE, then TrajSink, then ASE again append to one file, and both read all frames', async () => {
    const path = join(dir, 'shared.traj');
    const APPEND = `
import json, sys
from ase.build import bulk
from ase.io import Trajectory, read
d = json.load(sys.stdin)
with Trajectory(d['path'], d['mode']) as t:
    for k in range(d['count']):
        a = bulk('Al', 'fcc', a=4.05, cubic=True); a.positions[0, 0] += 0.01 * k; a.info = {'by': 'ase', 'k': k}; t.write(a)
print(json.dumps([im.info for im in read(d['path'], ':')]))
`;
    runAse<unknown>(APPEND, { path, mode: 'w', count: 2 });
    const sink = new TrajSink(path, { append: true });
    await sink.write(Array.from({ length: 41 }, (_, k) => ({ symbols: ['Cu'], positions: [[0, 0, k * 0.01]], info: { by: 'hookmd', k } })));
    await sink.close();
    const infos = runAse<Record<string, unknown>[]>(APPEND, { path, mode: 'a', count: 3 });
    expect(infos).toHaveLength(46);
    expect(infos.map((i) => i.by).join(',')).toBe(['ase', 'ase', ...Array(41).fill('hookmd'), 'ase', 'ase', 'ase'].join(','));
    const ours = readTraj(path);
    expect(ours.map((s) => s.info)).toEqual(infos);
    expect(ours[0]?.positions).toHaveLength(4);
    expect(ours[2]?.positions).toHaveLength(1);
  });

  it('converts velocities to ASE momenta (m·v, ASE time units) and back', async () => {
    const path = join(dir, 'v.traj');
    await writeTraj(path, [{ symbols: ['Ar'], positions: [[0, 0, 0]], velocities: [[0.01, -0.02, 0.03]], masses: [40] }]);
    const [frame] = runAse<AseFrame[]>(READ, { path });
    close(frame?.velocities, [[0.01, -0.02, 0.03]]);
    const momenta = runAse<number[][]>(`import json,sys\nfrom ase.io import read\nprint(json.dumps(read(json.load(sys.stdin)['path']).get_momenta().tolist()))`, { path });
    close(momenta, [[0.01, -0.02, 0.03].map((v) => (40 * v) / 0.09822694788464063)]);
  });
});

describe('ASE .traj without ASE', () => {
  const systems: System[] = [
    { symbols: ['Cu', 'Au'], positions: [[0, 0, 0], [1.2, 1.3, 1.4]], cell: [[3, 0, 0], [0.1, 3, 0], [0, 0, 3]], pbc: true, energy: -1.25, forces: [[0.1, 0, 0], [-0.1, 0, 0]], info: { step: 3 } },
    { symbols: ['H'], positions: [[0.5, 0.5, 0.5]], velocities: [[0.001, 0, 0]] },
  ];

  it('writes and reads back exactly, and an empty sink leaves an empty trajectory', async () => {
    const path = join(dir, 'plain.traj');
    await writeTraj(path, systems);
    const back = readTraj(path);
    expect(back).toHaveLength(2);
    expect(back[0]?.energy).toBe(-1.25);
    expect(back[0]?.forces).toEqual([[0.1, 0, 0], [-0.1, 0, 0]]);
    expect(back[0]?.info).toEqual({ step: 3 });
    close(back[1]?.velocities as number[][], [[0.001, 0, 0]], 1e-15);
    const empty = join(dir, 'empty.traj');
    const sink = new TrajSink(empty);
    await sink.close();
    expect(readTraj(empty)).toEqual([]);
  });

  it('appends to an existing trajectory, and a crash before the count is written leaves the old frames', async () => {
    const path = join(dir, 'append.traj');
    await writeTraj(path, systems);
    const before = readFileSync(path);
    const sink = new TrajSink(path, { append: true });
    await sink.write([systems[0] as System]);
    await sink.close();
    expect(readTraj(path)).toHaveLength(3);
    // The crash state: the new frame's bytes are there, the header still counts two frames.
    const crashed = Buffer.from(readFileSync(path));
    before.copy(crashed, 0, 0, 48);
    writeFileSync(path, crashed);
    expect(readTraj(path)).toHaveLength(2);
  });

  it('refuses results that are not valid and info that JSON cannot hold', async () => {
    await expect(writeTraj(join(dir, 'bad.traj'), [{ symbols: ['H'], positions: [[0, 0, 0]], info: { x: NaN } }])).rejects.toMatchObject({ code: 'INVALID_INFO' });
    await expect(writeTraj(join(dir, 'bad.traj'), [{ symbols: ['H'], positions: [[NaN, 0, 0]] }])).rejects.toMatchObject({ code: 'INVALID_POSITIONS' });
  });
});

/** A one-item ASE trajectory whose item is `json` (and whose arrays, if any, are up to the caller). */
function ulmFile(json: string): Buffer {
  const head = Buffer.alloc(56);
  head.write('- of UlmASE-Trajectory  ', 0, 'latin1');
  head.writeBigInt64LE(3n, 24);
  head.writeBigInt64LE(1n, 32);
  head.writeBigInt64LE(48n, 40);
  head.writeBigInt64LE(56n, 48);
  const length = Buffer.alloc(8);
  length.writeBigInt64LE(BigInt(Buffer.byteLength(json)));
  return Buffer.concat([head, length, Buffer.from(json)]);
}

describe('hostile .traj files', () => {
  const good = join(dir, 'good.traj');
  const base = (): Buffer => readFileSync(good);
  const attempt = (bytes: Buffer): unknown => {
    const path = join(dir, 'hostile.traj');
    writeFileSync(path, bytes);
    try {
      return readTraj(path);
    } catch (error) {
      return error;
    }
  };

  it('every truncation is a typed error with the byte offset, or the frames the header still counts', async () => {
    await writeTraj(good, [
      { symbols: ['Cu', 'Cu'], positions: [[0, 0, 0], [1, 1, 1]], cell: [3, 3, 3], pbc: true, energy: -2, info: { a: 1 } },
      { symbols: ['Cu', 'Cu'], positions: [[0, 0, 0.1], [1, 1, 1]], cell: [3, 3, 3], pbc: true, energy: -2.1 },
    ]);
    const bytes = base();
    for (let length = 0; length < bytes.length; length++) {
      const result = attempt(bytes.subarray(0, length));
      if (Array.isArray(result)) continue;
      expect(result).toMatchObject({ code: 'TRAJ_PARSE' });
      expect(typeof (result as { details: { offset: unknown } }).details.offset).toBe('number');
    }
  });

  it('refuses a size field larger than the file, a bad magic, a wrong tag, bad JSON and bad array references', async () => {
    const cases: [string, (b: Buffer) => void, RegExp][] = [
      ['magic', (b) => b.write('POSCAR\n\n', 0, 'latin1'), /not a ULM file/],
      ['tag', (b) => b.write('Other-Tag       ', 8, 'latin1'), /not an ASE trajectory/],
      ['count', (b) => b.writeBigInt64LE(1n << 40n, 32), /item count/],
      ['table', (b) => b.writeBigInt64LE(-5n, 40), /offset table position/],
      ['offset', (b) => b.writeBigInt64LE(BigInt(b.length + 100), Number(b.readBigInt64LE(40))), /item 0's offset/],
      ['json length', (b) => b.writeBigInt64LE(1n << 50n, Number(b.readBigInt64LE(Number(b.readBigInt64LE(40))))), /JSON length/],
    ];
    for (const [name, corrupt, message] of cases) {
      const bytes = Buffer.from(base());
      corrupt(bytes);
      const error = attempt(bytes);
      expect(error, name).toMatchObject({ code: 'TRAJ_PARSE' });
      expect((error as Error).message, name).toMatch(message);
    }
    // Hand-made items: an array past the end of the file, garbage JSON, a dtype hookmd does not read.
    const items: [string, RegExp][] = [
      ['{"numbers.": {"ndarray": [[2], "int64", 99999999]}}', /runs past the end of the file/],
      ['{"numbers.": {"ndarray": [[4294967296, 4294967296], "int64", 56]}}', /runs past the end of the file/],
      ['{"numbers.": {"ndarray": [[2], "object", 56]}}', /dtype/],
      ['{{{{', /does not parse/],
      ['[1, 2]', /not an object/],
      ['{"version": 1, "numbers": [1], "pbc": [true, true, true], "positions": [[0, 0]], "cell": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}', /positions must be 1×3/],
    ];
    for (const [json, message] of items) {
      const error = attempt(ulmFile(json));
      expect(error, json).toMatchObject({ details: { offset: expect.any(Number) } });
      expect((error as Error).message, json).toMatch(message);
    }
  });

  it('a periodic cell without volume is read as ASE reads it (a batch refuses it; issue 39 item 12)', () => {
    const frames = attempt(ulmFile('{"version": 1, "numbers": [1], "pbc": [true, true, true], "positions": [[0, 0, 0]], "cell": [[0, 0, 0], [0, 1, 0], [0, 0, 1]]}'));
    expect(frames).toMatchObject([{ pbc: [true, true, true], cell: [[0, 0, 0], [0, 1, 0], [0, 0, 1]] }]);
  });

  it('random byte corruptions are frames or typed errors, never a crash or a hang', async () => {
    const bytes = base();
    let seed = 12345;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let trial = 0; trial < 300; trial++) {
      const corrupt = Buffer.from(bytes);
      for (let k = 0; k < 1 + random(4); k++) corrupt[random(corrupt.length)] = random(256);
      const result = attempt(corrupt);
      if (!Array.isArray(result)) expect(['TRAJ_PARSE', 'READ_FAILED', 'UNKNOWN_ELEMENT', 'SINGULAR_CELL']).toContain((result as { code?: string }).code);
    }
  });

  it('refuses what is not a regular file', () => {
    expect(() => readTraj('/dev/zero')).toThrow(expect.objectContaining({ code: 'READ_FAILED' }));
    expect(() => readTraj(join(dir, 'missing.traj'))).toThrow(expect.objectContaining({ code: 'READ_FAILED' }));
    const short = join(dir, 'short.traj');
    writeFileSync(short, 'x');
    truncateSync(short, 10);
    expect(() => readTraj(short)).toThrow(expect.objectContaining({ code: 'TRAJ_PARSE' }));
  });
});
