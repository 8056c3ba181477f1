// Reads SNAP's LAMMPS files as the Debian LAMMPS (29 Sep 2021) reads them: the `.snapparam` keywords, the
// `.snapcoeff` blocks of each element (a line `element radius weight`, then its coefficients), and the `.snap`
// include file that combines them (`pair_style snap` or `pair_style hybrid/overlay zbl inner outer snap`,
// with its `pair_coeff` lines). Every number is checked here, with the file and line in the message
// (SNAP_PARSE); native code (native/cpp/models/SnapPotential) checks only counts, ranges and finiteness again.
import { isAbsolute, join } from 'node:path';

import { HookmdError, HookmdTypeError } from '../errors.js';
import { readStructureText } from '../io/structure-text.js';
import { checkKeys } from '../option-keys.js';
import { includeError, readLammpsInclude, wordLines, type LammpsCommand, type WordLine } from './lammps-include.js';

/** The `.snapparam` settings, every optional keyword at LAMMPS's default when the file leaves it out. */
export interface SnapParameters {
  rcutfac: number;
  twojmax: number;
  rfac0: number;
  rmin0: number;
  switchflag: boolean;
  bzeroflag: boolean;
  quadraticflag: boolean;
  chemflag: boolean;
  bnormflag: boolean;
  wselfallflag: boolean;
}

/** One element's block of a `.snapcoeff` file. */
export interface SnapElementCoefficients {
  readonly name: string;
  readonly radius: number;
  readonly weight: number;
  readonly coefficients: readonly number[];
  readonly line: number;
}

const DEFAULTS: Omit<SnapParameters, 'rcutfac' | 'twojmax'> = {
  rfac0: 0.99363,
  rmin0: 0,
  switchflag: true,
  bzeroflag: true,
  quadraticflag: false,
  chemflag: false,
  bnormflag: false,
  wselfallflag: false,
};

const FLAGS = ['switchflag', 'bzeroflag', 'quadraticflag', 'chemflag', 'bnormflag', 'wselfallflag'] as const;
// Keywords of the Kokkos and OpenMP builds that set how the work is split, not what is computed.
const SCHEDULING = ['chunksize', 'parallelthresh'];
// Keywords of LAMMPS versions after the one Debian ships, which change the descriptor.
const LATER = ['switchinnerflag', 'sinner', 'dinner'];

export function snapError(model: string, file: string, line: number, message: string): HookmdError {
  return new HookmdError('SNAP_PARSE', `${model}: ${file}:${line}: ${message}`, { file, line });
}

function numberAt(model: string, file: string, line: number, text: string, what: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw snapError(model, file, line, `${what}: expected a finite number, got '${text}'`);
  return value;
}

/** Reads a `.snapparam` file. Throws READ_FAILED or SNAP_PARSE (unknown or later keywords named, required ones missing). */
export function readSnapParameters(model: string, file: string): SnapParameters {
  const text = readStructureText(model, file);
  const found: Partial<SnapParameters> = {};
  for (const { words, line } of wordLines(text)) {
    const [keyword, value, ...rest] = words as [string, string | undefined, ...string[]];
    if (value === undefined || rest.length > 0) throw snapError(model, file, line, `expected 'keyword value', got '${words.join(' ')}'`);
    if (LATER.includes(keyword)) {
      throw snapError(model, file, line, `${keyword} is a keyword of LAMMPS versions after 29 Sep 2021, which hookmd does not implement`);
    }
    if (SCHEDULING.includes(keyword)) {
      numberAt(model, file, line, value, keyword);
      continue;
    }
    const number = numberAt(model, file, line, value, keyword);
    if (keyword === 'rcutfac' || keyword === 'rfac0' || keyword === 'rmin0') {
      found[keyword] = number;
    } else if (keyword === 'twojmax') {
      if (!Number.isInteger(number) || number < 0) throw snapError(model, file, line, `twojmax must be a whole number >= 0, got ${value}`);
      found.twojmax = number;
    } else if ((FLAGS as readonly string[]).includes(keyword)) {
      if (number !== 0 && number !== 1) throw snapError(model, file, line, `${keyword} must be 0 or 1, got ${value}`);
      found[keyword as (typeof FLAGS)[number]] = number === 1;
    } else {
      throw snapError(model, file, line, `unknown keyword '${keyword}'; a .snapparam file sets rcutfac, twojmax, rfac0, rmin0, ${FLAGS.join(', ')}`);
    }
  }
  return completeParameters(found, (message) => snapError(model, file, 1, message), 'the file does not set');
}

