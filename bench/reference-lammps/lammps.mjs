// Helpers shared by the reference-LAMMPS scripts in this folder (snap-fixtures.mjs,
// mlearn-reference.mjs): finding the reference binary, resolving a LAMMPS potential
// include file into the pair_style / pair_coeff lines it runs, converting a general
// cell to LAMMPS's restricted triclinic form, and one `run 0` returning energy,
// forces and the pressure tensor at 17 significant digits.
//
// Plain Node ESM, no dependencies, nothing from hookmd: these scripts are for
// regenerating fixtures with the LAMMPS built by build.sh, not for CI.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const LMP = process.env.HOOKMD_REFERENCE_LMP || '/work/reference-lammps/build/lmp';
export const POTENTIALS = process.env.HOOKMD_POTENTIALS || '/usr/share/lammps/potentials';

/** LAMMPS metal units: pressure (bar) = virial (eV) / volume (Å^3) * NKTV2P. */
export const NKTV2P = 1.6021765e6;

export const MASSES = {
  Be: 9.0121831, Cu: 63.546, Ge: 72.63, In: 114.818, Li: 6.94, Mo: 95.95, Ni: 58.6934,
  P: 30.973762, Si: 28.0855, Ta: 180.94788, W: 183.84,
};

export function requireLmp() {
  if (!existsSync(LMP)) {
    throw new Error(
      `reference LAMMPS not found at ${LMP}: run bench/reference-lammps/build.sh ` +
        'or set HOOKMD_REFERENCE_LMP',
    );
  }
  return LMP;
}

/** The version line LAMMPS prints first, e.g. "LAMMPS (7 Jan 2022)". */
export function lammpsVersion() {
  const r = spawnSync(requireLmp(), ['-nocite', '-log', 'none'], { input: '', encoding: 'utf8' });
  const line = r.stdout.split('\n').find((l) => l.startsWith('LAMMPS ('));
  if (!line) throw new Error(`cannot read the LAMMPS version from: ${r.stdout}${r.stderr}`);
  return line.trim();
}

/**
 * Resolves a LAMMPS potential include file (as shipped in potentials/) into the lines it
 * runs: comments stripped, `&` continuations joined, `variable NAME equal|index|string V`
 * recorded and `${NAME}` / `$N` substituted, whitespace collapsed. Only variable,
 * pair_style and pair_coeff commands are expected; anything else is an error.
 */
