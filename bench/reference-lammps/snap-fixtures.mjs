#!/usr/bin/env node
// Regenerates test/fixtures/snap/reference.json: energies, forces and stresses of the
// reference LAMMPS (bench/reference-lammps/build.sh: ML-SNAP + ML-IAP) for every SNAP /
// ML-IAP potential file Debian's lammps-data ships, on a fixed, deterministic set of
// structures per potential. CI compares hookmd against the checked-in file; it never
// runs this script (CI has no LAMMPS with ML-SNAP).
//
//   node bench/reference-lammps/snap-fixtures.mjs          # rewrite the fixture
//   node bench/reference-lammps/snap-fixtures.mjs --fd     # finite-difference check only
//
// Environment: HOOKMD_REFERENCE_LMP (the lmp binary), HOOKMD_POTENTIALS (default
// /usr/share/lammps/potentials). Rerunning gives a byte-identical file.
//
// Structures (seeded by the element set and lattice, so potentials for the same elements,
// e.g. Ta06A.snap / Ta06A.mliap / Ta06A.nn.mliap, see the same atoms):
//   ortho     rattled periodic orthogonal supercell of the conventional cell
//   triclinic rattled periodic cell spanned by a non-diagonal integer supercell matrix of
//             the conventional cell, rotated into LAMMPS's restricted triclinic form
//             (xy, xz, yz all nonzero), with a small random strain
//   slab      rattled (001) slab, boundary p p f, vacuum above and below
//   cluster   rattled sphere cut from the crystal, boundary f f f (stress: null)
//   mixed     (multi-element potentials) species drawn 50/50 at random on the lattice
// Rattle: every coordinate displaced uniformly in [-0.1, 0.1] Å.
//
// Units: positions and cell Å, energy eV, forces eV/Å, stress eV/Å^3 with ASE's sign
// (stress = -pressure; LAMMPS's pxx... / nktv2p, nktv2p = 1.6021765e6 bar per eV/Å^3)
// in Voigt order xx yy zz yz xz xy. For a slab the volume behind the stress is LAMMPS's
// box volume, |det(cell)|, vacuum included. Positions are the ones LAMMPS used (read
// back from its dump), so a wrapped or rounded coordinate is recorded as LAMMPS had it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  POTENTIALS as POTENTIALS_DIR,
  lammpsVersion,
  pairElements,
  readInclude,
  restrictedTriclinic,
  rng,
  runZero,
  stressFromPressure,
} from './lammps.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = join(ROOT, 'test', 'fixtures', 'snap', 'reference.json');
const RATTLE = 0.1;

// ---------------------------------------------------------------- potentials
const ZUO = ['Ni', 'Cu', 'Li', 'Mo', 'Si', 'Ge'].flatMap((el) => [
  `${el}_Zuo_JPCA2020.snap`,
  `${el}_Zuo_JPCA2020.quadratic.snap`,
]);
/** @type {{potential: string, kind: 'snap'|'mliap', pair?: string[]}[]} */
const POTENTIALS = [
  ...ZUO.map((p) => ({ potential: p, kind: 'snap' })),
  ...['Ta06A.snap', 'W_2940_2017_2.snap', 'WBe_Wood_PRB2019.snap', 'InP_JCPA2020.snap',
    'Mo_Chen_PRM2017.snap'].map((p) => ({ potential: p, kind: 'snap' })),
  ...['Ta06A.mliap', 'Ta06A.nn.mliap', 'W.quadratic.mliap', 'WBe_Wood_PRB2019.mliap',
    'InP_JCPA2020.mliap'].map((p) => ({ potential: p, kind: 'mliap' })),
  // No include file ships for these three; the lines are LAMMPS's own examples/mliap ones.
  {
    potential: 'Cu.nn.mliap.model',
    kind: 'mliap',
    pair: [
      'pair_style mliap model nn Cu.nn.mliap.model descriptor sna Cu.snap.mliap.descriptor',
      'pair_coeff * * Cu',
    ],
  },
  {
    potential: 'Si.nn.mliap.model',
    kind: 'mliap',
    pair: [
      'pair_style mliap model nn Si.nn.mliap.model descriptor so3 Si.nn.mliap.descriptor',
      'pair_coeff * * Si',
    ],
  },
  {
    potential: 'Ni_Mo.mliap.model',
    kind: 'mliap',
    pair: [
      'pair_style mliap model linear Ni_Mo.mliap.model descriptor so3 Ni_Mo.mliap.descriptor',
      'pair_coeff * * Mo Ni',
    ],
  },
];

