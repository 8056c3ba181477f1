#!/usr/bin/env node
// Many NEB paths in one batch vs ASE's NEB one path at a time (issue 45's speed row): `count` independent
// vacancy hops in fcc argon (the 2×2×2 cubic cell without its atom at the origin, a = 5.26 Å, its neighbour
// hopping in; both end points rattled by 0.01 Å with a seed per path, generated here and handed to both codes
// as the same JSON), seven images each, linear interpolation, a climbing image, relaxed to fmax 0.05 eV/Å
// (at most 1,000 steps) with ASE's 'aseneb' tangent and FIRE. Lennard-Jones ε = 0.0104 eV, σ = 3.4 Å, cutoff
// 8.5 Å: hookmd's LennardJones (shifted) and ASE 3.22's LennardJones(rc=8.5), which shifts the same way.
// hookmd relaxes all paths in one NEB (one batch of 7·count systems); ASE relaxes --ase-count of them one after
// another in one python process. Rounds interleave hookmd and ASE; each row is the best round, every round
// listed, with peak RSS. The barriers of the paths both relaxed are compared too.
// (Cu_u3.eam is not the potential here: ASE 3.22's EAM calculator needs 0.37 s per force call on these 31
// atoms and gives an energy 0.055 eV off LAMMPS's and hookmd's for the same file.)
//
// Usage: node bench/neb.mjs [--count 64] [--ase-count 4] [--rounds 3]
// Needs dist/ (npm run build), build/Release/hookmd.node, and ASE importable by /usr/bin/python3.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { argMin, childMain, machineLine, markdownTable, parseArgs, runChild, runExternal, sci, tempFile, timed } from './lib/harness.mjs';

const A = 5.26;
const LJ = { epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 };
const FMAX = 0.05;
const MAX_STEPS = 1000;
const IMAGES = 7;
const RATTLE = 0.01;

const ASE_SCRIPT = String.raw`
import json, sys, time
import numpy as np
from ase import Atoms
from ase.calculators.lj import LennardJones
from ase.neb import NEB
from ase.optimize import FIRE
import ase
data = json.load(open(sys.argv[1]))
count = int(sys.argv[2])
barriers, steps = [], []
t0 = time.perf_counter()
for initial, final in data['paths'][:count]:
    ends = [Atoms('Ar%d' % len(p), positions=p, cell=data['cell'], pbc=True) for p in (initial, final)]
    images = [ends[0]] + [ends[0].copy() for _ in range(${IMAGES - 2})] + [ends[1]]
    for image in images:
        image.calc = LennardJones(epsilon=${LJ.epsilon}, sigma=${LJ.sigma}, rc=${LJ.cutoff})
    neb = NEB(images, climb=True)
    neb.interpolate()
    opt = FIRE(neb, logfile=None)
    opt.run(fmax=${FMAX}, steps=${MAX_STEPS})
    energies = [image.get_potential_energy() for image in images]
    barriers.append(max(energies) - energies[0])
    steps.append(opt.get_number_of_steps())
print(json.dumps({'ase': ase.__version__, 'wallSeconds': time.perf_counter() - t0, 'barriers': barriers, 'steps': steps}))
`;

// --- child: hookmd relaxes every path in one NEB ------------------------------------------------------------
async function hookmdRun({ pathsFile }) {
  const hookmd = await import('../dist/index.js');
  const { cell, paths } = JSON.parse(readFileSync(pathsFile, 'utf8'));
  const system = (positions) => ({ symbols: positions.map(() => 'Ar'), positions, cell, pbc: true });
  const model = new hookmd.LennardJones({ ...LJ, shift: true });
  const { wallSeconds, value } = await timed(() =>
    new hookmd.NEB({ model, images: paths.map(([a, b]) => [system(a), system(b)]), interpolate: 'linear', numImages: IMAGES, climb: true }).run({ fmax: FMAX, steps: MAX_STEPS }),
  );
  return { wallSeconds, steps: value.steps, converged: value.paths.filter((p) => p.converged).length, barriers: value.paths.map((p) => p.barrier), threads: hookmd.getThreads() };
}

