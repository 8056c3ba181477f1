// LAMMPS dump files: what Debian's lmp writes (dump custom with element, scaled, unwrapped and image-flag
// positions, a triclinic box, velocities, forces, a compute column) readLammpsDump reads, equal to what ASE's
// lammps-dump-text reader makes of it; what LammpsDumpSink writes ASE reads field for field. Hostile dumps:
// typed errors naming the line.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { Batch, type System } from '../../lib/data/index.js';
import { LammpsDumpSink, readLammpsDump } from '../../lib/io/index.js';
import { aseSkipReason, runAse } from '../helpers/ase.js';
import { lammpsSkipReason, runLammps } from '../helpers/lammps.js';

const dir = mkdtempSync(join(tmpdir(), 'hookmd-dump-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FULL = '%.17g';
const INPUT = `
units metal
atom_style atomic
boundary p p p
lattice fcc 3.615
region box prism 0 2 0 2 0 2 0.4 -0.3 0.2
create_box 1 box
create_atoms 1 box
mass 1 63.546
pair_style eam
pair_coeff 1 1 ${'/usr/share/lammps/potentials/Cu_u3.eam'}
velocity all create 900 4 mom yes
displace_atoms all random 0.1 0.1 0.1 7
timestep 0.004
compute pe all pe/atom
dump d1 all custom 5 x.dump id type element x y z vx vy vz fx fy fz
dump_modify d1 element Cu format float ${FULL}
dump d2 all custom 5 s.dump id type xs ys zs
dump_modify d2 format float ${FULL}
dump d3 all custom 5 i.dump id type mass x y z ix iy iz c_pe
dump_modify d3 format float ${FULL}
dump d4 all custom 5 u.dump id type xu yu zu
dump_modify d4 format float ${FULL} sort id
run 200
`;

/** ASE's reading of a dump, in hookmd's units (velocities Å/fs). */
const ASE_READ = `
import json, sys
from ase import units
from ase.io import read
d = json.load(sys.stdin)
out = []
for a in read(d['path'], ':', format='lammps-dump-text'):
    f = {'symbols': a.get_chemical_symbols(), 'positions': a.positions.tolist(), 'cell': a.cell.tolist(), 'pbc': a.pbc.tolist(),
         'velocities': (a.get_velocities() * units.fs).tolist()}
    if a.calc is not None: f['forces'] = a.get_forces().tolist()
    out.append(f)
print(json.dumps(out))
`;

interface AseFrame {
  symbols: string[];
  positions: number[][];
  cell: number[][];
  pbc: boolean[];
  velocities: number[][];
  forces?: number[][];
}

function close(actual: unknown, expected: unknown, tol: number): void {
  const a = [actual].flat(3) as number[];
  const e = [expected].flat(3) as number[];
  expect(a.length).toBe(e.length);
  const worst = Math.max(0, ...a.map((v, k) => Math.abs(v - (e[k] as number))));
  expect(worst).toBeLessThanOrEqual(tol);
}

function frac(system: System): number[][] {
  const [s] = Batch.fromSystems([system]).toSystems();
  const h = s?.cell as number[][];
  const det = (m: number[][]): number => m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) - m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) + m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);
  return (s?.positions as number[][]).map((x) => [0, 1, 2].map((k) => det(h.map((row, r) => (r === k ? x : row))) / det(h)));
}