// ---------------------------------------------------------------- lattices
const BASIS = {
  fcc: [[0, 0, 0], [0, 0.5, 0.5], [0.5, 0, 0.5], [0.5, 0.5, 0]],
  bcc: [[0, 0, 0], [0.5, 0.5, 0.5]],
  diamond: [
    [0, 0, 0], [0, 0.5, 0.5], [0.5, 0, 0.5], [0.5, 0.5, 0],
    [0.25, 0.25, 0.25], [0.25, 0.75, 0.75], [0.75, 0.25, 0.75], [0.75, 0.75, 0.25],
  ],
};
BASIS.zincblende = BASIS.diamond;

/**
 * The crystal for an element set: lattice, constant a (Å), and how species go on sites:
 * 'single', 'zincblende' (first element on the fcc sites, second on the tetrahedral ones),
 * or a substitution fraction of the second listed element on the lattice of the first.
 */
function crystalFor(elements) {
  const key = [...elements].sort().join('');
  const single = {
    Ni: ['fcc', 3.52], Cu: ['fcc', 3.62], Li: ['bcc', 3.44], Mo: ['bcc', 3.16],
    Ta: ['bcc', 3.31], W: ['bcc', 3.17], Si: ['diamond', 5.43], Ge: ['diamond', 5.66],
  };
  if (elements.length === 1) {
    const [lattice, a] = single[elements[0]];
    return { lattice, a, host: elements[0], key: `${key}-${lattice}` };
  }
  if (key === 'InP') return { lattice: 'zincblende', a: 5.87, first: 'In', second: 'P', key };
  // W with some Be on the bcc lattice; Ni with some Mo on the fcc lattice.
  if (key === 'BeW') return { lattice: 'bcc', a: 3.17, host: 'W', guest: 'Be', frac: 0.125, key };
  if (key === 'MoNi') return { lattice: 'fcc', a: 3.56, host: 'Ni', guest: 'Mo', frac: 0.25, key };
  throw new Error(`no crystal for ${elements}`);
}

/** Sites of the supercell M (rows: integer combinations of the conventional vectors). */
function supercellSites(lattice, M) {
  const basis = BASIS[lattice];
  const det3 = (m) =>
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
    m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
    m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  const D = det3(M);
  // inverse of M (fractional coordinates in the supercell: f = r_conv * M^-1)
  const inv = [
    [M[1][1] * M[2][2] - M[1][2] * M[2][1], M[0][2] * M[2][1] - M[0][1] * M[2][2], M[0][1] * M[1][2] - M[0][2] * M[1][1]],
    [M[1][2] * M[2][0] - M[1][0] * M[2][2], M[0][0] * M[2][2] - M[0][2] * M[2][0], M[0][2] * M[1][0] - M[0][0] * M[1][2]],
    [M[1][0] * M[2][1] - M[1][1] * M[2][0], M[0][1] * M[2][0] - M[0][0] * M[2][1], M[0][0] * M[1][1] - M[0][1] * M[1][0]],
  ].map((r) => r.map((x) => x / D));
  const range = Math.max(...M.flat().map(Math.abs)) * 3;
  const out = [];
  const eps = 1e-9;
  for (let i = -range; i <= range; i++)
    for (let j = -range; j <= range; j++)
      for (let k = -range; k <= range; k++)
        for (let s = 0; s < basis.length; s++) {
          const r = [i + basis[s][0], j + basis[s][1], k + basis[s][2]];
          const f = [0, 1, 2].map((c) => r[0] * inv[0][c] + r[1] * inv[1][c] + r[2] * inv[2][c]);
          if (f.every((x) => x >= -eps && x < 1 - eps)) out.push({ f: f.map((x) => (x < 0 ? 0 : x)), site: s });
        }
  const expect = Math.abs(D) * basis.length;
  if (out.length !== expect) throw new Error(`supercell has ${out.length} sites, expected ${expect}`);
  // deterministic order: by fractional z, y, x
  out.sort((p, q) => p.f[2] - q.f[2] || p.f[1] - q.f[1] || p.f[0] - q.f[0] || p.site - q.site);
  return { sites: out, D };
}

