// IpiModel with ASE 3.22's SocketClient and EMT as the clients (Debian's python3-ase): single points against
// ASE's own EMT, a FIRE relaxation through two clients against ASE's FIRE + EMT step for step, and clients
// that die, hang or talk nonsense (those are plain sockets written here).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect, type Socket } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { ConvergenceHook, DynamicsStage, FIRE } from '../../lib/dynamics/index.js';
import { IpiClientError, IpiModel } from '../../lib/models/index.js';
import { asePython, aseSkipReason, runAse } from '../helpers/ase.js';
import { fcc, rattled } from './reference.js';

// A SocketClient holding 2×2×2 cubic Cu cells (32 atoms) with ASE's EMT; positions and cell come from hookmd.
const EMT_CLIENT = `
import sys
from ase.build import bulk
from ase.calculators.emt import EMT
from ase.calculators.socketio import SocketClient
kind, where = sys.argv[1], sys.argv[2]
atoms = bulk('Cu', 'fcc', a=3.61, cubic=True).repeat((2, 2, 2))
atoms.calc = EMT()
client = SocketClient(unixsocket=where) if kind == 'unix' else SocketClient(host='127.0.0.1', port=int(where))
client.run(atoms, use_stress=True)
`;

const processes: ChildProcess[] = [];
const models: IpiModel[] = [];
let counter = 0;