// --- parent -------------------------------------------------------------------------------------------------
async function pathsOf(count) {
  const hookmd = await import('../dist/index.js');
  const crystal = hookmd.repeat(hookmd.bulk('Ar', 'fcc', { a: A, cubic: true }), 2);
  const initial = { ...crystal, atomicNumbers: crystal.atomicNumbers.slice(1), positions: crystal.positions.slice(1), velocities: undefined };
  // The neighbour at (0, a/2, a/2) hops into the vacancy at the origin.
  const final = { ...initial, positions: initial.positions.map((r, i) => (i === 0 ? [0, 0, 0] : r)) };
  const paths = Array.from({ length: count }, (_, p) => [initial, final].map((end, e) => hookmd.rattle(end, { stdev: RATTLE, seed: 2 * p + e + 1 }).positions));
  return { cell: crystal.cell, paths };
}

async function main() {
  const { count, aseCount, rounds } = parseArgs({ count: 64, aseCount: 4, rounds: 3 });
  const started = machineLine();
  const file = tempFile('paths.json', JSON.stringify(await pathsOf(count)));
  const py = tempFile('ase_neb.py', ASE_SCRIPT);
  const haveAse = spawnSync('/usr/bin/python3', ['-c', 'import ase'], { stdio: 'ignore' }).status === 0;
  const ours = [];
  const theirs = [];
  try {
    for (let r = 0; r < rounds; r++) {
      process.stderr.write(`[neb] round ${r + 1}/${rounds}: hookmd, ${count} paths in one batch\n`);
      ours.push(await runChild(new URL(import.meta.url), { pathsFile: file.path }));
      if (!haveAse) continue;
      process.stderr.write(`[neb] round ${r + 1}/${rounds}: ASE, ${aseCount} paths one by one\n`);
      const run = await runExternal('/usr/bin/python3', [py.path, file.path, String(aseCount)]);
      theirs.push({ ...JSON.parse(run.stdout.trim().split('\n').pop()), peakRssMiB: run.peakRssMiB });
    }
  } finally {
    file.cleanup();
    py.cleanup();
  }
  const best = ours[argMin(ours.map((o) => o.wallSeconds))];
  const perPath = best.wallSeconds / count;
  const rows = [[`hookmd NEB, ${count} paths in one batch (${IMAGES * count} systems)`, best.threads, best.wallSeconds.toFixed(3), ours.map((o) => o.wallSeconds.toFixed(3)).join(', '), (1000 * perPath).toFixed(1), '', best.peakRssMiB.toFixed(1)]];
  console.log(`## neb — ${count} vacancy-hop paths (Ar, LJ), climbing image, fmax ${FMAX}: hookmd in one batch vs ASE one by one\n`);
  console.log(`${started}\n`);
  if (theirs.length > 0) {
    const fastest = theirs[argMin(theirs.map((t) => t.wallSeconds))];
    const asePerPath = fastest.wallSeconds / aseCount;
    rows.unshift([`ASE ${fastest.ase} NEB + FIRE, ${aseCount} paths one by one`, 1, fastest.wallSeconds.toFixed(3), theirs.map((t) => t.wallSeconds.toFixed(3)).join(', '), (1000 * asePerPath).toFixed(1), '1×', fastest.peakRssMiB.toFixed(1)]);
    rows[1][5] = `${(asePerPath / perPath).toFixed(1)}×`;
    const diffs = fastest.barriers.map((b, p) => Math.abs(b - best.barriers[p]));
    console.log(markdownTable(['run', 'threads', 'wall (s, best)', 'every round (s)', 'ms per path', 'per-path speedup vs ASE', 'peak RSS (MiB)'], rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r']));
    console.log(`\nhookmd: ${best.converged}/${count} paths converged, the batch took ${best.steps} steps (its slowest path's); ASE's ${aseCount} paths took ${fastest.steps.join(', ')} FIRE steps. ` +
      `Largest barrier difference over the ${aseCount} paths both relaxed: ${sci(Math.max(...diffs))} eV (barriers ${fastest.barriers.map((b) => b.toFixed(4)).join(', ')} eV).`);
    return;
  }
  console.log(markdownTable(['run', 'threads', 'wall (s, best)', 'every round (s)', 'ms per path', '', 'peak RSS (MiB)'], rows));
  console.log(`\n/usr/bin/python3 cannot import ase: no ASE comparison. ${best.converged}/${count} converged in ${best.steps} steps.`);
}

if (!(await childMain(hookmdRun))) await main();