function matmul3(A, B) {
  return A.map((r) => [0, 1, 2].map((c) => r[0] * B[0][c] + r[1] * B[1][c] + r[2] * B[2][c]));
}

/** Species per site: sublattice order for zincblende, random substitution otherwise. */
function species(crystal, sites, rand, mixed, elements) {
  if (mixed) return sites.map(() => elements[rand() < 0.5 ? 0 : 1]);
  if (crystal.lattice === 'zincblende') return sites.map((s) => (s.site < 4 ? crystal.first : crystal.second));
  if (!crystal.guest) return sites.map(() => crystal.host);
  // exactly round(frac * N) guests, on sites picked by a seeded shuffle
  const n = sites.length;
  const idx = [...Array(n).keys()];
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  const g = new Set(idx.slice(0, Math.round(crystal.frac * n)));
  return sites.map((_, i) => (g.has(i) ? crystal.guest : crystal.host));
}

const rattle = (rand) => (rand() * 2 - 1) * RATTLE;

const ORTHO_REPS = { fcc: [3, 2, 2], bcc: [3, 3, 3], diamond: [2, 2, 2], zincblende: [2, 2, 2] };
const TRI_M = {
  fcc: [[2, 1, 0], [0, 2, 1], [1, 0, 2]], // 9 cells, 36 atoms
  bcc: [[3, 1, 1], [0, 3, 1], [1, 0, 2]], // 16 cells, 32 atoms
  diamond: [[2, 1, 0], [0, 2, 1], [1, 0, 2]], // 9 cells, 72 atoms
};
TRI_M.zincblende = TRI_M.diamond;
const SLAB_REPS = { fcc: [2, 2, 3], bcc: [3, 3, 3], diamond: [2, 2, 2], zincblende: [2, 2, 2] };
const VACUUM = 6; // Å of empty box on each side of a slab / cluster
const CLUSTER_ATOMS = 40; // about this many atoms in the sphere

