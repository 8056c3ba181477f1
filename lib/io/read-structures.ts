// readStructures: one entry point for the structure formats users bring (extxyz, VASP POSCAR/CONTCAR, CIF,
// LAMMPS data and dump, ASE .traj), choosing the reader by the file's name, else by its content.
import { openSync, readSync, closeSync } from 'node:fs';
import { basename } from 'node:path';

import type { System } from '../data/index.js';
import { HookmdError, HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { parseCif } from './cif.js';
import { readExtxyz } from './extxyz/read.js';
import { parseLammpsData, type LammpsSpecies } from './lammps-data.js';
import { readLammpsDump } from './lammps-dump.js';
import { parsePoscar } from './poscar.js';
import { readStructureText } from './structure-text.js';
import { readTraj } from './traj.js';
import { showValue } from '../describe-value.js';

/** The formats `readStructures` reads. */
export type StructureFormat = 'extxyz' | 'poscar' | 'cif' | 'lammps-data' | 'lammps-dump' | 'traj' | 'h5md';

const FORMATS: readonly StructureFormat[] = ['extxyz', 'poscar', 'cif', 'lammps-data', 'lammps-dump', 'traj', 'h5md'];

/**
 * Options of `readStructures`.
 *
 * @example
 * const options: ReadStructuresOptions = { format: 'lammps-data', species: ['Cu', 'Al'] };
 */
export interface ReadStructuresOptions {
  /** The file's format; default: from its name (see docs/formats.md), else from its first lines. */
  format?: StructureFormat;
  /** LAMMPS data and dump: the element of each atom type (type 1 first, or keyed by type). */
  species?: LammpsSpecies;
}

/** The format a file name implies, if any. */
function formatFromName(path: string): StructureFormat | undefined {
  const name = basename(path).toLowerCase();
  if (/\.(ext)?xyz$/.test(name)) return 'extxyz';
  if (name.endsWith('.cif')) return 'cif';
  if (/^(poscar|contcar)/.test(name) || /\.(vasp|poscar|contcar)$/.test(name)) return 'poscar';
  if (/\.(lmp|lammps|data)$/.test(name) || /^data\./.test(name)) return 'lammps-data';
  if (/\.(lammpstrj|dump)$/.test(name) || /^dump\./.test(name)) return 'lammps-dump';
  if (name.endsWith('.traj')) return 'traj';
  if (/\.(h5md|h5|hdf5)$/.test(name)) return 'h5md';
  return undefined;
}

const HDF5_SIGNATURE = '\x89HDF\r\n\x1a\n';

/** UNKNOWN_FORMAT for a file whose format cannot be told; the message holds printable text only. */
function unknownFormat(path: string, reason: string): HookmdError {
  return new HookmdError('UNKNOWN_FORMAT', `readStructures: cannot tell the format of ${showValue(path)}: ${reason}; name it with { format } (${FORMATS.join(', ')}) or give the file its usual extension`, { path });
}

/**
 * The format the first bytes imply: ASE's ULM magic, HDF5's signature, a LAMMPS dump's ITEM: TIMESTEP, CIF's
 * data_/_tags, LAMMPS's "N atoms" header, extxyz's count line, else POSCAR; binary content of none of these
 * is UNKNOWN_FORMAT.
 */
function formatFromContent(path: string, head: string): StructureFormat {
  if (head.startsWith('- of Ulm') || head.startsWith('AFFormat')) return 'traj';
  if (head.startsWith(HDF5_SIGNATURE)) return 'h5md';
  if (/^\s*ITEM: TIMESTEP/.test(head)) return 'lammps-dump';
  // eslint-disable-next-line no-control-regex
  const control = (head.match(/[\x00-\x08\x0e-\x1f\x7f]/g) ?? []).length;
  if (control > 0) throw unknownFormat(path, `it holds binary data (${control} control bytes in the first ${head.length}) of no format hookmd reads`);
  const lines = head.split(/\r?\n/);
  if (lines.some((l) => /^\s*(data_|_cell_length_a|loop_)/i.test(l))) return 'cif';
  if (lines.slice(1, 20).some((l) => /^\s*\d+\s+atoms\s*$/.test(l.replace(/#.*/, '')))) return 'lammps-data';
  if (/^\s*\d+\s*$/.test(lines[0] ?? '')) return 'extxyz';
  return 'poscar';
}

/**
 * The format `readStructures` would read `path` as: from its name, else from its first lines.
 *
 * @example
 * structureFormat('POSCAR'); // 'poscar'
 */
export function structureFormat(path: string): StructureFormat {
  return formatFromName(path) ?? formatFromContent(path, head(path));
}

function head(path: string): string {
  const buffer = Buffer.alloc(4096);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('latin1');
  } catch {
    // The reader reports the file as unreadable, with the path.
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Reads the structures of a file into Systems (metal units: Å, amu, Å/fs): extxyz (every frame), VASP
 * POSCAR/CONTCAR, CIF (expanded by its symmetry operations), LAMMPS data (atom style atomic), LAMMPS dump
 * (every frame) or ASE .traj (every frame), chosen by `format`, else by the name (`*.xyz`, `*.extxyz`;
 * `POSCAR*`, `CONTCAR*`, `*.vasp`; `*.cif`; `*.lmp`, `*.data`, `data.*`; `*.lammpstrj`, `*.dump`,
 * `dump.*`; `*.traj`), else by the content. H5MD files (`*.h5md`, `*.h5`) are read by `await readH5md`:
 * here they are UNSUPPORTED_FORMAT naming it. A binary file of no known format is UNKNOWN_FORMAT.
 * Malformed files throw a typed error naming the file and line or byte offset (POSCAR_PARSE, CIF_PARSE,
 * LAMMPS_DATA_PARSE, LAMMPS_DUMP_PARSE, TRAJ_PARSE, EXTXYZ_PARSE, ...).
 *
 * @example
 * const [slab] = readStructures('POSCAR');
 * const alloy = readStructures('alloy.data', { species: ['Al', 'Cu'] });
 */
export function readStructures(path: string, options: ReadStructuresOptions = {}): System[] {
  if (typeof path !== 'string' || path === '') {
    throw new HookmdTypeError('INVALID_PATH', 'readStructures: expected a path', { field: 'path', value: path });
  }
  if (options === null || typeof options !== 'object') {
    throw new HookmdTypeError('INVALID_OPTIONS', 'readStructures: options must be an object', { field: 'options', value: options });
  }
  checkKeys('readStructures', options, ['format', 'species']);
  const { format } = options;
  if (format !== undefined && !FORMATS.includes(format)) {
    throw new HookmdTypeError('INVALID_OPTIONS', `readStructures: format must be one of ${FORMATS.join(', ')}, got ${showValue(format)}`, { field: 'format', value: format });
  }
  const resolved = format ?? structureFormat(path);
  if (resolved === 'extxyz') return readExtxyz(path);
  if (resolved === 'traj') return readTraj(path);
  if (resolved === 'lammps-dump') return readLammpsDump(path, options.species === undefined ? {} : { species: options.species });
  if (resolved === 'h5md') {
    throw new HookmdError('UNSUPPORTED_FORMAT', `readStructures: ${path} is H5MD (HDF5), which is read asynchronously: use \`await readH5md(path)\``, { path, format: 'h5md' });
  }
  const text = readStructureText('readStructures', path);
  if (resolved === 'cif') return [parseCif(text, path)];
  if (resolved === 'lammps-data') return [parseLammpsData(text, path, options.species)];
  return [parsePoscar(text, path)];
}
