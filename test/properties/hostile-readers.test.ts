// Issue 27, item 10: every reader fed mutated real files. Seeds are files as users bring them (written by
// hookmd's writers from a rattled alloy, a CIF with symmetry operations, LAMMPS's own Cu_u3.eam when
// installed, run and model configs in YAML and JSON); each case applies one to three mutations:
// truncation, bit flips, a number replaced by a huge, tiny or non-finite one, odd encodings (UTF-16 with a
// BOM, a UTF-8 BOM, CRLF, Latin-1, NUL and invalid UTF-8 bytes), a line dropped or repeated. The invariant:
// a typed HookmdError, or systems Batch.fromSystems takes (finite, with a cell that has volume), never a
// crash, a hang or a NaN. A few dozen cases per reader in `npm test`; `npm run test:fuzz` runs thousands
// (HOOKMD_FUZZ_RUNS sets how many), and a failing case prints its seed to replay.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CONFIG_SCHEMA, MODEL_SCHEMA } from '../../lib/cli/config-schema.js';
import { loadConfigFile } from '../../lib/cli/config-file.js';
import { Batch, bulk, rattle, repeat } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { isHookmdError } from '../../lib/errors.js';
import { formatLammpsData, formatPoscar, readExtxyz, readStructures, readZarr, writeExtxyz, ZarrSink } from '../../lib/io/index.js';
import { EAM } from '../../lib/models/index.js';
import { setflText } from '../helpers/eam-files.js';
import { budgetMs, cases } from '../helpers/fuzz-budget.js';

const SEED = Number(process.env.HOOKMD_FUZZ_SEED ?? 27_010);
const RUNS = Number(process.env.HOOKMD_FUZZ_RUNS ?? cases(40, 2000));
const dir = mkdtempSync(join(tmpdir(), 'hookmd-hostile-readers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// ---- mutations ---------------------------------------------------------------------------------------

const ODD_NUMBERS = ['1e308', '-1e308', '1e400', '-1e400', '1e-400', '5e-324', 'NaN', 'nan', 'inf', '-Infinity', '-0', '0', '-1', '2147483648', '4294967297', '9007199254740993', '1e15', '0x10', '1/0'];
const NUMBER = /[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?/g;

type Mutation = (bytes: Buffer) => Buffer;

const mutation: fc.Arbitrary<{ name: string; apply: Mutation }> = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }).map((at) => ({ name: `truncate at ${at.toFixed(3)}`, apply: (b: Buffer) => b.subarray(0, Math.floor(at * b.length)) })),
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 7 })).map(([at, bit]) => ({
    name: `flip bit ${bit} at ${at.toFixed(3)}`,
    apply: (b: Buffer) => {
      const out = Buffer.from(b);
      if (out.length > 0) out[Math.min(out.length - 1, Math.floor(at * out.length))] ^= 1 << bit;
      return out;
    },
  })),
  fc.tuple(fc.nat(), fc.constantFrom(...ODD_NUMBERS)).map(([k, value]) => ({
    name: `number #${k} → ${value}`,
    apply: (b: Buffer) => {
      const text = b.toString('latin1');
      const matches = [...text.matchAll(NUMBER)];
      if (matches.length === 0) return b;
      const m = matches[k % matches.length] as RegExpMatchArray;
      return Buffer.from(text.slice(0, m.index) + value + text.slice((m.index as number) + m[0].length), 'latin1');
    },
  })),
  fc.tuple(fc.nat(), fc.boolean()).map(([k, repeatIt]) => ({
    name: `${repeatIt ? 'repeat' : 'drop'} line #${k}`,
    apply: (b: Buffer) => {
      const lines = b.toString('latin1').split('\n');
      const i = k % lines.length;
      lines.splice(i, repeatIt ? 0 : 1, ...(repeatIt ? [lines[i] as string] : []));
      return Buffer.from(lines.join('\n'), 'latin1');
    },
  })),
  fc.constantFrom<{ name: string; apply: Mutation }>(
    { name: 'UTF-16LE with BOM', apply: (b) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(b.toString('latin1'), 'utf16le')]) },
    { name: 'UTF-8 BOM', apply: (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]) },
    { name: 'CRLF', apply: (b) => Buffer.from(b.toString('latin1').replace(/\n/g, '\r\n'), 'latin1') },
    { name: 'Latin-1 Å', apply: (b) => Buffer.from(b.toString('latin1').replace(/ /, ' \xc5 '), 'latin1') },
    { name: 'NUL byte', apply: (b) => Buffer.concat([b.subarray(0, b.length >> 1), Buffer.from([0]), b.subarray(b.length >> 1)]) },
    { name: 'invalid UTF-8', apply: (b) => Buffer.concat([b.subarray(0, b.length >> 2), Buffer.from([0xff, 0xc3]), b.subarray(b.length >> 2)]) },
  ),
);