/** The structures for one potential's elements, before LAMMPS sees them. */
function structures(elements) {
  const crystal = crystalFor(elements);
  const { lattice, a } = crystal;
  const out = [];
  const names = ['ortho', 'triclinic', 'slab', 'cluster'];
  if (elements.length > 1) names.push('mixed');
  for (const name of names) {
    const rand = rng(`${crystal.key}/${name}`);
    let cell;
    let pos;
    let sym;
    let pbc;
    if (name === 'ortho' || name === 'mixed') {
      const [nx, ny, nz] = ORTHO_REPS[lattice];
      const { sites } = supercellSites(lattice, [[nx, 0, 0], [0, ny, 0], [0, 0, nz]]);
      cell = [[nx * a, 0, 0], [0, ny * a, 0], [0, 0, nz * a]];
      sym = species(crystal, sites, rand, name === 'mixed', elements);
      pos = sites.map((s) => [s.f[0] * nx * a, s.f[1] * ny * a, s.f[2] * nz * a].map((x) => x + rattle(rand)));
      pbc = [true, true, true];
    } else if (name === 'triclinic') {
      const M = TRI_M[lattice];
      const { sites } = supercellSites(lattice, M);
      // general cell: M times the conventional cell, then a random strain (±1%)
      const eps = [0, 1, 2].map(() => [0, 1, 2].map(() => (rand() * 2 - 1) * 0.01));
      const strain = [0, 1, 2].map((i) => [0, 1, 2].map((j) => (i === j ? 1 : 0) + (eps[i][j] + eps[j][i]) / 2));
      const general = matmul3(M.map((r) => r.map((x) => x * a)), strain);
      const tri = restrictedTriclinic(general);
      cell = tri.cell;
      sym = species(crystal, sites, rand, false, elements);
      pos = sites.map((s) => {
        const r = [0, 1, 2].map((c) => s.f[0] * cell[0][c] + s.f[1] * cell[1][c] + s.f[2] * cell[2][c]);
        return r.map((x) => x + rattle(rand));
      });
      pbc = [true, true, true];
    } else if (name === 'slab') {
      const [nx, ny, nz] = SLAB_REPS[lattice];
      const { sites } = supercellSites(lattice, [[nx, 0, 0], [0, ny, 0], [0, 0, nz]]);
      cell = [[nx * a, 0, 0], [0, ny * a, 0], [0, 0, nz * a + 2 * VACUUM]];
      sym = species(crystal, sites, rand, false, elements);
      pos = sites.map((s) => [s.f[0] * nx * a, s.f[1] * ny * a, s.f[2] * nz * a + VACUUM].map((x) => x + rattle(rand)));
      pbc = [true, true, false];
    } else {
      // sphere about an atom at the centre of a 4x4x4 block of conventional cells
      const n = 4;
      const { sites } = supercellSites(lattice, [[n, 0, 0], [0, n, 0], [0, 0, n]]);
      const all = sites.map((s) => ({ r: s.f.map((x) => x * n * a), s }));
      const c = [n * a / 2, n * a / 2, n * a / 2];
      const d2 = (r) => (r[0] - c[0]) ** 2 + (r[1] - c[1]) ** 2 + (r[2] - c[2]) ** 2;
      all.sort((p, q) => d2(p.r) - d2(q.r) || p.r[2] - q.r[2] || p.r[1] - q.r[1] || p.r[0] - q.r[0]);
      // whole shells only: take every atom within the radius of the CLUSTER_ATOMS-th one
      const rmax = d2(all[CLUSTER_ATOMS - 1].r) + 1e-6;
      const chosen = all.filter((p) => d2(p.r) <= rmax);
      chosen.sort((p, q) => p.r[2] - q.r[2] || p.r[1] - q.r[1] || p.r[0] - q.r[0]);
      const lo = [0, 1, 2].map((k) => Math.min(...chosen.map((p) => p.r[k])));
      const hi = [0, 1, 2].map((k) => Math.max(...chosen.map((p) => p.r[k])));
      cell = [0, 1, 2].map((k) => [0, 1, 2].map((j) => (j === k ? hi[k] - lo[k] + 2 * VACUUM : 0)));
      sym = species(crystal, chosen.map((p) => p.s), rand, false, elements);
      pos = chosen.map((p) => p.r.map((x, k) => x - lo[k] + VACUUM + rattle(rand)));
      pbc = [false, false, false];
    }
    out.push({ structure: name, symbols: sym, positions: pos, cell, pbc });
  }
  return out;
}

// ---------------------------------------------------------------- running
function pairLinesFor(p) {
  return p.pair ?? readInclude(p.potential);
}

function evaluate(p, pairLines, elements, s) {
  const types = s.symbols.map((e) => elements.indexOf(e) + 1);
  const r = runZero({ ...s, types, elements, pairLines });
  for (const w of r.warnings.filter((l) => !/No fixes defined/.test(l))) console.warn(`${p.potential} ${s.structure}: ${w}`);
  return r;
}

function fixtureCase(p, pairLines, elements, s) {
  const r = evaluate(p, pairLines, elements, s);
  const periodic = s.pbc.some(Boolean);
  return {
    potential: p.potential,
    kind: p.kind,
    structure: s.structure,
    lammpsPair: pairLines,
    symbols: s.symbols,
    cell: s.cell,
    pbc: s.pbc,
    energy: r.energy,
    stress: periodic ? stressFromPressure(r.pressure) : null,
    positions: r.positions,
    forces: r.forces,
  };
}

// ---------------------------------------------------------------- output
/** JSON with one case key per line and one atom per line: readable, diffable, stable. */
function format(doc) {
  const j = (x) => JSON.stringify(x);
  const rows = (a) => `[\n${a.map((r) => `        ${j(r)}`).join(',\n')}\n      ]`;
  const cases = doc.cases.map((c) => {
    const keys = Object.keys(c).map((k) => {
      const v = c[k];
      const s = k === 'positions' || k === 'forces' || k === 'lammpsPair' ? rows(v) : j(v);
      return `      ${j(k)}: ${s}`;
    });
    return `    {\n${keys.join(',\n')}\n    }`;
  });
  const head = Object.keys(doc)
    .filter((k) => k !== 'cases')
    .map((k) => `  ${j(k)}: ${j(doc[k])}`);
  return `{\n${head.join(',\n')},\n  "cases": [\n${cases.join(',\n')}\n  ]\n}\n`;
}