/** `found` with LAMMPS's defaults filled in, once the required keywords and the ranges are checked. */
function completeParameters(found: Partial<SnapParameters>, error: (message: string) => Error, missing: string): SnapParameters {
  for (const required of ['rcutfac', 'twojmax'] as const) {
    if (found[required] === undefined) throw error(`${missing} ${required}, which SNAP requires`);
  }
  const parameters = { ...DEFAULTS, ...found } as SnapParameters;
  if (!(parameters.rcutfac > 0)) throw error(`rcutfac must be > 0, got ${parameters.rcutfac}`);
  if (!(parameters.rfac0 > 0 && parameters.rfac0 <= 1)) throw error(`rfac0 must be in (0, 1], got ${parameters.rfac0}`);
  if (!(parameters.rmin0 >= 0)) throw error(`rmin0 must be >= 0, got ${parameters.rmin0}`);
  return parameters;
}

/** The keywords of a `.snapparam` file as plain data (a YAML config's): rcutfac and twojmax, the flags as booleans or 0/1. */
export type SnapParameterKeywords = { readonly rcutfac: number; readonly twojmax: number; readonly rfac0?: number; readonly rmin0?: number } & {
  readonly [flag in (typeof FLAGS)[number]]?: boolean | 0 | 1;
};

/** Checks `.snapparam` keywords given as an object. Throws INVALID_OPTIONS naming the keyword. */
export function snapParametersOf(model: string, keywords: SnapParameterKeywords): SnapParameters {
  checkKeys(model, keywords, ['rcutfac', 'twojmax', 'rfac0', 'rmin0', ...FLAGS], 'parameters.');
  const error = (message: string): Error => new HookmdTypeError('INVALID_OPTIONS', `${model}: parameters: ${message}`, { field: 'parameters', value: keywords });
  const found: Partial<SnapParameters> = {};
  for (const [keyword, value] of Object.entries(keywords) as [string, unknown][]) {
    if (value === undefined) continue;
    if ((FLAGS as readonly string[]).includes(keyword)) {
      if (value !== true && value !== false && value !== 0 && value !== 1) throw error(`${keyword} must be true, false, 0 or 1, got ${JSON.stringify(value)}`);
      found[keyword as (typeof FLAGS)[number]] = value === true || value === 1;
    } else if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw error(`${keyword} must be a finite number, got ${JSON.stringify(value)}`);
    } else if (keyword === 'twojmax' && !(Number.isInteger(value) && value >= 0)) {
      throw error(`twojmax must be a whole number >= 0, got ${value}`);
    } else {
      found[keyword as 'rcutfac' | 'twojmax' | 'rfac0' | 'rmin0'] = value;
    }
  }
  return completeParameters(found, error, 'missing');
}

/** Bispectrum components of one element triple for `twojmax` (LAMMPS's ncoeff without chemflag). */
export function snapComponents(twojmax: number): number {
  let count = 0;
  for (let j1 = 0; j1 <= twojmax; j1++) {
    for (let j2 = 0; j2 <= j1; j2++) {
      for (let j = j1 - j2; j <= Math.min(twojmax, j1 + j2); j += 2) if (j >= j1) count++;
    }
  }
  return count;
}

/** Coefficients per element (β₀ included) that `parameters` need for `numElements` elements. */
export function snapCoefficientCount(parameters: SnapParameters, numElements: number): number {
  const n = snapComponents(parameters.twojmax) * (parameters.chemflag ? numElements ** 3 : 1);
  return 1 + n + (parameters.quadraticflag ? (n * (n + 1)) / 2 : 0);
}

/**
 * Reads a `.snapcoeff` file: the header `nelements ncoeff`, then per element `name radius weight` and ncoeff
 * numbers. Throws READ_FAILED or SNAP_PARSE (a missing or short block, a non-finite number, a radius ≤ 0).
 */
