// NEB against LAMMPS's `neb` (Debian's lmp, REPLICA package, seven partitions under mpirun): a vacancy hop in
// fcc copper with Cu_u3.eam. LAMMPS relaxes the two end points first (its minimize, to 1e-10 eV/Å) and both
// codes then relax a seven-image climbing band between them; LAMMPS moves end replicas by their own forces,
// so ends at a minimum keep the comparison to the band. The barriers, and the saddle energy, must agree to
// 1e-4 eV. Skips when lmp or mpirun is absent.
import { describe, expect, it } from 'vitest';

import { bulk, repeat, type System } from '../../lib/data/index.js';
import { EAM } from '../../lib/models/index.js';
import { NEB } from '../../lib/workflows/index.js';
import { LAMMPS_POTENTIALS, mpiSkipReason, runLammps, runLammpsPartitions } from '../helpers/lammps.js';

const POTENTIAL = `${LAMMPS_POTENTIALS}/Cu_u3.eam`;
const crystal = repeat(bulk('Cu', 'fcc', { a: 3.615, cubic: true }), 2);
const side = (crystal.cell as number[][])[0]![0]!;
// The cubic 2×2×2 cell without its atom at the origin; the hop brings atom 1 (LAMMPS's id 1) into it.
const start = (crystal.positions as number[][]).slice(1);

const HEADER = ['units metal', 'atom_style atomic', 'atom_modify map array sort 0 0.0', 'boundary p p p', 'read_data start.data', 'pair_style eam', `pair_coeff * * ${POTENTIAL}`];

const data = (positions: number[][]): string =>
  [`vacancy hop in Cu`, '', `${positions.length} atoms`, '1 atom types', ...['x', 'y', 'z'].map((c) => `0 ${side} ${c}lo ${c}hi`), '', 'Masses', '', '1 63.55', '', 'Atoms # atomic', '', ...positions.map((r, i) => `${i + 1} 1 ${r.map((x) => x.toPrecision(17)).join(' ')}`), ''].join('\n');

/** An end point relaxed by LAMMPS's minimize, from a dump sorted by id. */
function relaxedEnd(moveFirstToOrigin: boolean): number[][] {
  const script = [...HEADER, ...(moveFirstToOrigin ? ['set atom 1 x 0 y 0 z 0'] : []), 'minimize 0 1e-10 10000 100000', 'write_dump all custom end.dump id x y z modify sort id format float %.17g'].join('\n');
  const dump = runLammps(script, { 'start.data': data(start) }, ['end.dump']).outputs['end.dump'] as string;
  const lines = dump.trim().split('\n');
  return lines.slice(lines.findIndex((line) => line.startsWith('ITEM: ATOMS')) + 1).map((line) => line.trim().split(/\s+/).slice(1).map(Number));
}

const system = (positions: number[][]): System => ({ symbols: positions.map(() => 'Cu'), positions, cell: crystal.cell, pbc: true });

describe.skipIf(mpiSkipReason !== '')(`NEB vs LAMMPS's neb ${mpiSkipReason}`, () => {
  it('a vacancy hop in Cu_u3.eam copper: the same barrier and saddle energy to 1e-4 eV', async () => {
    const initial = relaxedEnd(false);
    const final = relaxedEnd(true);
    const script = [...HEADER, 'timestep 0.01', 'min_style fire', 'fix 1 all neb 0.1', 'thermo 100', 'neb 0.0 1e-5 20000 20000 100 final final.coords'].join('\n');
    const coords = [String(final.length), ...final.map((r, i) => `${i + 1} ${r.map((x) => x.toPrecision(17)).join(' ')}`)].join('\n');
    const output = runLammpsPartitions(script, 7, { 'start.data': data(initial), 'final.coords': `${coords}\n` });
    // The last row of the climbing stage: Step MaxReplicaForce MaxAtomForce GradV0 GradV1 GradVc EBF EBR RDT, then RD and PE per replica.
    const rows = output.split('\n').filter((line) => /^\d+\s+\S/.test(line.trim()) && line.trim().split(/\s+/).length === 9 + 2 * 7);
    const last = (rows[rows.length - 1] as string).trim().split(/\s+/).map(Number);
    const [forward, reverse] = [last[6] as number, last[7] as number];
    const energies = Array.from({ length: 7 }, (_, r) => last[10 + 2 * r] as number);
    const copper = new EAM({ file: POTENTIAL });
    const ours = await new NEB({ model: copper, images: [system(initial), system(final)], interpolate: 'linear', numImages: 7, climb: true, method: 'improvedtangent' }).run({ fmax: 1e-5, steps: 20000 });
    expect(ours.converged).toBe(true);
    // LAMMPS's end replicas did not move: they were at their minimum (its neb prints PE to 1e-5 eV here).
    expect(Math.abs((energies[0] as number) - (ours.path[0] as number))).toBeLessThan(2e-5);
    expect(Math.abs(ours.barrier - forward)).toBeLessThan(1e-4);
    expect(Math.abs((ours.paths[0]?.reverseBarrier as number) - reverse)).toBeLessThan(1e-4);
    expect(Math.abs(Math.max(...ours.path) - Math.max(...energies))).toBeLessThan(1e-4);
  });
});