describe.skipIf(lammpsSkipReason !== '')(`dumps Debian's lmp writes ${lammpsSkipReason}`, () => {
  const files = lammpsSkipReason === '' ? runLammps(INPUT, {}, ['x.dump', 's.dump', 'i.dump', 'u.dump']).outputs : {};
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);

  it('reads every frame: steps, the triclinic box, elements, velocities (Å/fs), forces', () => {
    const frames = readLammpsDump(join(dir, 'x.dump'));
    expect(frames.map((f) => f.info?.step)).toEqual([0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50].concat(Array.from({ length: 30 }, (_, k) => 55 + 5 * k)));
    const a = 2 * 3.615;
    close(frames[0]?.cell, [[a, 0, 0], [0.4 * 3.615, a, 0], [-0.3 * 3.615, 0.2 * 3.615, a]], 1e-12);
    expect(frames[0]?.pbc).toEqual([true, true, true]);
    expect(new Set(Array.from(frames[0]?.symbols ?? []))).toEqual(new Set(['Cu']));
    expect(frames[0]?.positions).toHaveLength(32);
    expect(frames[0]?.forces).toHaveLength(32);
    // 900 K → a mean speed of order 0.005 Å/fs, not 5 (Å/ps unconverted).
    const speed = Math.hypot(...((frames[0]?.velocities as number[][])[0] as number[]));
    expect(speed).toBeGreaterThan(1e-4);
    expect(speed).toBeLessThan(0.05);
  });

  it('scaled, image-flag and unwrapped positions agree; elements from masses or species; compute columns in info.arrays', () => {
    const x = readLammpsDump(join(dir, 'x.dump'));
    const s = readLammpsDump(join(dir, 's.dump'), { species: ['Cu'] });
    const i = readLammpsDump(join(dir, 'i.dump'));
    const u = readLammpsDump(join(dir, 'u.dump'), { species: { 1: 'Cu' } });
    expect(() => readLammpsDump(join(dir, 's.dump'))).toThrow(expect.objectContaining({ code: 'UNKNOWN_SPECIES' }));
    for (let k = 0; k < x.length; k++) {
      close(s[k]?.positions, x[k]?.positions, 1e-9);
      close(u[k]?.positions, i[k]?.positions, 1e-9);
      // Wrapped positions differ from unwrapped ones by whole lattice vectors.
      const d = frac({ ...(u[k] as System), positions: (u[k]?.positions as number[][]).map((p, atom) => p.map((v, c) => v - ((x[k]?.positions as number[][])[atom]?.[c] as number))) });
      close(d.flat().map((v) => v - Math.round(v)), d.flat().map(() => 0), 1e-9);
      expect((i[k]?.info?.arrays as Record<string, number[]>).c_pe).toHaveLength(32);
    }
    expect(i[0]?.symbols?.[0]).toBe('Cu');
  });

  it('LAMMPS reads what LammpsDumpSink writes (read_dump with its box), and writes back the same atoms', async () => {
    const path = join(dir, 'for-lammps.dump');
    const sink = new LammpsDumpSink(path, { species: ['Cu'] });
    const system: System = {
      symbols: ['Cu', 'Cu', 'Cu'], positions: [[0.1, 0.2, 0.3], [2.5, 2.4, 3.1], [4.2, 4.4, 5.5]], pbc: true, info: { step: 40 },
      cell: [[5.2, 0, 0], [0.7, 4.9, 0], [-0.4, 0.3, 6.1]], velocities: [[0.01, -0.002, 0.003], [0, 0.004, 0], [0.001, 0.001, -0.001]],
    };
    await sink.write([system]);
    await sink.close();
    const back = runLammps(`
units metal
atom_style atomic
boundary p p p
region box prism 0 1 0 1 0 1 0 0 0
create_box 1 box
mass 1 63.546
read_dump hookmd.dump 40 x y z vx vy vz box yes add yes
write_dump all custom back.dump id type x y z vx vy vz modify format float ${FULL}
`, { 'hookmd.dump': readFileSync(path, 'utf8') }, ['back.dump']).outputs['back.dump'] as string;
    writeFileSync(join(dir, 'back-from-lammps.dump'), back);
    const [ours] = readLammpsDump(path);
    const [theirs] = readLammpsDump(join(dir, 'back-from-lammps.dump'), { species: ['Cu'] });
    expect(theirs?.info?.step).toBe(40);
    close(theirs?.cell, ours?.cell, 1e-12);
    close(theirs?.positions, ours?.positions, 1e-12);
    close(theirs?.velocities, ours?.velocities, 1e-15);
    close(ours?.positions, system.positions, 1e-12);
  });

  it.skipIf(aseSkipReason !== '')('equals what ase.io.read(format=lammps-dump-text) makes of the same file', () => {
    const path = join(dir, 'x.dump');
    const frames = runAse<AseFrame[]>(ASE_READ, { path });
    const ours = readLammpsDump(path);
    expect(ours).toHaveLength(frames.length);
    ours.forEach((system, k) => {
      const frame = frames[k] as AseFrame;
      expect(system.symbols).toEqual(frame.symbols);
      close(system.positions, frame.positions, 1e-12);
      close(system.cell, frame.cell, 1e-12);
      expect(system.pbc).toEqual(frame.pbc);
      close(system.velocities, frame.velocities, 1e-15);
      close(system.forces, frame.forces, 1e-12);
    });
  });
});