export function readSnapCoefficients(model: string, file: string): { perElement: number; elements: SnapElementCoefficients[] } {
  const text = readStructureText(model, file);
  const lines = wordLines(text);
  const header = lines[0];
  if (header === undefined) throw snapError(model, file, 1, 'the file is empty; expected a line "nelements ncoeff"');
  if (header.words.length !== 2) throw snapError(model, file, header.line, `expected "nelements ncoeff", got '${header.words.join(' ')}'`);
  const count = numberAt(model, file, header.line, header.words[0] as string, 'nelements');
  const perElement = numberAt(model, file, header.line, header.words[1] as string, 'ncoeff');
  if (!Number.isInteger(count) || count < 1) throw snapError(model, file, header.line, `nelements must be a whole number >= 1, got ${header.words[0]}`);
  if (!Number.isInteger(perElement) || perElement < 1) throw snapError(model, file, header.line, `ncoeff must be a whole number >= 1, got ${header.words[1]}`);
  // The numbers of each block, whatever their layout over lines.
  const words: { text: string; line: number }[] = lines.slice(1).flatMap((l) => l.words.map((text) => ({ text, line: l.line })));
  const elements: SnapElementCoefficients[] = [];
  let at = 0;
  for (let e = 0; e < count; e++) {
    const head = words.slice(at, at + 3);
    const line = head[0]?.line ?? (lines[lines.length - 1] as WordLine).line;
    if (head.length < 3) throw snapError(model, file, line, `the file ends before element ${e + 1} of ${count}: expected "element radius weight"`);
    const [name, radiusText, weightText] = head as [{ text: string; line: number }, { text: string; line: number }, { text: string; line: number }];
    if (Number.isFinite(Number(name.text))) throw snapError(model, file, name.line, `expected the name of element ${e + 1} of ${count}, got the number ${name.text}: a block before it is longer than ncoeff = ${perElement}`);
    const radius = numberAt(model, file, radiusText.line, radiusText.text, `${name.text} radius`);
    const weight = numberAt(model, file, weightText.line, weightText.text, `${name.text} weight`);
    if (!(radius > 0)) throw snapError(model, file, radiusText.line, `${name.text}: the radius must be > 0, got ${radiusText.text}`);
    at += 3;
    const coefficients: number[] = [];
    for (let k = 0; k < perElement; k++, at++) {
      const word = words[at];
      if (word === undefined) throw snapError(model, file, line, `${name.text}: the file ends after ${k} of its ${perElement} coefficients`);
      coefficients.push(numberAt(model, file, word.line, word.text, `${name.text} coefficient ${k}`));
    }
    elements.push({ name: name.text, radius, weight, coefficients, line: name.line });
  }
  if (at < words.length) {
    const extra = words[at] as { text: string; line: number };
    throw snapError(model, file, extra.line, `'${extra.text}' after the ${count} element blocks the header announces`);
  }
  return { perElement, elements };
}

/** What a `.snap` include file says: the two files, the element of each LAMMPS type, and the ZBL core. */
export interface SnapInclude {
  readonly coefficients: string;
  readonly parameters: string;
  readonly elements: readonly string[];
  readonly zbl?: { readonly inner: number; readonly outer: number; readonly charges: Readonly<Record<string, number>> };
}

/** A relative file name of an include file, against the include file's own folder (LAMMPS resolves against its working directory, where the file is meant to be). */
export function resolveNear(folder: string, name: string): string {
  return isAbsolute(name) ? name : join(folder, name);
}

/** The style words of `pair_style`: the sub-styles of hybrid/overlay with their arguments. */
export function pairStyles(model: string, file: string, command: LammpsCommand, known: readonly string[]): { style: string; args: string[] }[] {
  const [first, ...rest] = command.args;
  if (first === undefined) throw includeError(model, file, command.line, 'pair_style without a style');
  if (first !== 'hybrid/overlay' && first !== 'hybrid') return [{ style: first, args: rest }];
  const styles: { style: string; args: string[] }[] = [];
  for (const word of rest) {
    if (known.includes(word) || !/^[-+.0-9]/.test(word)) styles.push({ style: word, args: [] });
    else if (styles.length === 0) throw includeError(model, file, command.line, `pair_style ${first}: '${word}' before any style`);
    else (styles[styles.length - 1] as { args: string[] }).args.push(word);
  }
  return styles;
}

/** The ZBL core of `pair_style ... zbl inner outer` and its `pair_coeff i j zbl zi zj` lines, as one charge per element. */
export function zblCore(
  model: string,
  file: string,
  style: { args: readonly string[] },
  line: number,
  lines: readonly LammpsCommand[],
  elements: readonly string[],
): { inner: number; outer: number; charges: Record<string, number> } {
  if (style.args.length !== 2) throw includeError(model, file, line, `zbl takes an inner and an outer cutoff, got '${style.args.join(' ')}'`);
  const inner = Number(style.args[0]);
  const outer = Number(style.args[1]);
  if (!(inner > 0 && outer > inner)) throw includeError(model, file, line, `zbl cutoffs must satisfy 0 < inner < outer, got ${style.args.join(' ')}`);
  const charges: Record<string, number> = {};
  const typeRange = (text: string, at: number): number[] => {
    if (text === '*') return elements.map((_, k) => k);
    const type = Number(text);
    if (!Number.isInteger(type) || type < 1 || type > elements.length) {
      throw includeError(model, file, at, `atom type '${text}' is not one of the ${elements.length} types the snap pair_coeff maps`);
    }
    return [type - 1];
  };
  for (const command of lines) {
    const [i, j, sub, zi, zj, ...rest] = command.args;
    if (sub !== 'zbl') continue;
    if (i === undefined || j === undefined || zi === undefined || zj === undefined || rest.length > 0) {
      throw includeError(model, file, command.line, `pair_coeff i j zbl zi zj, got '${command.args.join(' ')}'`);
    }
    const both = [Number(zi), Number(zj)];
    if (!both.every((z) => z > 0)) throw includeError(model, file, command.line, `ZBL charges must be > 0, got ${zi} and ${zj}`);
    for (const a of typeRange(i, command.line)) {
      for (const b of typeRange(j, command.line)) {
        for (const [t, z] of [[a, both[0]], [b, both[1]]] as [number, number][]) {
          const element = elements[t] as string;
          if (charges[element] !== undefined && charges[element] !== z) {
            throw includeError(model, file, command.line, `${element} has ZBL charge ${charges[element]} on another line and ${z} here; hookmd takes one charge per element`);
          }
          charges[element] = z;
        }
      }
    }
  }
  const missing = elements.filter((e) => charges[e] === undefined);
  if (missing.length > 0) throw includeError(model, file, line, `no pair_coeff ... zbl line gives the ZBL charge of ${missing.join(', ')}`);
  return { inner, outer, charges };
}

