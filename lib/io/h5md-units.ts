// The `unit` attributes of H5MD datasets (H5MD 1.1: space-separated factors with integer powers, such as
// `nm ps-1` or `kJ mol-1 nm-1`) as factors to hookmd's metal units (Å, fs, eV, amu).

/** Joules per eV (exact, SI 2019). */
const EV = 1.602176634e-19;

/** Each base unit in metal units. */
const BASES: Readonly<Record<string, number>> = {
  Angstrom: 1, angstrom: 1, A: 1, nm: 10, pm: 0.01, m: 1e10,
  fs: 1, ps: 1000, ns: 1e6, s: 1e15,
  eV: 1, meV: 1e-3, J: 1 / EV, kJ: 1e3 / EV, kcal: 4184 / EV, mol: 6.02214076e23,
  amu: 1, u: 1, Da: 1, g: 6.02214076e23,
  bar: 1e5 / EV / 1e30, GPa: 1e9 / EV / 1e30,
};

/**
 * The factor that turns values in `unit` into metal units, or undefined when the unit is not one hookmd
 * knows (`nm ps-1` → 0.01: 1 nm/ps = 0.01 Å/fs). A unit without factors (empty or `1`) is 1.
 *
 * @example
 * h5mdUnitFactor('kJ mol-1 nm-1'); // 0.0010364269… eV/Å
 */
export function h5mdUnitFactor(unit: string): number | undefined {
  const text = unit.trim().replace(/\s*\/\s*/g, ' /');
  if (text === '' || text === '1') return 1;
  let factor = 1;
  for (const token of text.split(/\s+/)) {
    const divide = token.startsWith('/');
    const match = /^([A-Za-z]+)(-?\d+)?$/.exec(divide ? token.slice(1) : token);
    const base = match === null ? undefined : BASES[match[1] as string];
    if (match === null || base === undefined || !Object.hasOwn(BASES, match[1] as string)) return undefined;
    const power = Number(match[2] ?? '1') * (divide ? -1 : 1);
    factor *= base ** power;
  }
  return factor;
}
