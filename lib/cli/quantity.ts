// Pressures and frictions on the command line and in configs carry their unit: `1GPa`, `1 bar`,
// `0.0062 eV/A^3`, `0.01/fs`, `10/ps`. A bare number is refused in metal units, because users read it
// differently: LAMMPS's metal units mean bar and ASE means eV/Å³ for a pressure, and a friction may be per
// fs or per ps. Times (`--dt 2fs`, `0.002ps`) take fs or ps; a bare time is fs, hookmd's metal unit (what
// earlier releases took), and a suspiciously short one is warned about (timeWarning). In lj units
// everything is reduced (ε/σ³, 1/τ, τ), so there a bare number is the only form.
import { HookmdTypeError } from '../errors.js';
import { configError } from './config-file.js';
import type { UnitsName } from './run-config.js';
import { showValue } from '../describe-value.js';

/** The quantities that take a unit. */
export type QuantityKind = 'pressure' | 'friction' | 'time' | 'compressibility';

// 1 eV/Å³ in Pa: 1.602176634e-19 J / 1e-30 m³ (the SI value of the electronvolt is exact).
const PASCAL_PER_EV_A3 = 1.602176634e11;

// Each unit's value in the metal units the engines take: eV/Å³ for a pressure, 1/fs for a friction, Å³/eV
// for a compressibility (an inverse pressure).
const UNITS: Readonly<Record<QuantityKind, Readonly<Record<string, number>>>> = {
  pressure: {
    'eV/A^3': 1,
    Pa: 1 / PASCAL_PER_EV_A3,
    kPa: 1e3 / PASCAL_PER_EV_A3,
    MPa: 1e6 / PASCAL_PER_EV_A3,
    GPa: 1e9 / PASCAL_PER_EV_A3,
    bar: 1e5 / PASCAL_PER_EV_A3,
    kbar: 1e8 / PASCAL_PER_EV_A3,
    atm: 101_325 / PASCAL_PER_EV_A3,
  },
  friction: { '/fs': 1, '/ps': 1e-3 },
  time: { fs: 1, ps: 1e3 },
  compressibility: {
    'A^3/eV': 1,
    '/Pa': PASCAL_PER_EV_A3,
    '/bar': PASCAL_PER_EV_A3 / 1e5,
    '/GPa': PASCAL_PER_EV_A3 / 1e9,
    '/atm': PASCAL_PER_EV_A3 / 101_325,
  },
};

// LAMMPS metal's time unit is ps, so its typical 0.001–0.002 read as fs would be a step 1000× too short.
const SHORT_BARE_TIME_FS = 0.05;

// What each kind means in words, and examples of both readings, for the message on a bare number.
const ADVICE: Readonly<Record<QuantityKind, string>> = {
  pressure: "write 1bar (LAMMPS metal's unit), 1GPa, or 0.0062eV/A^3 (ASE's scalar_pressure)",
  friction: 'write 0.01/fs or 10/ps (the inverse of a damping time: LAMMPS fix langevin damp 100 fs is 0.01/fs)',
  time: 'write 2fs or 0.002ps (a bare number is fs)',
  compressibility: 'write 4.5e-5/bar (water, GROMACS\'s usual value), 0.01/GPa, or 72A^3/eV',
};

