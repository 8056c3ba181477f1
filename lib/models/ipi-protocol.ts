// The i-PI socket protocol as ASE 3.22's SocketClient, CP2K, Quantum ESPRESSO, FHI-aims, DFTB+ and LAMMPS
// speak it: 12-byte space-padded ASCII headers, then little-endian int32 and float64 arrays, in atomic units.
// The server asks STATUS; a client answers NEEDINIT, READY or HAVEDATA. Positions go out as POSDATA (cell with
// the lattice vectors as columns, its inverse, the atom count, positions); GETFORCE brings back FORCEREADY
// (energy, atom count, forces, virial, an extra string). EXIT ends a client.

/** ASE's Bohr radius in Å (CODATA 2014, as ase.units defines it), so that round trips through ASE are exact. */
export const BOHR = 0.5291772105638411;
/** ASE's Hartree in eV (CODATA 2014). */
export const HARTREE = 27.211386024367243;

/** The header length of every message. */
export const HEADER_BYTES = 12;

/** A message header: the word, space-padded to 12 bytes. */
export function header(word: string): Buffer {
  return Buffer.from(word.padEnd(HEADER_BYTES, ' '), 'ascii');
}

/** A received header as its word (trailing spaces removed), or undefined when it is not printable ASCII. */
export function headerWord(bytes: Buffer): string | undefined {
  for (const byte of bytes) if (byte < 0x20 || byte > 0x7e) return undefined;
  return bytes.toString('ascii').trimEnd();
}

/** INIT for bead `bead`: its index and a one-byte initialization string (ASE's clients ignore it). */
export function initMessage(bead: number): Buffer {
  const body = Buffer.alloc(9);
  body.writeInt32LE(bead, 0);
  body.writeInt32LE(1, 4);
  return Buffer.concat([header('INIT'), body]);
}

/** 3×3 inverse of a row-major matrix, or undefined when it is singular. */
function inverse3(m: ArrayLike<number>): number[] | undefined {
  const det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
  const scale = Math.max(...Array.from({ length: 9 }, (_, k) => Math.abs(m[k])));
  if (!(Math.abs(det) > 1e-12 * scale ** 3)) return undefined;
  const c = [
    m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
    m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
    m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
  ];
  return c.map((v) => v / det);
}

/**
 * POSDATA for one system: `cell` row-major with lattice vectors as rows (Å), `positions` N×3 (Å). The cell
 * goes out transposed (vectors as columns) and its inverse as is, both in Bohr units, as ASE's
 * SocketIOCalculator sends them; a cell without volume (a cluster) sends a zero inverse.
 */
export function posdataMessage(cell: ArrayLike<number>, positions: ArrayLike<number>): Buffer {
  const atoms = positions.length / 3;
  const body = Buffer.alloc(8 * 18 + 4 + 8 * positions.length);
  const inv = inverse3(cell);
  for (let a = 0; a < 3; a++) {
    for (let b = 0; b < 3; b++) {
      body.writeDoubleLE(cell[3 * b + a] / BOHR, 8 * (3 * a + b));
      body.writeDoubleLE(inv === undefined ? 0 : inv[3 * a + b] * BOHR, 8 * (9 + 3 * a + b));
    }
  }
  body.writeInt32LE(atoms, 8 * 18);
  for (let k = 0; k < positions.length; k++) body.writeDoubleLE(positions[k] / BOHR, 8 * 18 + 4 + 8 * k);
  return Buffer.concat([header('POSDATA'), body]);
}

/** What FORCEREADY brings back, converted to eV, eV/Å and eV (virial W, row-major, σ = −W/V). */
export interface ForceData {
  energy: number;
  forces: Float64Array;
  virial: Float64Array;
  extra: Buffer;
}

/** The energy (Hartree) of a FORCEREADY body, in eV. */
export function energyOf(bytes: Buffer): number {
  return bytes.readDoubleLE(0) * HARTREE;
}

/** Forces (Hartree/Bohr, 3N float64) in eV/Å. */
export function forcesOf(bytes: Buffer): Float64Array {
  const out = new Float64Array(bytes.length / 8);
  for (let k = 0; k < out.length; k++) out[k] = bytes.readDoubleLE(8 * k) * (HARTREE / BOHR);
  return out;
}

/** The virial (9 float64 in Hartree, sent transposed) as W row-major in eV. */
export function virialOf(bytes: Buffer): Float64Array {
  const out = new Float64Array(9);
  for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) out[3 * a + b] = bytes.readDoubleLE(8 * (3 * b + a)) * HARTREE;
  return out;
}