describe('LammpsDumpSink', () => {
  const cell = [[5.2, 0, 0], [0.7, 4.9, 0], [-0.4, 0.3, 6.1]];
  const systems: System[] = [
    { symbols: ['Cu', 'Al', 'Cu'], positions: [[0.1, 0.2, 0.3], [2.5, 2.4, 3.1], [4.9, 0.3, 5.5]], cell, pbc: true, velocities: [[0.01, -0.002, 0.003], [0, 0.004, 0], [-0.001, 0, 0.02]], forces: [[0.1, 0.2, -0.3], [0, 0, 0.5], [-0.1, -0.2, -0.2]], info: { step: 40 } },
    { symbols: ['Al', 'Al'], positions: [[0, 0, 0], [1, 1, 1]], cell: [4, 4, 4], pbc: [true, true, false], masses: [27, 28], info: { step: 50 } },
  ];

  it.skipIf(aseSkipReason !== '')('writes what ASE reads (lammps-dump-text), every field equal', async () => {
    const path = join(dir, 'hookmd.dump');
    const sink = new LammpsDumpSink(path, { capacity: 1 });
    await sink.write(systems);
    await sink.close();
    const frames = runAse<AseFrame[]>(ASE_READ, { path });
    expect(frames).toHaveLength(2);
    systems.forEach((system, k) => {
      const frame = frames[k] as AseFrame;
      const [resolved] = Batch.fromSystems([system]).toSystems();
      expect(frame.symbols).toEqual(resolved?.symbols);
      close(frame.positions, resolved?.positions, 1e-12);
      close(frame.cell, resolved?.cell, 1e-12);
      expect(frame.pbc).toEqual(resolved?.pbc);
      close(frame.velocities, resolved?.velocities, 1e-15);
      close(frame.forces ?? [], resolved?.forces ?? [], 1e-12);
    });
  });

  it('reads back what it wrote: types consistent across frames, masses, steps; a rotated cell keeps fractions and lengths', async () => {
    const path = join(dir, 'back.dump');
    const sink = new LammpsDumpSink(path);
    await sink.write(Batch.fromSystems(systems), [1, 1]);
    // A cell whose a vector is not along x: LAMMPS's box is that cell rotated.
    const rotated = { symbols: ['Cu', 'Cu'], positions: [[0.5, 0.2, 0.1], [1.5, 2.2, 1.9]], cell: [[3, 3, 0], [-3, 3, 0.5], [0, 0.4, 4]], pbc: true, forces: [[1, 0, 0], [0, 1, 0]] };
    await sink.write([rotated]);
    await sink.close();
    const back = readLammpsDump(path);
    expect(back.map((s) => s.info?.step)).toEqual([40, 50, 2]);
    expect(back[0]?.info?.lammpsTypes).toEqual([1, 2, 1]);
    expect(back[1]?.info?.lammpsTypes).toEqual([2, 2]);
    expect(back[1]?.masses).toEqual([27, 28]);
    expect(back[1]?.pbc).toEqual([true, true, false]);
    close(back[0]?.positions, systems[0]?.positions, 1e-12);
    close(frac(back[2] as System), frac(rotated), 1e-12);
    close((back[2]?.forces as number[][]).map((f) => Math.hypot(...f)), [1, 1], 1e-12);
    const empty = join(dir, 'empty.dump');
    await new LammpsDumpSink(empty).close();
    expect(readLammpsDump(empty)).toEqual([]);
  });

  it('refuses a system without a cell, and an element outside species', async () => {
    const sink = new LammpsDumpSink(join(dir, 'refused.dump'), { species: ['Cu'] });
    await expect(sink.write([{ symbols: ['Cu'], positions: [[0, 0, 0]] }])).rejects.toMatchObject({ code: 'MISSING_LATTICE' });
    await expect(sink.write([{ ...(systems[0] as System) }])).rejects.toMatchObject({ code: 'UNKNOWN_SPECIES' });
  });
});

