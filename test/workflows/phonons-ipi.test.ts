// Cu EAM phonons against ASE 3.22's ase.phonons.Phonons, the forces of both from ASE's own EAM calculator
// reading Cu_u3.eam: hookmd's i-PI bridge is a server (IpiModel), so ASE's SocketClient, holding that
// calculator on a supercell of as many atoms, gives hookmd's phonons() its forces, and ASE's Phonons calls the
// same calculator directly. What is compared is then the phonon workflow itself (displacements, force
// constants, acoustic sum rule, dynamical matrix), frequencies to 1e-4 THz at points of a band path and
// general q. hookmd's native EAM (LAMMPS's interpolation of the tabulated functions, not ASE's splines) is
// held to ASE's frequencies to 0.01 THz (5.7e-3 THz measured), the two interpolations' own difference.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { System } from '../../lib/data/index.js';
import { EAM, IpiModel } from '../../lib/models/index.js';
import { phonons } from '../../lib/workflows/index.js';
import { asePython, aseSkipReason } from '../helpers/ase.js';
import { asePhonons, EV_PER_THZ, type AsePhonons } from '../helpers/ase-phonons.js';

const FILE = '/usr/share/lammps/potentials/Cu_u3.eam';
const A = 3.615;
const SUPERCELL = 5;

const CLIENT = `
import sys
from ase.build import bulk
from ase.calculators.eam import EAM
from ase.calculators.socketio import SocketClient
atoms = bulk('Cu', 'fcc', a=${A}).repeat((${SUPERCELL}, ${SUPERCELL}, ${SUPERCELL}))
atoms.calc = EAM(potential='${FILE}', elements=['Cu'])
SocketClient(unixsocket=sys.argv[1]).run(atoms)
`;

/** The primitive fcc cell and ASE's EAM calculator, for ASE's Phonons. */
const SETUP = `
from ase.build import bulk
from ase.calculators.eam import EAM
atoms = bulk('Cu', 'fcc', a=${A})
calc = EAM(potential='${FILE}', elements=['Cu'])
`;

/** Γ, X, W, L and points between them (fractions of the reciprocal lattice vectors), and a general q. */
const Q: [number, number, number][] = [
  [0, 0, 0],
  [0.25, 0, 0.25],
  [0.5, 0, 0.5],
  [0.5, 0.25, 0.75],
  [0.5, 0.5, 0.5],
  [0.1, 0.2, 0.3],
];

describe.skipIf(aseSkipReason !== '')(`Cu EAM phonons through the i-PI bridge vs ASE's Phonons ${aseSkipReason}`, () => {
  let reference: AsePhonons;
  let server: IpiModel;
  let client: ChildProcess;
  let copper: System;
  beforeAll(async () => {
    if (!existsSync(FILE)) throw new Error(`${FILE} is missing (apt-get install lammps-data)`);
    reference = asePhonons(SETUP, `(${SUPERCELL}, ${SUPERCELL}, ${SUPERCELL})`, { q: Q });
    copper = { symbols: ['Cu'], positions: reference.positions, cell: reference.cell, pbc: true };
    const name = `hookmd-phonons-${process.pid}`;
    server = await IpiModel.listen({ address: `unix:${name}`, timeout: 120 });
    client = spawn(asePython as string, ['-c', CLIENT, name], { stdio: ['ignore', 'ignore', 'inherit'] });
  }, 240_000);
  afterAll(async () => {
    await server?.close();
    if (client?.exitCode === null) client.kill('SIGKILL');
  });

  it('ASE’s EAM forces over i-PI give ASE’s frequencies to 1e-4 THz; hookmd’s own EAM is within 0.01 THz', async () => {
    // The server knows no cutoff (a client may compute anything), so phonons takes the supercell as given.
    const overIpi = await phonons(server, copper, { supercell: SUPERCELL });
    const native = await phonons(new EAM({ file: FILE }), copper, { supercell: SUPERCELL });
    let worstBridge = 0;
    let worstNative = 0;
    Q.forEach((q, k) => {
      const theirs = (reference.eV[k] as number[]).map((e) => e / EV_PER_THZ);
      const ours = overIpi.frequencies(q, 'THz');
      const own = native.frequencies(q, 'THz');
      theirs.forEach((f, l) => {
        worstBridge = Math.max(worstBridge, Math.abs((ours[l] as number) - f));
        worstNative = Math.max(worstNative, Math.abs((own[l] as number) - f));
      });
    });
    expect(worstBridge).toBeLessThan(1e-4);
    expect(worstNative).toBeLessThan(0.01);
    // X is a band-path point with a real spread of frequencies: the comparison is of something.
    expect(Math.max(...overIpi.frequencies([0.5, 0, 0.5], 'THz'))).toBeGreaterThan(5);
  }, 240_000);
});
