// `hookmd phonons --out FILE`: the bands along --path (and the DOS with --dos) as the JSON file `hookmd view`
// plots (its schema: PhononBandsFile, docs/workflows.md).
import { writeFileSync } from 'node:fs';

import type { System } from '../data/index.js';
import { HookmdError } from '../errors.js';
import { PHONON_FORMAT, type PhononBandsFile } from '../view/phonon-bands.js';
import { flatCell } from '../view/view-model.js';
import type { PhononResult, PhononUnit } from '../workflows/index.js';
import { bandPath, type BandPath, type SpecialPoint } from './band-path.js';
import { configError } from './config-file.js';
import { checkOutputPath } from './paths.js';

/** The flags of `hookmd phonons` that say what --out writes. */
export interface PhononOutputFlags {
  out?: string;
  path?: SpecialPoint[][];
  npoints: number;
  dos?: number;
  unit: PhononUnit;
}

/** What --out writes: the file, the band path's q points placed on the system's cell, the DOS grid. */
export interface PhononOutput {
  out: string;
  path: BandPath;
  dos: number | undefined;
  unit: PhononUnit;
}

/**
 * The output of the flags for `system`, checked before any force call (INVALID_CONFIG: --path or --dos
 * without --out, --out without --path, a cell without three lattice vectors), or undefined without --out.
 */
export function phononOutput(flags: PhononOutputFlags, system: System): PhononOutput | undefined {
  const { out } = flags;
  if (out === undefined) {
    if (flags.path !== undefined || flags.dos !== undefined) throw configError(['phonons: --path and --dos say what --out writes; give --out FILE']);
    return undefined;
  }
  checkOutputPath(out, '--out');
  if (flags.path === undefined) throw configError(['phonons: --out writes the bands along a path: give --path, such as --path "G=0,0,0;X=0.5,0,0.5;L=0.5,0.5,0.5"']);
  const cell = flatCell(system.cell);
  const path = cell === null ? undefined : bandPath(cell, flags.path, flags.npoints);
  if (path === undefined) throw configError(['phonons: --path needs a cell of three lattice vectors, to place the q points on the path']);
  return { out, path, dos: flags.dos, unit: flags.unit };
}

/** The band file of `result` along `output.path`, with the DOS when asked for. */
export function phononBands(result: PhononResult, output: PhononOutput): PhononBandsFile {
  const { path, unit } = output;
  const file: PhononBandsFile = {
    format: PHONON_FORMAT, version: 1, unit, supercell: [...result.supercell],
    q: path.q, distance: path.distance, labels: path.labels,
    frequencies: result.bandStructure(path.q, unit).map((f) => Array.from(f)),
  };
  if (output.dos !== undefined) {
    const kpts: [number, number, number] = [output.dos, output.dos, output.dos];
    const { frequencies, dos } = result.dos({ kpts, unit });
    file.dos = { kpts, frequencies: Array.from(frequencies), dos: Array.from(dos) };
  }
  return file;
}

/** Writes `file` to `out`; PHONON_WRITE_FAILED when it cannot. */
export function writePhononBands(out: string, file: PhononBandsFile): void {
  try {
    writeFileSync(out, `${JSON.stringify(file)}\n`);
  } catch (error) {
    throw new HookmdError('PHONON_WRITE_FAILED', `phonons: cannot write ${out}: ${(error as Error).message}`, { path: out }, { cause: error });
  }
}
