// Small EAM potential files written from tables, for tests that need a grid or values no real potential
// has (hostile grids, property suites): the setfl layout of LAMMPS's `pair_style eam/alloy`.
import { writeFileSync } from 'node:fs';

/** A one-element setfl potential: the grid line and the three tables, each of its grid's length. */
export interface SetflTables {
  element?: { symbol: string; z: number; mass: number };
  nrho: number;
  drho: number;
  nr: number;
  dr: number;
  cutoff: number;
  frho: readonly number[];
  rhor: readonly number[];
  /** r·φ(r). */
  z2r: readonly number[];
}

/** The text of a one-element setfl file, five values a line as LAMMPS writes them. */
export function setflText(t: SetflTables): string {
  const element = t.element ?? { symbol: 'Cu', z: 29, mass: 63.546 };
  const rows = (values: readonly number[]): string[] =>
    Array.from({ length: Math.ceil(values.length / 5) }, (_, k) => values.slice(5 * k, 5 * k + 5).map((v) => v.toExponential(16)).join(' '));
  return [
    'test potential', 'written by test/helpers/eam-files.ts', '',
    `1 ${element.symbol}`,
    `${t.nrho} ${t.drho} ${t.nr} ${t.dr} ${t.cutoff}`,
    `${element.z} ${element.mass} 3.615 fcc`,
    ...rows(t.frho), ...rows(t.rhor), ...rows(t.z2r), '',
  ].join('\n');
}

/** Writes {@link setflText} to `path` (named *.eam.alloy so the format is found by name). */
export function writeSetfl(path: string, tables: SetflTables): string {
  writeFileSync(path, setflText(tables));
  return path;
}