// Spellings of the same unit: Å and Ang for A, ³ and 3 for ^3, ** for ^, fs^-1 and 1/fs for /fs.
function canonical(unit: string): string {
  return unit
    .replace(/\s+/g, '')
    .replace(/Å|Ang(strom)?/g, 'A')
    .replace(/\*\*/g, '^')
    .replace(/³|\^?3$/, '^3')
    .replace(/^1\//, '/')
    .replace(/^(fs|ps)\^-1$/, '/$1');
}

function unitOf(kind: QuantityKind, written: string): number | undefined {
  const table = UNITS[kind];
  const unit = canonical(written);
  if (Object.hasOwn(table, unit)) return table[unit];
  // Case only matters where it tells units apart, and none of these differ by case alone.
  const match = Object.keys(table).find((name) => name.toLowerCase() === unit.toLowerCase());
  return match === undefined ? undefined : table[match];
}

/**
 * A pressure (in eV/Å³) or a friction (in 1/fs) from its text with a unit, for the run's units; a bare
 * number only in lj units, where it is reduced (YAML's `pressure: 1.5` too). Anything else is
 * INVALID_UNIT with the units accepted; `field` names the option in the error's details, and the caller
 * puts where it was written in front of the message.
 *
 * @example
 * parseQuantity('1 GPa', 'pressure', 'metal', 'pressure'); // 0.0062415…
 * parseQuantity('10/ps', 'friction', 'metal', 'friction'); // 0.01
 */
export function parseQuantity(value: unknown, kind: QuantityKind, units: UnitsName, field: string): number {
  const text = typeof value === 'number' ? String(value) : value;
  const match = typeof text === 'string' ? /^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*(.*?)\s*$/i.exec(text) : null;
  const fail = (problem: string): never => {
    throw new HookmdTypeError('INVALID_UNIT', problem, { field, value });
  };
  if (match === null) return fail(`expected a number with its unit, got ${showValue(value)}; ${ADVICE[kind]}`);
  const [, number, unit] = match;
  const magnitude = Number(number);
  if (units === 'lj') {
    const reduced = unit.replace(/\s+/g, '');
    if (unit === '' || (kind === 'friction' && /^(1?\/(tau|τ))$/.test(reduced)) || (kind === 'time' && /^(tau|τ)$/.test(reduced))) return magnitude;
    return fail(`${showValue(value)}: lj units are reduced (${{ pressure: 'ε/σ³', friction: '1/τ', time: 'τ', compressibility: 'σ³/ε' }[kind]}); give a bare number`);
  }
  const choices = Object.keys(UNITS[kind]).join(', ');
  if (unit === '' && kind === 'time') return magnitude;
  if (unit === '') return fail(`${number} has no unit; ${ADVICE[kind]}. Units: ${choices}`);
  const factor = unitOf(kind, unit);
  if (factor === undefined) return fail(`unknown ${kind} unit ${showValue(unit)}; units: ${choices}`);
  return magnitude * factor;
}

/**
 * Checks a command-line flag that takes a quantity (`--pressure 1GPa`) before anything runs; a bad one
 * is a usage error (INVALID_CONFIG, exit code 2) that starts with the flag.
 *
 * @example
 * checkQuantityFlag('--pressure', options.pressure, 'pressure', options.units);
 */
export function checkQuantityFlag(flag: string, value: string | undefined, kind: QuantityKind, units: UnitsName): void {
  quantityFlag(flag, value, kind, units);
}

/**
 * The value of a command-line flag that takes a quantity, in the engines' units (undefined when not given);
 * a bad one is a usage error (INVALID_CONFIG, exit code 2) that starts with the flag. `positive` refuses
 * zero and negative values (times).
 *
 * @example
 * quantityFlag('--dt', '2fs', 'time', 'metal', { positive: true }); // 2
 */
export function quantityFlag(flag: string, value: string | undefined, kind: QuantityKind, units: UnitsName, options: { positive?: boolean } = {}): number | undefined {
  if (value === undefined) return undefined;
  let parsed: number;
  try {
    parsed = parseQuantity(value, kind, units, flag);
  } catch (error) {
    if (error instanceof HookmdTypeError) throw configError([`${flag}: ${error.message}`], { cause: error.code });
    throw error;
  }
  if (options.positive === true && !(parsed > 0 && Number.isFinite(parsed))) throw configError([`${flag}: must be > 0, got ${showValue(value)}`]);
  return parsed;
}

/**
 * The warning for a bare metal-units time below 0.05 fs (likely LAMMPS metal's ps: `--dt 0.002` is
 * 0.002 fs here), or undefined.
 *
 * @example
 * timeWarning('--dt', '0.002', 'metal'); // '--dt 0.002 is 0.002 fs …'
 */
export function timeWarning(flag: string, value: string | undefined, units: UnitsName): string | undefined {
  if (value === undefined || units !== 'metal') return undefined;
  const bare = /^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*$/i.exec(value);
  if (bare === null || !(Number(bare[1]) < SHORT_BARE_TIME_FS)) return undefined;
  return `${flag} ${bare[1]} is ${bare[1]} fs (a bare time is fs in metal units), 1000× shorter than ${bare[1]} ps, LAMMPS metal's unit; write ${bare[1]}ps if that is what you meant, or ${bare[1]}fs to keep it`;
}
