// Issue 46: a stream holds the atoms its systems fix (info.fixed, from a POSCAR's selective dynamics) through
// its refills: the per-atom flags move with the rows as systems leave and enter the batch. A Cu slab with its
// two lower layers fixed, relaxed by runStream among free slabs in mixed order and by `hookmd relax`, keeps
// its fixed atoms bit for bit, and its mobile atoms end where engine.run with FixAtoms on that system alone
// ends, and where LAMMPS's minimize with `fix setforce 0` on the fixed group ends.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, repeat, type System } from '../../lib/data/index.js';
import { ConvergenceHook, FIRE, FixAtoms } from '../../lib/dynamics/index.js';
import { formatLammpsData, formatPoscar, HostMemorySink, readStructures } from '../../lib/io/index.js';
import { EAM } from '../../lib/models/index.js';
import { ensureBuilt, runCli, workDir } from '../cli/run-cli.js';
import { LAMMPS_POTENTIALS, lammpsSkipReason, runLammps } from '../helpers/lammps.js';

const CU = join(LAMMPS_POTENTIALS, 'Cu_u3.eam');
const A = 3.615;
const FMAX = 1e-3;

/** A Cu(001) slab of six layers (12 atoms) over 10 Å of vacuum, rattled by `seed`; the two lower layers fixed when `fixed`. */
function slab(seed: number, fixed: boolean): System {
  const crystal = repeat(bulk('Cu', 'fcc', { a: A, cubic: true }), [1, 1, 3]);
  const shaken = rattle({ ...crystal, cell: [[A, 0, 0], [0, A, 0], [0, 0, 3 * A + 10]] }, 0.05, seed);
  const lower = (crystal.positions as number[][]).map((x) => (x[2] as number) < 0.75 * A);
  // The fixed atoms stay where the crystal has them; the mobile ones start rattled.
  const positions = (shaken.positions as number[][]).map((x, i) => (lower[i] ? (crystal.positions as number[][])[i] as number[] : x));
  return { ...shaken, positions, ...(fixed ? { info: { fixed: lower } } : {}) };
}

