// Outside force providers against their baselines, in one run:
// - OnnxModel running the Lennard-Jones ONNX graph (scripts/make-onnx-models.py, float64, forces in the
//   graph) against the native LennardJones, per call and per atom, on 1,024 LJ13 clusters and on the
//   32,000-atom bench/in.lj liquid (lj units, rc 2.5σ shifted, skin 0.3σ). Our overhead is what
//   model.computeStats() counts outside onnxruntime's run: the edge list, the int64 and float arrays, the
//   tensors, and the checked copy of the outputs. The target: under 10 % of the model's run time at
//   32,000 atoms.
// - IpiModel's round trip per system (2×2×2 Cu cells, 32 atoms, through one ASE SocketClient with EMT, unix
//   socket) against ASE's own loop evaluating EMT on the same cells; and with two clients.
// Rounds interleave the measurements; each keeps its best round.
// Usage: node bench/force-providers.mjs [--rounds 3] [--evals 10] [--systems 20]
// Needs dist/, build/Release/hookmd.node, onnxruntime-node, python3-onnx and python3-ase (/usr/bin/python3).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { machineLine, markdownTable, parseArgs, peakRssMiB, runExternal } from './lib/harness.mjs';
import { ljMeltBatch, rattledLj13 } from './lib/systems.mjs';

const options = parseArgs({ rounds: 3, evals: 10, systems: 20 });
const hookmd = await import('../dist/index.js');
const { GraphInputs } = await import('../dist/models/graph-inputs.js');
const ort = (await import('onnxruntime-node')).default;
hookmd.configureNative({ backend: 'cpu' });

const work = mkdtempSync(join(tmpdir(), 'hookmd-force-providers-'));
const modelPath = join(work, 'lj.onnx');
execFileSync('/usr/bin/python3', [new URL('../scripts/make-onnx-models.py', import.meta.url).pathname, 'lj', modelPath, '--shift'], { stdio: 'inherit' });

/** Mean seconds per call of `fn` (awaited) over `count` calls, after one warm-up call unless `warm` is false. */
async function perCall(fn, count, warm = true) {
  if (warm) await fn();
  const start = performance.now();
  for (let i = 0; i < count; i++) await fn();
  return (performance.now() - start) / 1000 / count;
}

// ---- ONNX LJ graph vs native LJ ----

const workloads = {
  '1,024 LJ13 clusters': () => hookmd.Batch.fromSystems(rattledLj13(1024, 0.05).map((positions) => ({ symbols: positions.map(() => 'Ar'), positions })), { units: 'lj' }),
  '32,000-atom in.lj liquid': () => ljMeltBatch(hookmd, 20),
};

async function onnxRound(name) {
  const batch = workloads[name]();
  const native = new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, shift: true, skin: 0.3 });
  const model = await hookmd.OnnxModel.load(modelPath, { cutoff: 2.5, skin: 0.3 });
  // onnxruntime alone, on the inputs OnnxModel builds: a session of its own with the same options.
  const session = await ort.InferenceSession.create(modelPath, { executionProviders: ['cpu'] });
  const inputs = new GraphInputs(2.5, 0.3, 'float64', ['positions', 'cell', 'system_index', 'edge_index', 'edge_shift']).build(batch);
  const feeds = Object.fromEntries([...inputs].map(([key, input]) => [key, new ort.Tensor(input.type, input.data, input.dims)]));
  const nativeSeconds = await perCall(() => native.compute(batch), options.evals);
  await model.compute(batch);
  const before = model.computeStats();
  const onnxSeconds = await perCall(() => model.compute(batch), options.evals, false);
  const after = model.computeStats();
  const calls = after.computes - before.computes;
  const split = (key) => (after[key] - before[key]) / calls;
  const sessionSeconds = await perCall(() => session.run(feeds, ['energy', 'forces']), options.evals);
  const reference = hookmd.Batch.fromSystems(batch.toSystems(), { units: 'lj' });
  native.compute(reference);
  await model.compute(batch);
  const deviation = Math.max(...batch.read('forces').map((f, k) => Math.abs(f - reference.read('forces')[k])));
  await session.release();
  await model.close();
  return { atoms: batch.numAtoms, edges: model.edgeCount, nativeSeconds, onnxSeconds, sessionSeconds, runSeconds: split('runSeconds'), oursSeconds: split('inputSeconds') + split('outputSeconds'), deviation };
}

// ---- i-PI round trip vs ASE's own EMT loop ----

const CELLS = `
import numpy as np
from ase.build import bulk
def cells(count):
    base = bulk('Cu', 'fcc', a=3.61, cubic=True).repeat((2, 2, 2))
    out = []
    for seed in range(count):
        atoms = base.copy()
        atoms.rattle(0.05, seed=seed + 1)
        out.append(atoms)
    return out
`;

// ASE's loop does what each SocketClient does per system: one Atoms with one EMT calculator, its positions
// and cell set from the next structure, then energy, forces and stress.
const ASE_LOOP = `${CELLS}
import sys, time, json
from ase.calculators.emt import EMT
systems = cells(int(sys.argv[1]))
atoms = systems[0].copy()
atoms.calc = EMT()
def evaluate(structure):
    atoms.cell[:] = structure.cell
    atoms.positions[:] = structure.positions
    atoms.get_potential_energy(); atoms.get_forces(); atoms.get_stress()
for structure in systems[:2]:
    evaluate(structure)
start = time.perf_counter()
for structure in systems:
    evaluate(structure)
print(json.dumps({'seconds': (time.perf_counter() - start) / len(systems)}))
`;