export function resolveInclude(text, file = '<include>') {
  const vars = new Map();
  const out = [];
  const raw = text.split(/\r?\n/);
  const lines = [];
  let acc = '';
  for (const line0 of raw) {
    const line = line0.replace(/#.*$/, '');
    const t = line.trimEnd();
    if (t.endsWith('&')) {
      acc += t.slice(0, -1) + ' ';
      continue;
    }
    acc += t;
    if (acc.trim()) lines.push(acc.trim());
    acc = '';
  }
  if (acc.trim()) lines.push(acc.trim());
  const subst = (s) =>
    s.replace(/\$\{([A-Za-z0-9_]+)\}|\$([A-Za-z0-9_])/g, (_, a, b) => {
      const name = a ?? b;
      if (!vars.has(name)) throw new Error(`${file}: variable ${name} is not defined`);
      return vars.get(name);
    });
  for (const line of lines) {
    const words = subst(line).split(/\s+/);
    if (words[0] === 'variable') {
      const [, name, style, ...values] = words;
      if (!['equal', 'index', 'string'].includes(style) || values.length === 0) {
        throw new Error(`${file}: unsupported variable command: ${line}`);
      }
      // index: the first value; equal: these files only give plain numbers, which
      // LAMMPS evaluates and prints with %.15g.
      let v = values[0];
      if (style === 'equal') {
        const x = Number(values.join(''));
        if (!Number.isFinite(x)) throw new Error(`${file}: not a plain number: ${line}`);
        v = String(Number(x.toPrecision(15)));
      }
      // LAMMPS keeps the first definition of an index/string variable (so -var overrides).
      if (style === 'equal' || !vars.has(name)) vars.set(name, v);
    } else if (words[0] === 'pair_style' || words[0] === 'pair_coeff') {
      out.push(words.join(' '));
    } else {
      throw new Error(`${file}: unexpected command in a potential include: ${line}`);
    }
  }
  return out;
}

export function readInclude(name) {
  return resolveInclude(readFileSync(join(POTENTIALS, name), 'utf8'), name);
}

/** The element names at the end of the `pair_coeff * * ...` line, in type order. */
export function pairElements(pairLines) {
  const line = pairLines.find((l) => /^pair_coeff \* \* /.test(l));
  if (!line) throw new Error(`no "pair_coeff * *" line in ${pairLines.join(' | ')}`);
  const w = line.split(' ').slice(3);
  // Drop a sub-style name (hybrid) and any file names: elements are the trailing words
  // that look like element symbols.
  const els = [];
  for (let i = w.length - 1; i >= 0 && /^[A-Z][a-z]?$/.test(w[i]); i--) els.unshift(w[i]);
  return els;
}

/**
 * LAMMPS restricted triclinic form of a cell whose rows are the vectors a, b, c:
 * a = (ax,0,0), b = (bx,by,0), c = (cx,cy,cz). Returns the new cell and the rotation R
 * (rows: the new x, y, z unit vectors in the old frame), so that v_new = R v_old.
 */
export function restrictedTriclinic(cell) {
  const [A, B, C] = cell;
  const dot = (u, v) => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  const cross = (u, v) => [
    u[1] * v[2] - u[2] * v[1],
    u[2] * v[0] - u[0] * v[2],
    u[0] * v[1] - u[1] * v[0],
  ];
  const norm = (u) => Math.sqrt(dot(u, u));
  const det = dot(A, cross(B, C));
  if (!(det > 0)) throw new Error('cell is not right-handed; LAMMPS cannot represent it');
  const e1 = A.map((x) => x / norm(A));
  const bperp = B.map((x, i) => x - dot(B, e1) * e1[i]);
  const e2 = bperp.map((x) => x / norm(bperp));
  const e3 = cross(e1, e2);
  const R = [e1, e2, e3];
  const rot = (v) => [dot(e1, v), dot(e2, v), dot(e3, v)];
  const a = [norm(A), 0, 0];
  const b = [dot(B, e1), norm(bperp), 0];
  const cc = rot(C);
  return { cell: [a, b, [cc[0], cc[1], cc[2]]], R, rotate: rot };
}

export function num(x) {
  // Shortest round-trip decimal: exact for the double, so LAMMPS reads the same bits.
  if (!Number.isFinite(x)) throw new Error(`not finite: ${x}`);
  return String(x);
}

/**
 * Writes an atom_style atomic data file for a restricted triclinic cell with its origin at
 * 0. `types` are 1-based LAMMPS types; `elements` names each type (for the masses).
 */
export function dataFile({ cell, positions, types, elements }) {
  const [a, b, c] = cell;
  if (a[1] !== 0 || a[2] !== 0 || b[2] !== 0) throw new Error('cell is not restricted triclinic');
  const lines = [
    'LAMMPS data file (hookmd bench/reference-lammps)',
    '',
    `${positions.length} atoms`,
    `${elements.length} atom types`,
    '',
    `0 ${num(a[0])} xlo xhi`,
    `0 ${num(b[1])} ylo yhi`,
    `0 ${num(c[2])} zlo zhi`,
    `${num(b[0])} ${num(c[0])} ${num(c[1])} xy xz yz`,
    '',
    'Masses',
    '',
    ...elements.map((e, i) => `${i + 1} ${MASSES[e]}`),
    '',
    'Atoms # atomic',
    '',
    ...positions.map((p, i) => `${i + 1} ${types[i]} ${num(p[0])} ${num(p[1])} ${num(p[2])}`),
    '',
  ];
  return lines.join('\n');
}

/**
 * One `run 0` of the reference LAMMPS, in the potentials folder (so the include files'
 * relative file names resolve as LAMMPS users run them). Returns the potential energy (eV),
 * the pressure tensor components (bar, LAMMPS order pxx pyy pzz pyz pxz pxy, virial only as
 * velocities are zero), and the positions and forces LAMMPS used, sorted by atom id, all
 * read back from LAMMPS's own %.17g output.
 */
export function runZero({ cell, positions, types, elements, pbc, pairLines, extra = [] }) {
  requireLmp();
  const dir = mkdtempSync(join(tmpdir(), 'hookmd-lmp-'));
  try {
    writeFileSync(join(dir, 'data'), dataFile({ cell, positions, types, elements }));
    const dump = join(dir, 'dump');
    const fmt = ['%d', ...Array(7).fill('%.17g')].join(' ');
    const input = [
      'units metal',
      'atom_style atomic',
      'atom_modify map array sort 0 0.0',
      `boundary ${pbc.map((p) => (p ? 'p' : 'f')).join(' ')}`,
      'box tilt large',
      `read_data ${join(dir, 'data')}`,
      ...pairLines,
      ...extra,
      'neighbor 1.0 bin',
      'thermo_style custom step pe pxx pyy pzz pyz pxz pxy',
      `thermo_modify format line "${fmt}"`,
      'run 0',
      `write_dump all custom ${dump} id type x y z fx fy fz modify sort id format float %.17g`,
      '',
    ].join('\n');
    writeFileSync(join(dir, 'in'), input);
    const r = spawnSync(LMP, ['-nocite', '-log', 'none', '-in', join(dir, 'in')], {
      cwd: POTENTIALS,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    if (r.status !== 0 || !existsSync(dump)) {
      throw new Error(`lmp failed (${r.status}):\n${r.stdout.slice(-3000)}\n${r.stderr}`);
    }
    const out = r.stdout.split('\n');
    const h = out.findIndex((l) => /^\s*Step\s+PotEng/.test(l));
    if (h < 0) throw new Error(`no thermo header in:\n${r.stdout.slice(-3000)}`);
    const v = out[h + 1].trim().split(/\s+/).map(Number);
    const rows = readFileSync(dump, 'utf8').trim().split('\n').slice(9);
    const pos = [];
    const frc = [];
    for (const row of rows) {
      const w = row.trim().split(/\s+/).map(Number);
      pos.push([w[2], w[3], w[4]]);
      frc.push([w[5], w[6], w[7]]);
    }
    if (pos.length !== positions.length) {
      throw new Error(`LAMMPS has ${pos.length} atoms, expected ${positions.length}`);
    }
    const warnings = out.filter((l) => l.startsWith('WARNING'));
    return { energy: v[1], pressure: v.slice(2, 8), positions: pos, forces: frc, warnings };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** LAMMPS pressure (bar; pxx pyy pzz pyz pxz pxy) to ASE-sign stress in eV/Å^3, Voigt order. */
export function stressFromPressure(p) {
  return p.map((x) => (x === 0 ? 0 : -x / NKTV2P));
}

/** Small seeded PRNG (mulberry32) with the seed hashed from a string (xmur3). */
export function rng(seedString) {
  let h = 1779033703 ^ seedString.length;
  for (let i = 0; i < seedString.length; i++) {
    h = Math.imul(h ^ seedString.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  h = Math.imul(h ^ (h >>> 16), 2246822507);
  h = Math.imul(h ^ (h >>> 13), 3266489909);
  let s = (h ^= h >>> 16) >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
