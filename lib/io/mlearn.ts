// Reads the DFT data sets of the mlearn repository (materialsvirtuallab/mlearn, `data/<El>/{training,test}.json`,
// Zuo et al., J. Phys. Chem. A 124, 731 (2020)): a JSON array of pymatgen `Structure.as_dict()` entries with
// `outputs.energy` (eV), `outputs.forces` (eV/Å) and `outputs.virial_stress`, into systems with energy, forces
// and stress, as extxyz gives them.
//
// virial_stress is VASP's: kilobar, with the pressure's sign (positive = compressive), six numbers xx yy zz
// then three shear components. hookmd's stress is ASE's, σ = −P in eV/Å³, so σ = −0.1 GPa/kB × P / 160.2177
// GPa per eV/Å³. The shear order is not the same in every entry (a fit of LAMMPS's pressure to the shipped
// SNAPs on these sets gives xy xz yz for most, xy yz xz, VASP's own, for some: test/fixtures/mlearn/README.md):
// it is read as xy xz yz, and a fit of the shear components to these files should not trust them.
import { HookmdError } from '../errors.js';
import type { System } from '../data/index.js';
import { readStructureText } from './structure-text.js';

/** GPa per eV/Å³. */
const GPA_PER_EV_A3 = 160.21766208;

interface PymatgenSite {
  species?: { element?: unknown }[];
  xyz?: unknown;
}

function fail(path: string, index: number, message: string): never {
  throw new HookmdError('MLEARN_PARSE', `readMlearn: ${path}: entry ${index}: ${message}`, { path, index });
}

function vector(path: string, index: number, value: unknown, what: string): number[] {
  if (!Array.isArray(value) || value.length !== 3 || value.some((v) => typeof v !== 'number' || !Number.isFinite(v))) {
    fail(path, index, `${what} must be three finite numbers`);
  }
  return value as number[];
}

/**
 * The structures of an mlearn JSON file, periodic, each with `energy` (eV), `forces` (eV/Å), `stress`
 * (3×3, eV/Å³, ASE's sign) and `info` { group, tag, description } when the entry has them. Throws READ_FAILED
 * or MLEARN_PARSE naming the entry.
 *
 * @example
 * const test = readMlearn('test/fixtures/mlearn/Ni/test.json');
 * test.length; // 31
 */
export function readMlearn(path: string): System[] {
  const text = readStructureText('readMlearn', path);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new HookmdError('MLEARN_PARSE', `readMlearn: ${path}: not JSON: ${(error as Error).message}`, { path });
  }
  if (!Array.isArray(data)) throw new HookmdError('MLEARN_PARSE', `readMlearn: ${path}: expected a JSON array of entries`, { path });
  return data.map((entry: unknown, index): System => {
    if (entry === null || typeof entry !== 'object') fail(path, index, 'not an object');
    const { structure, outputs, group, tag, description } = entry as Record<string, unknown>;
    const lattice = (structure as { lattice?: { matrix?: unknown } } | undefined)?.lattice?.matrix;
    if (!Array.isArray(lattice) || lattice.length !== 3) fail(path, index, 'structure.lattice.matrix must be 3 rows');
    const cell = lattice.map((row, k) => vector(path, index, row, `lattice row ${k}`));
    const sites = (structure as { sites?: unknown }).sites;
    if (!Array.isArray(sites) || sites.length === 0) fail(path, index, 'structure.sites must be a non-empty list');
    const symbols = (sites as PymatgenSite[]).map((site, k) => {
      const element = site?.species?.[0]?.element;
      if (typeof element !== 'string' || site.species?.length !== 1) fail(path, index, `site ${k} must hold one element`);
      return element;
    });
    const positions = (sites as PymatgenSite[]).map((site, k) => vector(path, index, site.xyz, `site ${k} xyz`));
    const out = (outputs ?? {}) as { energy?: unknown; forces?: unknown; virial_stress?: unknown };
    const system: System = { symbols, positions, cell, pbc: true, info: {} };
    if (out.energy !== undefined) {
      if (typeof out.energy !== 'number' || !Number.isFinite(out.energy)) fail(path, index, 'outputs.energy must be a finite number');
      system.energy = out.energy;
    }
    if (out.forces !== undefined) {
      if (!Array.isArray(out.forces) || out.forces.length !== positions.length) fail(path, index, `outputs.forces must have ${positions.length} rows`);
      system.forces = out.forces.map((f, k) => vector(path, index, f, `force ${k}`));
    }
    if (out.virial_stress !== undefined) {
      const v = out.virial_stress;
      if (!Array.isArray(v) || v.length !== 6 || v.some((x) => typeof x !== 'number' || !Number.isFinite(x))) fail(path, index, 'outputs.virial_stress must be six finite numbers');
      const s = (v as number[]).map((p) => (-0.1 * p) / GPA_PER_EV_A3);
      const [xx, yy, zz, xy, xz, yz] = s as [number, number, number, number, number, number];
      system.stress = [
        [xx, xy, xz],
        [xy, yy, yz],
        [xz, yz, zz],
      ];
    }
    for (const [key, value] of Object.entries({ group, tag, description })) if (typeof value === 'string') (system.info as Record<string, unknown>)[key] = value;
    return system;
  });
}
