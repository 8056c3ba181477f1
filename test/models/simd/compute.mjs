// Child of simd-parity.test.ts: computes energies, forces and stress for a fixed set of systems and prints
// them as exact bytes (base64), with the SIMD level in use. HOOKMD_SIMD decides that level, so the parent
// runs this twice and compares the output.
import { existsSync } from 'node:fs';

const [libraryUrl] = process.argv.slice(2);
const hookmd = await import(libraryUrl);
const { Batch, EAM, LennardJones, Morse, SNAP, bulk, repeat, backendInfo, setThreads } = hookmd;
// Debian's lammps-data; the parent skips the EAM cases without it.
const POTENTIALS = '/usr/share/lammps/potentials';

// A fixed linear congruential generator: both runs must see the same positions.
let state = 12345;
const random = () => {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return state / 2 ** 32;
};
const rattle = (positions, amplitude) => positions.map((p) => p.map((c) => c + amplitude * (2 * random() - 1)));
const argon = (positions, extra = {}) => ({ symbols: positions.map(() => 'Ar'), positions, ...extra });
const crystal = (cells, a) => repeat(bulk('Ar', 'fcc', { a, cubic: true }), cells);

function cluster(count, radius) {
  const positions = [];
  while (positions.length < count) {
    const p = [0, 0, 0].map(() => radius * (2 * random() - 1));
    if (positions.every((q) => (q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2 + (q[2] - p[2]) ** 2 > 0.8)) positions.push(p);
  }
  return positions;
}

const melt = crystal([8, 8, 8], 1.6796);
const small = crystal([3, 3, 3], 1.68);
const systems = {
  'in.lj lattice, rattled (2048 atoms)': argon(rattle(melt.positions, 0.2), { cell: melt.cell, pbc: true }),
  'triclinic cell': argon(rattle(small.positions, 0.1), { cell: [[5.04, 0, 0], [1.6, 5.04, 0], [-1.1, 1.3, 5.04]], pbc: true }),
  slab: argon(rattle(small.positions, 0.1), { cell: [[5.04, 0, 0], [0, 5.04, 0], [0, 0, 0.5]], pbc: [true, true, false] }),
  'cluster of 300': argon(cluster(300, 6)),
  'cell narrower than the cutoff': argon(rattle([[0, 0, 0], [0.9, 0.8, 0.7]], 0.05), { cell: [[1.7, 0, 0], [0.9, 1.6, 0], [-0.6, 0.5, 1.8]], pbc: true }),
};
// Each model runs on one batch of its systems, so the small ones share the batched path and the large one
// is chunked.
const models = {
  'LennardJones rc 2.5 skin 0.3': { systems, units: 'lj', make: () => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, skin: 0.3 }) },
  'LennardJones rc 2.5 switched from 2': { systems, units: 'lj', make: () => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, switchOn: 2, skin: 0.3 }) },
  'Morse rc 3 skin 0.5': { systems, units: 'lj', make: () => new Morse({ D: 0.3, alpha: 1.6, r0: 1.12, cutoff: 3, skin: 0.5 }) },
};

// EAM, metal units: one element (Cu_u3.eam) and two (AlCu.eam.alloy), on a rattled crystal large enough
// for the chunked path, a small one and a triclinic alloy cell.
const copper = repeat(bulk('Cu', 'fcc', { a: 3.615, cubic: true }), [7, 7, 7]);
const smallCopper = repeat(bulk('Cu', 'fcc', { a: 3.615, cubic: true }), [2, 2, 3]);
const alloy = smallCopper.atomicNumbers.map((z, k) => (k % 3 === 0 ? 13 : z));
const metals = {
  'Cu crystal, rattled (1372 atoms)': { atomicNumbers: copper.atomicNumbers, positions: rattle(copper.positions, 0.15), cell: copper.cell, pbc: true },
  'small Cu crystal': { atomicNumbers: smallCopper.atomicNumbers, positions: rattle(smallCopper.positions, 0.1), cell: smallCopper.cell, pbc: true },
};
if (existsSync(POTENTIALS)) {
  models['EAM Cu_u3.eam skin 1'] = { systems: metals, units: 'metal', make: () => new EAM({ file: `${POTENTIALS}/Cu_u3.eam`, skin: 1 }) };
  models['EAM AlCu.eam.alloy skin 0.5'] = {
    systems: {
      ...metals,
      'triclinic Al-Cu': { atomicNumbers: alloy, positions: rattle(smallCopper.positions, 0.1), cell: [[7.23, 0, 0], [1.2, 7.23, 0], [-0.8, 0.9, 10.845]], pbc: true },
    },
    units: 'metal',
    make: () => new EAM({ file: `${POTENTIALS}/AlCu.eam.alloy`, skin: 0.5 }),
  };
  // SNAP's four-centre lanes (an AVX2 body of Z and Y): a crystal with a remainder past the last group of four,
  // and a system of fewer than four atoms.
  const nickel = repeat(bulk('Ni', 'fcc', { a: 3.52, cubic: true }), [2, 2, 3]);
  models['SNAP Ni_Zuo_JPCA2020 skin 1'] = {
    systems: {
      'Ni crystal, rattled (48 atoms)': { symbols: nickel.positions.map(() => 'Ni'), positions: rattle(nickel.positions, 0.1), cell: nickel.cell, pbc: true },
      'Ni trimer': { symbols: ['Ni', 'Ni', 'Ni'], positions: [[0, 0, 0], [2.4, 0.1, 0], [1.1, 2.2, 0.3]] },
    },
    units: 'metal',
    make: () => SNAP.fromLammps(`${POTENTIALS}/Ni_Zuo_JPCA2020.snap`, { skin: 1 }),
  };
}

const bytes = (array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
const results = {};
for (const threads of [1, 2]) {
  setThreads(threads);
  for (const [modelName, { systems: modelSystems, units, make }] of Object.entries(models)) {
    const batch = Batch.fromSystems(Object.values(modelSystems), { units });
    const model = make();
    model.compute(batch, { stress: true });
    results[`${modelName}, ${threads} threads`] = {
      pairs: model.neighborStats().pairs,
      energy: bytes(batch.energy),
      forces: bytes(batch.forces),
      stress: bytes(batch.stress),
    };
  }
}
process.stdout.write(JSON.stringify({ cpuSimd: backendInfo().cpuSimd, results }));
