// Inputs shared by the benches, in Lennard-Jones reduced units: LAMMPS's bench/in.lj melt and perturbed
// LJ13 clusters.

/** The LAMMPS bench/in.lj lattice constant: fcc at ρ = 0.8442 σ⁻³, a = (4/ρ)^(1/3). */
export const LJ_FCC_A = (4 / 0.8442) ** (1 / 3);

/**
 * The in.lj start: fcc ρ 0.8442 with `cells`³ conventional cells (4·cells³ atoms, a periodic cube), velocities
 * at T = 1.44 (`exact`: rescaled to exactly 1.44 over 3N − 3 degrees of freedom, as LAMMPS's `velocity create`).
 * `hookmd` is the imported package.
 */
export function ljMeltBatch(hookmd, cells, seed = 87287) {
  const { Batch, bulk, repeat, initializeVelocities } = hookmd;
  const batch = Batch.fromSystems([repeat(bulk('Ar', 'fcc', { a: LJ_FCC_A, cubic: true }), [cells, cells, cells])], { units: 'lj' });
  initializeVelocities(batch, { temperature: 1.44, seed, exact: true });
  return batch;
}

/** The in.lj force field: 12-6 LJ, ε = σ = 1, rc 2.5 without shift, skin 0.3 (neighbor 0.3 bin). */
export function ljMeltModel(hookmd) {
  return new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, skin: 0.3 });
}

/**
 * LAMMPS's own bench/in.lj with `steps` steps and thermo output every 100 steps. `neighModify` replaces
 * in.lj's "delay 0 every 20 check no" (e.g. "delay 0 every 1 check yes": rebuild on skin/2 displacement).
 */
export function lammpsMeltInput(cells, steps, neighModify = 'delay 0 every 20 check no') {
  return `# LAMMPS bench/in.lj (3d Lennard-Jones melt), ${steps} steps, thermo every 100
units           lj
atom_style      atomic
lattice         fcc 0.8442
region          box block 0 ${cells} 0 ${cells} 0 ${cells}
create_box      1 box
create_atoms    1 box
mass            1 1.0
velocity        all create 1.44 87287 loop geom
pair_style      lj/cut 2.5
pair_coeff      1 1 1.0 1.0 2.5
neighbor        0.3 bin
neigh_modify    ${neighModify}
fix             1 all nve
thermo          100
thermo_style    custom step temp pe ke etotal
run             ${steps}
`;
}

/** What LAMMPS printed: loop time, thermo rows, neighbor builds, version. */
export function parseLammpsLog(text) {
  const loop = /Loop time of ([\d.eE+-]+) on (\d+) procs for (\d+) steps with (\d+) atoms/.exec(text);
  if (loop === null) throw new Error(`no "Loop time" line in LAMMPS output:\n${text.slice(-2000)}`);
  const builds = /Neighbor list builds = (\d+)/.exec(text);
  const version = /^LAMMPS \(([^)]+)\)/m.exec(text);
  const cpuUse = /([\d.]+)% CPU use/.exec(text);
  const thermo = [];
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^\s*Step\s+Temp\s+PotEng\s+KinEng\s+TotEng/.test(l));
  for (let i = start + 1; start >= 0 && i < lines.length; i++) {
    const f = lines[i].trim().split(/\s+/).map(Number);
    if (f.length !== 5 || f.some((v) => !Number.isFinite(v))) break;
    thermo.push({ step: f[0], temp: f[1], pe: f[2], ke: f[3], etotal: f[4] });
  }
  return {
    loopSeconds: Number(loop[1]),
    procs: Number(loop[2]),
    steps: Number(loop[3]),
    atoms: Number(loop[4]),
    neighborBuilds: builds === null ? undefined : Number(builds[1]),
    version: version?.[1] ?? 'unknown',
    cpuUse: cpuUse === null ? undefined : Number(cpuUse[1]),
    thermo,
  };
}

/** |E(t) − E(0)| / |E(0)| at the last row and the largest over all rows. */
export function energyDrift(rows) {
  const e0 = rows[0].etotal;
  const rel = rows.map((r) => Math.abs(r.etotal - e0) / Math.abs(e0));
  return { final: rel[rel.length - 1], max: Math.max(...rel) };
}

/** The 13-atom Mackay icosahedron (centre + 12 vertices) with nearest-neighbour distance `d` (lib/cli/argon.ts). */
export function icosahedron13(d) {
  const phi = (1 + Math.sqrt(5)) / 2;
  const vertices = [];
  for (const a of [-1, 1]) {
    for (const b of [-phi, phi]) vertices.push([0, a, b], [a, b, 0], [b, 0, a]);
  }
  const radius = Math.hypot(1, phi);
  return [[0, 0, 0], ...vertices.map((v) => v.map((c) => (c * d) / radius))];
}

/** mulberry32: a small deterministic 32-bit generator, uniform in [0, 1). */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` LJ13 icosahedra (nearest neighbour 1.1σ), each coordinate displaced by a normal deviate of
 * standard deviation `stdev` (σ). Deterministic for a seed; returns count × 13 × 3 nested arrays.
 */
export function rattledLj13(count, stdev, seed = 2026) {
  const uniform = mulberry32(seed);
  const normal = () => {
    // Box–Muller; 1 − u keeps the logarithm finite.
    const u = 1 - uniform();
    const v = uniform();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  const base = icosahedron13(1.1);
  return Array.from({ length: count }, () => base.map((p) => p.map((x) => x + stdev * normal())));
}