afterEach(async () => {
  for (const model of models.splice(0)) await model.close();
  for (const child of processes.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** A fresh unix address for this test process. */
function unixName(): string {
  counter += 1;
  return `hookmd-test-${process.pid}-${counter}`;
}

async function listen(options: Parameters<typeof IpiModel.listen>[0]): Promise<IpiModel> {
  const model = await IpiModel.listen(options);
  models.push(model);
  return model;
}

/** Starts an ASE EMT client on `unix:NAME` or a TCP port; resolves with its process. */
function emtClient(kind: 'unix' | 'tcp', where: string): ChildProcess {
  const child = spawn(asePython as string, ['-c', EMT_CLIENT, kind, where], { stdio: ['ignore', 'ignore', 'pipe'] });
  processes.push(child);
  return child;
}

/** A server on a fresh unix address with two ASE EMT clients connected. */
async function twoEmtClients(): Promise<IpiModel> {
  const name = unixName();
  const model = await listen({ address: `unix:${name}`, clients: 2, timeout: 60 });
  emtClient('unix', name);
  emtClient('unix', name);
  await model.waitForClients();
  return model;
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Rattled 2×2×2 cubic Cu cells, sheared a little so the cells are triclinic. */
function copper(seed: number, shear = 0.04): System {
  const base = fcc(3.61, 2);
  const map = (v: number[]): number[] => [v[0] + shear * v[1], v[1], v[2]];
  return { symbols: base.positions.map(() => 'Cu'), positions: rattled(base.positions.map(map), 0.1, seed), cell: base.cell.map(map), pbc: true };
}

const ASE_EMT = `
import json, sys
import numpy as np
from ase import Atoms
from ase.calculators.emt import EMT
out = []
for s in json.load(sys.stdin):
    atoms = Atoms('Cu%d' % len(s['positions']), positions=s['positions'], cell=s['cell'], pbc=True)
    atoms.calc = EMT()
    out.append({'energy': atoms.get_potential_energy(), 'forces': atoms.get_forces().ravel().tolist(), 'stress': atoms.get_stress(voigt=False).ravel().tolist()})
print(json.dumps(out))
`;

describe.skipIf(aseSkipReason !== '')(`IpiModel with ASE EMT clients ${aseSkipReason}`, () => {
  it('single points of rattled Cu cells agree with ASE EMT to 1e-6 eV and 1e-5 eV/Å, through two clients', async () => {
    const name = unixName();
    const model = await listen({ address: `unix:${name}`, clients: 2, timeout: 60 });
    expect(existsSync(`/tmp/ipi_${name}`)).toBe(true);
    emtClient('unix', name);
    emtClient('unix', name);
    await model.waitForClients();
    const systems = [1, 2, 3, 4, 5].map((seed) => copper(seed));
    const batch = Batch.fromSystems(systems);
    await model.compute(batch, { stress: true });
    const reference = runAse<Array<{ energy: number; forces: number[]; stress: number[] }>>(ASE_EMT, systems);
    const ptr = batch.ptr;
    reference.forEach((ref, s) => {
      expect(Math.abs(batch.energy[s] - ref.energy)).toBeLessThan(1e-6);
      const forces = batch.read('forces').subarray(3 * ptr[s], 3 * ptr[s + 1]);
      forces.forEach((f, k) => expect(Math.abs(f - ref.forces[k])).toBeLessThan(1e-5));
      batch.read('stress').subarray(9 * s, 9 * s + 9).forEach((v, k) => expect(Math.abs(v - ref.stress[k])).toBeLessThan(1e-7));
    });
    expect(Array.from(batch.resultValid('forces'))).toEqual([1, 1, 1, 1, 1]);
  }, 60_000);

  it('FIRE through two clients matches ASE’s own FIRE + EMT step for step', async () => {
    const model = await twoEmtClients();
    const systems = [11, 12, 13].map((seed) => copper(seed, 0));
    const batch = Batch.fromSystems(systems);
    const steps = 30;
    const trajectory: number[][] = [];
    const fire = new FIRE({ model, hooks: [{ stage: DynamicsStage.AFTER_STEP, frequency: 1, call: (ctx) => { trajectory.push(Array.from(ctx.batch.read('positions'))); } }] });
    await fire.run(batch, { steps });
    const ase = runAse<number[][][]>(`
import json, sys
from ase import Atoms
from ase.calculators.emt import EMT
from ase.optimize import FIRE
out = []
for s in json.load(sys.stdin):
    atoms = Atoms('Cu%d' % len(s['positions']), positions=s['positions'], cell=s['cell'], pbc=True)
    atoms.calc = EMT()
    opt = FIRE(atoms, logfile=None)
    steps = []
    for _ in range(${steps}):
        opt.step()
        steps.append(atoms.positions.ravel().tolist())
    out.append(steps)
print(json.dumps(out))
`, systems);
    expect(trajectory.length).toBe(steps);
    const ptr = batch.ptr;
    let worst = 0;
    for (let k = 0; k < steps; k++) {
      systems.forEach((_, s) => {
        const ours = trajectory[k].slice(3 * ptr[s], 3 * ptr[s + 1]);
        ours.forEach((x, i) => { worst = Math.max(worst, Math.abs(x - ase[s][k][i])); });
      });
    }
    expect(worst).toBeLessThan(1e-8);
  }, 120_000);

  it('systems the engine no longer moves are not sent again (issue 39, item 9)', async () => {
    const model = await twoEmtClients();
    const base = fcc(3.61, 2);
    const perfect: System = { symbols: base.positions.map(() => 'Cu'), positions: base.positions, cell: base.cell, pbc: true };
    const batch = Batch.fromSystems([perfect, copper(11, 0)]);
    const steps = 12;
    const result = await new FIRE({ model, convergence: ConvergenceHook.fromFmax(1e-6) }).run(batch, { steps });
    expect(result.steps).toBe(steps);
    expect(batch.read('status')[0]).toBe(1);
    // The start forces of both; step 0's compute of both (its check then finds the perfect crystal
    // converged); then one calculation per step for the system still relaxing (old: two per step).
    expect(model.evaluations).toBe(2 + 2 + (steps - 1));
    const before = model.evaluations;
    await model.compute(batch);
    expect(model.evaluations).toBe(before);
    const reference = runAse<Array<{ energy: number }>>(ASE_EMT, batch.toSystems());
    reference.forEach((ref, s) => expect(Math.abs(batch.energy[s] - ref.energy)).toBeLessThan(1e-6));
  }, 60_000);

  it('a client killed mid-run gives IpiClientError naming the client and the system; with a second client the run goes on', async () => {
    const name = unixName();
    const lone = await listen({ address: `unix:${name}`, clients: 1, timeout: 60 });
    const victim = emtClient('unix', name);
    await lone.waitForClients();
    const killAt = (step: number, child: ChildProcess) => ({ stage: DynamicsStage.AFTER_STEP, frequency: 1, call: (ctx: { stepCount: number }) => { if (ctx.stepCount === step) child.kill('SIGKILL'); } });
    const fire = new FIRE({ model: lone, hooks: [killAt(2, victim)], convergence: ConvergenceHook.fromFmax(1e-6) });
    const error: unknown = await fire.run(Batch.fromSystems([copper(21), copper(22)]), { steps: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IpiClientError);
    expect(error).toMatchObject({ code: 'IPI_CLIENT_DISCONNECTED', details: { client: expect.stringMatching(/^client 1 /) } });
    expect([0, 1]).toContain((error as IpiClientError).details.system);

    const name2 = unixName();
    const pair = await listen({ address: `unix:${name2}`, clients: 2, timeout: 60 });
    const first = emtClient('unix', name2);
    emtClient('unix', name2);
    await pair.waitForClients();
    const seen: IpiClientError[] = [];
    const result = await new FIRE({ model: pair, hooks: [killAt(2, first)] }).run(Batch.fromSystems([copper(21), copper(22), copper(23)]), { steps: 8 });
    expect(result.steps).toBe(8);
    seen.push(...pair.clientErrors);
    expect(seen.length).toBe(1);
    expect(seen[0].code).toBe('IPI_CLIENT_DISCONNECTED');
  }, 120_000);

  it('close() sends EXIT: the clients end cleanly and the socket file goes', async () => {
    const name = unixName();
    const model = await listen({ address: `unix:${name}`, clients: 2, timeout: 60 });
    const clients = [emtClient('unix', name), emtClient('unix', name)];
    await model.waitForClients();
    await model.compute(Batch.fromSystems([copper(31)]));
    await model.close();
    expect(await Promise.all(clients.map(exited))).toEqual([0, 0]);
    expect(existsSync(`/tmp/ipi_${name}`)).toBe(false);
  }, 60_000);

  it('listens on TCP at 127.0.0.1 unless told otherwise', async () => {
    const model = await listen({ address: '0', timeout: 60 });
    expect(model.address).toMatch(/^127\.0\.0\.1:\d+$/);
    emtClient('tcp', model.address.split(':')[1]);
    const batch = Batch.fromSystems([copper(41)]);
    await model.compute(batch);
    const [reference] = runAse<Array<{ energy: number }>>(ASE_EMT, [copper(41)]);
    expect(Math.abs(batch.energy[0] - reference.energy)).toBeLessThan(1e-6);
  }, 60_000);
});

/** A client written here: connects, then answers each message as `reply` says (undefined: stay silent). */
function fakeClient(address: string, reply: (word: string) => Buffer | undefined): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = address.startsWith('unix:') ? connect(`/tmp/ipi_${address.slice(5)}`) : connect(Number(address.split(':')[1]), '127.0.0.1');
    socket.on('data', (data) => {
      const answer = reply(data.subarray(0, 12).toString('ascii').trim());
      if (answer !== undefined) socket.write(answer);
    });
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve(socket));
  });
}

describe('IpiModel: clients that hang or break the protocol', () => {
  it('a silent client is IPI_CLIENT_TIMEOUT after `timeout`, never later', async () => {
    const model = await listen({ address: '127.0.0.1:0', timeout: 0.3 });
    const socket = await fakeClient(model.address, () => undefined);
    await model.waitForClients();
    const started = performance.now();
    await expect(model.compute(Batch.fromSystems([copper(1)]))).rejects.toMatchObject({ code: 'IPI_CLIENT_TIMEOUT', details: { system: 0 } });
    expect(performance.now() - started).toBeLessThan(2000);
    socket.destroy();
  });

  it('a client that answers nonsense is IPI_MALFORMED_DATA', async () => {
    const model = await listen({ address: `unix:${unixName()}`, timeout: 5 });
    const socket = await fakeClient(model.address, () => Buffer.from('BANANAS     '));
    await model.waitForClients();
    await expect(model.compute(Batch.fromSystems([copper(1)]))).rejects.toMatchObject({ code: 'IPI_MALFORMED_DATA' });
    socket.destroy();
  });

  it('no client at all is IPI_NO_CLIENT after `timeout`; a batch in lj units is refused', async () => {
    const model = await listen({ address: '127.0.0.1:0', timeout: 0.2 });
    await expect(model.compute(Batch.fromSystems([copper(1)]))).rejects.toMatchObject({ code: 'IPI_NO_CLIENT' });
    await expect(model.compute(Batch.fromSystems([copper(1)], { units: 'lj' }))).rejects.toMatchObject({ code: 'UNITS_MISMATCH' });
  });

  it('refuses a bad address, and an address another server holds', async () => {
    await expect(IpiModel.listen({ address: 'unix:a/b' })).rejects.toMatchObject({ code: 'INVALID_ADDRESS' });
    await expect(IpiModel.listen({ address: 'localhost:99999' })).rejects.toMatchObject({ code: 'INVALID_ADDRESS' });
    const name = unixName();
    await listen({ address: `unix:${name}` });
    await expect(IpiModel.listen({ address: `unix:${name}` })).rejects.toMatchObject({ code: 'IPI_ADDRESS_IN_USE' });
  });
});