const EMT_CLIENT = `
import sys
from ase.build import bulk
from ase.calculators.emt import EMT
from ase.calculators.socketio import SocketClient
atoms = bulk('Cu', 'fcc', a=3.61, cubic=True).repeat((2, 2, 2))
atoms.calc = EMT()
SocketClient(unixsocket=sys.argv[1]).run(atoms, use_stress=True)
`;

async function aseRound() {
  const { stdout } = await runExternal('/usr/bin/python3', ['-c', ASE_LOOP, String(options.systems)]);
  return JSON.parse(stdout.trim()).seconds;
}

async function ipiRound(clients) {
  const name = `hookmd-bench-${process.pid}-${clients}`;
  const model = await hookmd.IpiModel.listen({ address: `unix:${name}`, clients, timeout: 120 });
  const children = Array.from({ length: clients }, () => spawn('/usr/bin/python3', ['-c', EMT_CLIENT, name], { stdio: 'ignore' }));
  await model.waitForClients();
  const json = execFileSync('/usr/bin/python3', ['-c', `${CELLS}\nimport json, sys\nprint(json.dumps([{'positions': a.positions.tolist(), 'cell': a.cell[:].tolist()} for a in cells(int(sys.argv[1]))]))`, String(options.systems)], { encoding: 'utf8' });
  const systems = JSON.parse(json).map((s) => ({ symbols: s.positions.map(() => 'Cu'), positions: s.positions, cell: s.cell, pbc: true }));
  const batch = hookmd.Batch.fromSystems(systems);
  await model.compute(hookmd.Batch.fromSystems(systems.slice(0, clients)), { stress: true });
  const start = performance.now();
  await model.compute(batch, { stress: true });
  const seconds = (performance.now() - start) / 1000 / systems.length;
  await model.close();
  await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)))));
  return seconds;
}

// ---- rounds ----

const start = machineLine();
const best = new Map();
const keep = (key, value, better = (a, b) => a.onnxSeconds < b.onnxSeconds) => {
  const old = best.get(key);
  if (old === undefined || better(value, old)) best.set(key, value);
};
for (let round = 0; round < options.rounds; round++) {
  for (const name of Object.keys(workloads)) {
    const result = await onnxRound(name);
    const old = best.get(name);
    best.set(name, old === undefined ? result : {
      ...result,
      nativeSeconds: Math.min(old.nativeSeconds, result.nativeSeconds),
      onnxSeconds: Math.min(old.onnxSeconds, result.onnxSeconds),
      sessionSeconds: Math.min(old.sessionSeconds, result.sessionSeconds),
      runSeconds: Math.min(old.runSeconds, result.runSeconds),
      oursSeconds: Math.min(old.oursSeconds, result.oursSeconds),
    });
  }
  keep('ase', await aseRound(), (a, b) => a < b);
  keep('ipi 1', await ipiRound(1), (a, b) => a < b);
  keep('ipi 2', await ipiRound(2), (a, b) => a < b);
}
rmSync(work, { recursive: true, force: true });

const ms = (s) => (1000 * s).toFixed(2);
const us = (s) => (1e6 * s).toFixed(3);
console.log('## force-providers — OnnxModel (LJ graph) vs native LJ, IpiModel vs ASE\'s EMT loop\n');
console.log(`${start}; \`node bench/force-providers.mjs --rounds ${options.rounds} --evals ${options.evals} --systems ${options.systems}\`, best of ${options.rounds} interleaved rounds. onnxruntime-node ${ort.env.versions?.node ?? '?'}, CPU provider.\n`);
const rows = Object.keys(workloads).map((name) => {
  const r = best.get(name);
  return [name, r.atoms, r.edges, ms(r.nativeSeconds), us(r.nativeSeconds / r.atoms), ms(r.onnxSeconds), us(r.onnxSeconds / r.atoms), `${(r.onnxSeconds / r.nativeSeconds).toFixed(1)}×`, ms(r.runSeconds), ms(r.sessionSeconds), ms(r.oursSeconds), `${((100 * r.oursSeconds) / r.runSeconds).toFixed(1)} %`, r.deviation.toExponential(1)];
});
console.log(markdownTable(['workload', 'atoms', 'edges', 'native LJ (ms/call)', 'native (µs/atom)', 'OnnxModel (ms/call)', 'OnnxModel (µs/atom)', 'OnnxModel / native', 'model run in compute (ms)', 'session.run alone (ms)', 'our overhead (ms)', 'overhead / model run', 'max |ΔF| vs native'], rows,
  ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']));
console.log('\nOur overhead: inputs (edges, arrays, tensors) and outputs (checks, copies) as model.computeStats() splits each compute; the model run is onnxruntime\'s session.run inside it. "session.run alone" is a session of its own on the same inputs, a cross-check of the model run.');
const ase = best.get('ase');
console.log('');
console.log(markdownTable(['run', 'ms per system', 'vs ASE loop'], [
  ['ASE: EMT in one Python loop (energy, forces, stress)', ms(ase), '1.00×'],
  ['IpiModel, 1 ASE SocketClient (EMT), unix socket', ms(best.get('ipi 1')), `${(best.get('ipi 1') / ase).toFixed(2)}×`],
  ['IpiModel, 2 ASE SocketClients (EMT), unix socket', ms(best.get('ipi 2')), `${(best.get('ipi 2') / ase).toFixed(2)}×`],
], ['l', 'r', 'r']));
console.log(`\nPeak RSS ${peakRssMiB().toFixed(0)} MiB (this process; the Python processes not included).`);