const mutations = fc.array(mutation, { minLength: 1, maxLength: 3 });
const mutate = (seed: Buffer, list: readonly { apply: Mutation }[]): Buffer => list.reduce((b, m) => m.apply(b), seed);

// ---- the invariant -----------------------------------------------------------------------------------

/** A typed error (a HookmdError with an UPPER_CASE code), and, where `file` is given, one that names it. */
function expectTyped(error: unknown, file?: string): void {
  if (!isHookmdError(error)) throw new Error(`an untyped error: ${String((error as Error)?.stack ?? error)}`);
  expect(error.code).toMatch(/^[A-Z][A-Z0-9_]+$/);
  if (file !== undefined) expect(error.message).toContain(file);
}

/** Every system is one Batch.fromSystems takes: finite numbers, known elements, a cell with volume. */
function expectValid(systems: readonly System[]): void {
  for (const system of systems) {
    try {
      Batch.fromSystems([system]);
    } catch (error) {
      throw new Error(`the reader returned a system Batch.fromSystems refuses: ${(error as Error).message}`);
    }
  }
}

function check(read: () => System[], file?: string): void {
  let systems: System[];
  try {
    systems = read();
  } catch (error) {
    expectTyped(error, file);
    return;
  }
  expectValid(systems);
}

// ---- seeds -------------------------------------------------------------------------------------------

const alloy = (): System => {
  const base = repeat(bulk('Cu', 'fcc', { a: 3.615, cubic: true }), [2, 1, 1]);
  const symbols = Array.from(base.positions as number[][], (_, i) => (i % 3 === 0 ? 'Al' : 'Cu'));
  const { atomicNumbers: _numbers, ...rest } = base;
  return { ...rattle({ ...rest, symbols }, 0.05, 3), velocities: symbols.map((_, i) => [0.01 * i, -0.02, 0.003]) };
};

const CIF = `data_NaCl
_symmetry_space_group_name_H-M   'F m -3 m'
_cell_length_a   5.6402
_cell_length_b   5.6402
_cell_length_c   5.6402
_cell_angle_alpha   90
_cell_angle_beta   90
_cell_angle_gamma   90
loop_
_symmetry_equiv_pos_as_xyz
  'x, y, z'
  'x, y+1/2, z+1/2'
  'x+1/2, y, z+1/2'
  'x+1/2, y+1/2, z'
  '-x, -y, -z'
loop_
_atom_site_label
_atom_site_type_symbol
_atom_site_fract_x
_atom_site_fract_y
_atom_site_fract_z
_atom_site_occupancy
Na1 Na 0.0 0.0 0.0 1.0
Cl1 Cl 0.5 0.5 0.5 1.0
`;

const RUN_YAML = `model: { type: lj, epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 }
input: in.xyz
stages:
  - { type: fire, fmax: 0.01, maxSteps: 100 }
  - { type: md, integrator: langevin, dt: 0.002, temperature: 300, steps: 10 }
sinks:
  - { path: out.xyz }
`;
const MODEL_JSON = '{ "type": "lj", "epsilon": 0.0104, "sigma": 3.4, "cutoff": 8.5, "skin": 1.0 }\n';

const LAMMPS_EAM = '/usr/share/lammps/potentials/Cu_u3.eam';
const eamSeed = (): { name: string; bytes: Buffer } =>
  existsSync(LAMMPS_EAM)
    ? { name: 'Cu_u3.eam', bytes: readFileSync(LAMMPS_EAM) }
    : {
        name: 'Cu.eam.alloy',
        bytes: Buffer.from(setflText({
          nrho: 50, drho: 0.05, nr: 50, dr: 0.1, cutoff: 4.9,
          frho: Array.from({ length: 50 }, (_, i) => -Math.sqrt(i * 0.05)),
          rhor: Array.from({ length: 50 }, (_, i) => Math.exp(-i * 0.1)),
          z2r: Array.from({ length: 50 }, (_, i) => 10 * Math.exp(-i * 0.2)),
        })),
      };

const seeds = new Map<string, Buffer>();
let zarrSeed = '';

beforeAll(async () => {
  const system = alloy();
  seeds.set('poscar', Buffer.from(formatPoscar(system)));
  seeds.set('lammps', Buffer.from(formatLammpsData(system, { species: ['Al', 'Cu'] })));
  await writeExtxyz(join(dir, 'seed.xyz'), [system, { ...system, energy: -12.5, info: { step: 3, tag: 'a b' } }]);
  seeds.set('extxyz', readFileSync(join(dir, 'seed.xyz')));
  seeds.set('cif', Buffer.from(CIF));
  seeds.set('yaml', Buffer.from(RUN_YAML));
  seeds.set('json', Buffer.from(MODEL_JSON));
  zarrSeed = join(dir, 'seed.zarr');
  const sink = new ZarrSink(zarrSeed);
  await sink.write([system, { ...system, energy: -3, info: { name: 'two' } }, { symbols: ['Ar'], positions: [[0, 0, 0]] }]);
  await sink.close();
  // The seeds themselves read.
  expect(readStructures(write('check.poscar', seeds.get('poscar') as Buffer), { format: 'poscar' })).toHaveLength(1);
  expect(readStructures(write('check.cif', seeds.get('cif') as Buffer))[0]?.symbols).toHaveLength(8);
  expect(await readZarr(zarrSeed)).toHaveLength(3);
});

