// readStructures: one entry point for the structure formats users bring (extxyz, VASP POSCAR/CONTCAR, CIF,
// LAMMPS data), choosing the reader by the file's name, else by its content.
import { openSync, readSync, closeSync } from 'node:fs';
import { basename } from 'node:path';

import type { System } from '../data/index.js';
import { HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { parseCif } from './cif.js';
import { readExtxyz } from './extxyz-read.js';
import { parseLammpsData, type LammpsSpecies } from './lammps-data.js';
import { parsePoscar } from './poscar.js';
import { readStructureText } from './structure-text.js';

/** The formats `readStructures` reads. */
export type StructureFormat = 'extxyz' | 'poscar' | 'cif' | 'lammps-data';

const FORMATS: readonly StructureFormat[] = ['extxyz', 'poscar', 'cif', 'lammps-data'];

/**
 * Options of `readStructures`.
 *
 * @example
 * const options: ReadStructuresOptions = { format: 'lammps-data', species: ['Cu', 'Al'] };
 */
export interface ReadStructuresOptions {
  /** The file's format; default: from its name (see docs/formats.md), else from its first lines. */
  format?: StructureFormat;
  /** LAMMPS data: the element of each atom type (type 1 first, or keyed by type). */
  species?: LammpsSpecies;
}

/** The format a file name implies, if any. */
function formatFromName(path: string): StructureFormat | undefined {
  const name = basename(path).toLowerCase();
  if (/\.(ext)?xyz$/.test(name)) return 'extxyz';
  if (name.endsWith('.cif')) return 'cif';
  if (/^(poscar|contcar)/.test(name) || /\.(vasp|poscar|contcar)$/.test(name)) return 'poscar';
  if (/\.(lmp|lammps|data)$/.test(name) || /^data\./.test(name)) return 'lammps-data';
  return undefined;
}

/** The format the first lines imply: CIF's data_/_tags, LAMMPS's "N atoms" header, extxyz's count line, else POSCAR. */
function formatFromContent(head: string): StructureFormat {
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
  return formatFromName(path) ?? formatFromContent(head(path));
}

function head(path: string): string {
  const buffer = Buffer.alloc(4096);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
  } catch {
    // The reader reports the file as unreadable, with the path.
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Reads the structures of a file into Systems (metal units: Å, amu, Å/fs): extxyz (every frame), VASP
 * POSCAR/CONTCAR, CIF (expanded by its symmetry operations) or LAMMPS data (atom style atomic), chosen
 * by `format`, else by the name (`*.xyz`, `*.extxyz`; `POSCAR*`, `CONTCAR*`, `*.vasp`; `*.cif`; `*.lmp`,
 * `*.data`, `data.*`), else by the content. Malformed files throw a typed error naming the file and line
 * (POSCAR_PARSE, CIF_PARSE, LAMMPS_DATA_PARSE, EXTXYZ_PARSE, ...).
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
    throw new HookmdTypeError('INVALID_OPTIONS', `readStructures: format must be one of ${FORMATS.join(', ')}, got ${JSON.stringify(format)}`, { field: 'format', value: format });
  }
  const resolved = format ?? structureFormat(path);
  if (resolved === 'extxyz') return readExtxyz(path);
  const text = readStructureText('readStructures', path);
  if (resolved === 'cif') return [parseCif(text, path)];
  if (resolved === 'lammps-data') return [parseLammpsData(text, path, options.species)];
  return [parsePoscar(text, path)];
}