const dir = workDir('hookmd-fixed-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each system relaxed alone by engine.run, with FixAtoms on the atoms it fixes. */
async function alone(system: System, fmax: number): Promise<number[][]> {
  const batch = Batch.fromSystems([system]);
  const fire = new FIRE({ model: new EAM({ file: CU }), convergence: ConvergenceHook.fromFmax(fmax), constraints: [FixAtoms.fromSystems([system])] });
  const result = await fire.run(batch, { steps: 5000 });
  expect(result.converged[0]).toBe(1);
  return batch.toSystems()[0]?.positions as number[][];
}

describe('fixed atoms through a stream\'s refills', () => {
  // Written as a POSCAR with selective dynamics and read back, as `hookmd relax POSCAR` takes it.
  const systems = [slab(1, true), slab(2, false), slab(3, true), slab(4, false), slab(5, true), slab(6, true)].map((system, k) => {
    const path = join(dir, `POSCAR-${k}`);
    writeFileSync(path, formatPoscar(system));
    return readStructures(path)[0] as System;
  });

  it('the POSCAR round trip keeps the fixed atoms', () => {
    expect((systems[0]?.info?.fixed as boolean[]).filter(Boolean)).toHaveLength(4);
    expect(systems[1]?.info?.fixed).toBeUndefined();
  });

  // The first order starts with a fixed system; the second with free ones, so the stream's hold on fixed
  // atoms begins at a refill.
  it.each([[[0, 1, 2, 3, 4, 5]], [[1, 3, 0, 2, 4, 5]]])('runStream (order %j): fixed atoms bit for bit, mobile atoms as engine.run with FixAtoms on each system alone', async (order) => {
    const source = order.map((k) => systems[k] as System);
    const sink = new HostMemorySink();
    const fire = new FIRE({ model: new EAM({ file: CU }), convergence: ConvergenceHook.fromFmax(FMAX) });
    // Two systems at a time, refilled every 3 steps: fixed and free systems enter in mixed order.
    const result = await fire.runStream(source, { sinks: [sink], maxAtoms: 24, maxSystems: 2, refillEvery: 3, maxSteps: 5000, restoreOrder: true });
    expect(result.converged).toBe(source.length);
    const outs = sink.read();
    for (const [k, system] of source.entries()) {
      const out = outs[k] as System;
      const fixed = (system.info?.fixed as boolean[] | undefined) ?? [];
      const expected = await alone(system, FMAX);
      (out.positions as number[][]).forEach((x, i) => {
        if (fixed[i] === true) expect(x).toEqual((system.positions as number[][])[i]);
        // The batch's other system changes the last bits of a force sum, no more.
        else x.forEach((v, c) => expect(Math.abs(v - (expected[i]?.[c] as number))).toBeLessThan(1e-12));
      });
      // The fixed atoms leave with the system.
      expect(out.info?.fixed).toEqual(system.info?.fixed);
    }
  });

  it('hookmd relax of a POSCAR with selective dynamics holds its fixed atoms', async () => {
    ensureBuilt();
    const result = await runCli(['relax', 'POSCAR-0', '--model', `eam:${CU}`, '--fmax', String(FMAX), '--out', 'out.xyz', '--quiet'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const [out] = readStructures(join(dir, 'out.xyz'));
    const system = systems[0] as System;
    const fixed = system.info?.fixed as boolean[];
    const expected = await alone(system, FMAX);
    (out?.positions as number[][]).forEach((x, i) => {
      if (fixed[i]) expect(x).toEqual((system.positions as number[][])[i]);
      else x.forEach((v, c) => expect(Math.abs(v - (expected[i]?.[c] as number))).toBeLessThan(1e-12));
    });
  });

  it.skipIf(lammpsSkipReason !== '')(`relaxes the mobile atoms to where LAMMPS's minimize with fix setforce 0 puts them ${lammpsSkipReason}`, async () => {
    const system = systems[2] as System;
    const fixed = system.info?.fixed as boolean[];
    const sink = new HostMemorySink();
    await new FIRE({ model: new EAM({ file: CU }), convergence: ConvergenceHook.fromFmax(1e-7) }).runStream([systems[1] as System, system], { sinks: [sink], maxAtoms: 12, maxSteps: 20_000, restoreOrder: true });
    const ours = sink.read()[1]?.positions as number[][];
    const ids = fixed.flatMap((f, i) => (f ? [i + 1] : []));
    const script = ['units metal', 'atom_style atomic', 'boundary p p p', 'atom_modify map array', 'read_data data.lmp', 'pair_style eam', `pair_coeff * * ${CU}`,
      `group fixed id ${ids.join(' ')}`, 'fix hold fixed setforce 0.0 0.0 0.0', 'min_style cg', 'minimize 0 1e-10 100000 1000000',
      'write_dump all custom out.txt id x y z modify sort id format float %.17g'].join('\n');
    const text = runLammps(script, { 'data.lmp': formatLammpsData(system) }, ['out.txt']).outputs['out.txt'] as string;
    const rows = text.trim().split('\n').slice(9).map((line) => line.trim().split(/\s+/).slice(1).map(Number));
    // LAMMPS wraps atoms into its box: compare by the nearest image.
    const box = [A, A, 3 * A + 10];
    let worst = 0;
    ours.forEach((x, i) => x.forEach((v, c) => {
      const d = v - (rows[i]?.[c] as number);
      worst = Math.max(worst, Math.abs(d - (box[c] as number) * Math.round(d / (box[c] as number))));
    }));
    expect(worst).toBeLessThan(1e-6);
    fixed.forEach((f, i) => { if (f) expect(ours[i]).toEqual((system.positions as number[][])[i]); });
  });

  it('refuses an atom fixed in only some directions, naming the constraint hookmd lacks', async () => {
    const system = { ...(systems[0] as System), info: { ...systems[0]?.info, selectiveDynamics: (systems[0]?.positions as number[][]).map((_, i) => (i === 5 ? [true, true, false] : [true, true, true])) } };
    const fire = new FIRE({ model: new EAM({ file: CU }), convergence: ConvergenceHook.fromFmax(FMAX) });
    await expect(fire.runStream([system], { sinks: [new HostMemorySink()], maxAtoms: 100 })).rejects.toMatchObject({
      code: 'UNSUPPORTED_CONSTRAINT',
      message: expect.stringMatching(/fixes atom 5 in only some directions.*FixScaled, FixCartesian/),
    });
    expect(() => FixAtoms.fromSystems([system])).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_CONSTRAINT' }));
  });
});