// ---------------------------------------------------------------- finite differences
function finiteDifference() {
  const h = 1e-5;
  const checks = [
    ['Ni_Zuo_JPCA2020.snap', 'triclinic', 5],
    ['Si_Zuo_JPCA2020.quadratic.snap', 'slab', 7],
    ['InP_JCPA2020.snap', 'mixed', 3],
    ['Cu.nn.mliap.model', 'cluster', 2],
    ['Si.nn.mliap.model', 'ortho', 11],
  ];
  for (const [name, sname, atom] of checks) {
    const p = POTENTIALS.find((q) => q.potential === name);
    const pairLines = pairLinesFor(p);
    const elements = pairElements(pairLines);
    const s0 = structures(elements).find((s) => s.structure === sname);
    // start from the positions LAMMPS used, so ±h moves exactly that atom
    const base = evaluate(p, pairLines, elements, s0);
    const s = { ...s0, positions: base.positions };
    for (let k = 0; k < 3; k++) {
      const e = [];
      for (const sign of [1, -1]) {
        const pos = s.positions.map((r) => [...r]);
        pos[atom][k] += sign * h;
        e.push(evaluate(p, pairLines, elements, { ...s, positions: pos }).energy);
      }
      const fd = -(e[0] - e[1]) / (2 * h);
      const an = base.forces[atom][k];
      console.log(
        `${name} ${sname} atom ${atom} ${'xyz'[k]}: analytic ${an.toPrecision(12)} ` +
          `fd ${fd.toPrecision(12)} diff ${(an - fd).toExponential(2)} eV/Å`,
      );
    }
    // Finite strain: x_i += eps * x_j on atoms and cell (i <= j keeps the cell restricted
    // triclinic); stress_ij = (1/V) dE/d eps, to compare with the fixture's stress.
    if (!s.pbc.every(Boolean)) continue;
    const V = s.cell[0][0] * s.cell[1][1] * s.cell[2][2];
    const stress = stressFromPressure(base.pressure);
    const voigt = [[0, 0], [1, 1], [2, 2], [1, 2], [0, 2], [0, 1]];
    const eps = 1e-6;
    voigt.forEach(([i, j], v) => {
      const e = [];
      for (const sign of [1, -1]) {
        const d = (r) => r.map((x, c) => (c === i ? x + sign * eps * r[j] : x));
        e.push(evaluate(p, pairLines, elements, { ...s, cell: s.cell.map(d), positions: s.positions.map(d) }).energy);
      }
      const fd = (e[0] - e[1]) / (2 * eps) / V;
      console.log(
        `${name} ${sname} stress ${'xyz'[i]}${'xyz'[j]}: virial ${stress[v].toPrecision(10)} ` +
          `fd ${fd.toPrecision(10)} diff ${(stress[v] - fd).toExponential(2)} eV/Å^3`,
      );
    });
  }
}

/** Which package the potential files came from, e.g. "lammps-data 20220106.git7586adbb6a+ds1-2". */
function potentialsPackage() {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Package} ${Version}', 'lammps-data'], { encoding: 'utf8' });
  return r.status === 0 ? `Debian ${r.stdout.trim()}, /usr/share/lammps/potentials` : POTENTIALS_DIR;
}

// ---------------------------------------------------------------- main
if (process.argv.includes('--fd')) {
  finiteDifference();
} else {
  const doc = {
    generator: 'bench/reference-lammps/snap-fixtures.mjs',
    lammps: lammpsVersion(),
    potentials: potentialsPackage(),
    units: 'metal: positions and cell Å, energy eV, forces eV/Å; stress eV/Å^3, ASE sign (-pressure), Voigt xx yy zz yz xz xy, volume |det(cell)|',
    cases: [],
  };
  for (const p of POTENTIALS) {
    const pairLines = pairLinesFor(p);
    const elements = pairElements(pairLines);
    for (const s of structures(elements)) {
      const c = fixtureCase(p, pairLines, elements, s);
      doc.cases.push(c);
      console.log(`${p.potential.padEnd(34)} ${s.structure.padEnd(10)} ${String(s.positions.length).padStart(4)} atoms  E = ${c.energy}`);
    }
  }
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, format(doc));
  console.log(`wrote ${OUT}: ${doc.cases.length} cases`);
}