describe('hostile dumps', () => {
  const good = [
    'ITEM: TIMESTEP', '10', 'ITEM: NUMBER OF ATOMS', '2', 'ITEM: BOX BOUNDS xy xz yz pp pp pp',
    '-0.5 4.5 0.5', '0 4 -0.5', '0 4 0', 'ITEM: ATOMS id type element x y z', '2 1 Cu 1 1 1', '1 1 Cu 0 0 0', '',
  ].join('\n');
  const attempt = (text: string): unknown => {
    const path = join(dir, 'hostile.dump');
    writeFileSync(path, text);
    try {
      return readLammpsDump(path);
    } catch (error) {
      return error;
    }
  };

  it('reads the good one, atoms ordered by id, and every truncation is whole frames or LAMMPS_DUMP_PARSE with a line', () => {
    const [frame] = attempt(good) as System[];
    expect(frame?.positions).toEqual([[0, 0, 0], [1, 1, 1]]);
    close(frame?.cell, [[4, 0, 0], [0.5, 4, 0], [-0.5, 0, 4]], 0);
    const lines = good.split('\n');
    for (let n = 1; n < lines.length - 1; n++) {
      const result = attempt(lines.slice(0, n).join('\n'));
      expect(result, `${n} lines`).toMatchObject({ code: 'LAMMPS_DUMP_PARSE', details: { line: expect.any(Number) } });
    }
  });

  it('refuses an atom count larger than the file, bad boxes, columns and numbers, naming the line', () => {
    const cases: [string, RegExp, number][] = [
      [good.replace('\n2\n', '\n900000000000\n'), /declares 900000000000 atoms, but the file has only 2 lines left/, 9],
      [good.replace('pp pp pp', 'pp pp'), /boundary flags/, 5],
      [good.replace('0 4 -0.5', '0 four -0.5'), /expected a number/, 7],
      [good.replace('id type element x y z', 'id type element a b c'), /no positions/, 9],
      [good.replace('id type element x y z', 'id x y z'), /neither an element nor a type/, 9],
      [good.replace('2 1 Cu 1 1 1', '1 1 Cu 1 1 1'), /appears twice/, 11],
      [good.replace('2 1 Cu 1 1 1', '2 1 Cu 1 1'), /has 5 values/, 10],
      [good.replace('2 1 Cu 1 1 1', '2 1 Cu 1 nan 1'), /expected a number/, 10],
      [good.replace('2 1 Cu 1 1 1', '2 1 Xx 1 1 1'), /Xx/, 10],
      [good.replace('ITEM: TIMESTEP', 'POSCAR'), /expected 'ITEM: TIMESTEP'/, 1],
      ['\u0000\u0001binary', /expected 'ITEM: TIMESTEP'/, 1],
    ];
    for (const [text, message, line] of cases) {
      const error = attempt(text) as Error & { details: { line: number } };
      expect(error.message, message.source).toMatch(message);
      expect(error.details.line, message.source).toBe(line);
    }
    expect(() => readLammpsDump('/dev/zero')).toThrow(expect.objectContaining({ code: 'READ_FAILED' }));
    expect(readFileSync(join(dir, 'hostile.dump'), 'utf8')).toContain('binary');
  });
});