/**
 * Reads a `.snap` include file: `pair_style snap` or `hybrid/overlay` of `zbl inner outer` and `snap`, its
 * `pair_coeff * * [snap] X.snapcoeff X.snapparam El…` line (names resolved against the include file's
 * folder) and the ZBL `pair_coeff` lines. Throws READ_FAILED, LAMMPS_PARSE or SNAP_PARSE naming what
 * hookmd does not run (another pair style, a NULL type, a command other than these).
 */
export function readSnapInclude(model: string, file: string): SnapInclude {
  const include = readLammpsInclude(model, file);
  const styleCommands = include.commands.filter((c) => c.name === 'pair_style');
  const other = include.commands.find((c) => c.name !== 'pair_style' && c.name !== 'pair_coeff');
  if (other !== undefined) throw includeError(model, file, other.line, `'${other.name}' is not a command hookmd reads in a SNAP file (variable, pair_style, pair_coeff)`);
  if (styleCommands.length !== 1) throw includeError(model, file, styleCommands[1]?.line ?? 1, `expected one pair_style line, found ${styleCommands.length}`);
  const styleCommand = styleCommands[0] as LammpsCommand;
  const styles = pairStyles(model, file, styleCommand, ['zbl', 'snap']);
  const hybrid = styles.length > 1 || styleCommand.args[0] === 'hybrid/overlay';
  const unknown = styles.find((s) => s.style !== 'snap' && s.style !== 'zbl');
  if (unknown !== undefined) throw includeError(model, file, styleCommand.line, `pair style '${unknown.style}' is not one hookmd runs beside SNAP (zbl is)`);
  if (!styles.some((s) => s.style === 'snap')) throw includeError(model, file, styleCommand.line, 'the pair_style has no snap');
  const coeffs = include.commands.filter((c) => c.name === 'pair_coeff');
  const snapLines = coeffs.filter((c) => (hybrid ? c.args[2] === 'snap' : true));
  if (snapLines.length !== 1) throw includeError(model, file, styleCommand.line, `expected one pair_coeff line for snap, found ${snapLines.length}`);
  const snapLine = snapLines[0] as LammpsCommand;
  const args = snapLine.args.slice(hybrid ? 3 : 2);
  if (snapLine.args[0] !== '*' || snapLine.args[1] !== '*' || args.length < 3) {
    throw includeError(model, file, snapLine.line, `expected pair_coeff * *${hybrid ? ' snap' : ''} X.snapcoeff X.snapparam element..., got '${snapLine.args.join(' ')}'`);
  }
  const [coefficients, parameters, ...elements] = args as [string, string, ...string[]];
  const nullAt = elements.indexOf('NULL');
  if (nullAt >= 0) throw includeError(model, file, snapLine.line, `type ${nullAt + 1} is NULL (left to another pair style); hookmd runs SNAP on every atom`);
  const repeated = elements.find((e, k) => elements.indexOf(e) !== k);
  if (repeated !== undefined) throw includeError(model, file, snapLine.line, `${repeated} maps two atom types; hookmd has one species per element`);
  const zblStyle = styles.find((s) => s.style === 'zbl');
  return {
    coefficients: resolveNear(include.folder, coefficients),
    parameters: resolveNear(include.folder, parameters),
    elements,
    ...(zblStyle === undefined ? {} : { zbl: zblCore(model, file, zblStyle, styleCommand.line, coeffs, elements) }),
  };
}