let written = 0;
function write(name: string, bytes: Buffer): string {
  const path = join(dir, `${written++}-${name}`);
  writeFileSync(path, bytes);
  return path;
}

const TIMEOUT = budgetMs(60_000, 1_800_000);

// ---- the suites --------------------------------------------------------------------------------------

describe('mutated structure files (fast-check): a typed error naming the file, or systems a batch takes', () => {
  it.each([
    ['extxyz', 'seed.xyz', undefined],
    ['poscar', 'POSCAR', undefined],
    ['cif', 'NaCl.cif', undefined],
    ['lammps', 'alloy.data', ['Al', 'Cu']],
  ] as const)('%s', (kind, name, species) => {
    fc.assert(
      fc.property(mutations, (list) => {
        const file = write(name, mutate(seeds.get(kind) as Buffer, list));
        check(() => readStructures(file, species === undefined ? {} : { species: [...species] }), file);
        rmSync(file);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  }, TIMEOUT);

  it('extxyz text in memory (readExtxyz)', () => {
    fc.assert(
      fc.property(mutations, (list) => check(() => readExtxyz(`${mutate(seeds.get('extxyz') as Buffer, list).toString('utf8')}\n`))),
      { seed: SEED + 1, numRuns: RUNS },
    );
  }, TIMEOUT);
});

describe('mutated EAM files (fast-check): EAM_PARSE or a model whose compute is finite or typed', () => {
  it('EAM', () => {
    const { name, bytes } = eamSeed();
    const crystal = Batch.fromSystems([rattle(repeat(bulk('Cu', 'fcc', { a: 3.615, cubic: true }), [2, 2, 2]), 0.05, 1)]);
    fc.assert(
      fc.property(mutations, (list) => {
        const file = write(name, mutate(bytes, list));
        let model: EAM;
        try {
          model = new EAM({ file });
        } catch (error) {
          expectTyped(error, file);
          return;
        } finally {
          rmSync(file);
        }
        try {
          model.compute(crystal, { stress: true });
          for (const field of ['energy', 'forces', 'stress'] as const) expect(crystal.read(field).every(Number.isFinite)).toBe(true);
        } catch (error) {
          expectTyped(error);
        }
      }),
      { seed: SEED + 2, numRuns: Math.max(10, Math.floor(RUNS / 2)) },
    );
  }, TIMEOUT);
});

describe('mutated Zarr stores (fast-check): READ_FAILED or ZARR_LAYOUT naming the store, or systems a batch takes', () => {
  const files = (root: string, under = ''): string[] =>
    readdirSync(join(root, under)).flatMap((entry) => {
      const rel = under === '' ? entry : `${under}/${entry}`;
      return statSync(join(root, rel)).isDirectory() ? files(root, rel) : [rel];
    });

  it('readZarr', async () => {
    const all = files(zarrSeed);
    let copies = 0;
    await fc.assert(
      fc.asyncProperty(fc.nat(), mutations, async (k, list) => {
        const store = join(dir, `store-${copies++}.zarr`);
        cpSync(zarrSeed, store, { recursive: true });
        const target = join(store, all[k % all.length] as string);
        writeFileSync(target, mutate(readFileSync(target), list));
        const outcome = await readZarr(store).then((systems) => ({ systems }), (error: unknown) => ({ error }));
        if ('error' in outcome) expectTyped(outcome.error, store);
        else expectValid(outcome.systems);
        rmSync(store, { recursive: true, force: true });
      }),
      // A store copy per case: half the cases of the other readers.
      { seed: SEED + 3, numRuns: Math.max(10, Math.floor(RUNS / 2)) },
    );
  }, TIMEOUT);
});

describe('mutated configs (fast-check): INVALID_CONFIG naming the file, or a value', () => {
  it.each([
    ['run config (YAML)', 'yaml', 'run.yaml', CONFIG_SCHEMA],
    ['model config (JSON)', 'json', 'model.json', MODEL_SCHEMA],
  ] as const)('%s', (_label, kind, name, schema) => {
    fc.assert(
      fc.property(mutations, (list) => {
        const file = write(name, mutate(seeds.get(kind) as Buffer, list));
        try {
          loadConfigFile(file, schema);
        } catch (error) {
          expectTyped(error, file);
        } finally {
          rmSync(file);
        }
      }),
      { seed: SEED + 4, numRuns: RUNS },
    );
  }, TIMEOUT);
});
