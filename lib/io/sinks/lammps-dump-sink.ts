// LammpsDumpSink: streams systems into a LAMMPS `dump custom` text file, appending whole frames a buffer at a time.
import type { System } from '../../data/index.js';
import { checkKeys } from '../../option-keys.js';
import { dumpSpecies, DumpTypes, formatDumpFrame } from '../lammps-dump.js';
import type { SinkOptions } from './sink.js';
import { TextFileSink } from './text-file-sink.js';

/** Options of `new LammpsDumpSink`. */
export interface LammpsDumpSinkOptions extends SinkOptions {
  /** Element of each atom type, type 1 first (default: elements numbered in order of first appearance). */
  species?: readonly string[];
  /** Keep the file's frames and append after them (default: start a new file). */
  append?: boolean;
}

/**
 * Writes systems as frames of a LAMMPS `dump custom` text file (metal units) that LAMMPS tools, OVITO and
 * `ase.io.read(path, ':', format='lammps-dump-text')` read: TIMESTEP from `info.step`, the box in LAMMPS's
 * restricted triclinic form (positions, velocities and forces rotated into it; `xy xz yz` bounds lines when
 * tilted), columns id type element x y z, mass when not the element table's, vx vy vz (Å/ps) when set and
 * fx fy fz when valid. Frames are formatted, and so validated, when written, and appended `capacity` at a
 * time (default 64) in one write; a failed write cuts the file back to whole frames (SINK_WRITE_FAILED).
 *
 * @example
 * const sink = new LammpsDumpSink('md.lammpstrj', { species: ['Cu'] });
 * await sink.write(batch);
 * await sink.close();
 */
export class LammpsDumpSink extends TextFileSink {
  readonly #types: DumpTypes;

  constructor(path: string, options: LammpsDumpSinkOptions = {}) {
    super('LammpsDumpSink', path, checkKeys('LammpsDumpSink', options, ['capacity', 'species', 'append']), 64, options.append);
    this.#types = new DumpTypes(dumpSpecies(options.species, 'LammpsDumpSink'));
  }

  protected prepare(system: System, index: number): string {
    return formatDumpFrame(system, index, this.#types, 'LammpsDumpSink');
  }
}
