// The text of SNAP's LAMMPS files for `SNAP.save` (lib/models/snap.ts): the `.snapparam` keywords (every
// one written, so no default of another LAMMPS version applies), the `.snapcoeff` blocks and the `.snap`
// include file that `pair_style snap` (or `hybrid/overlay zbl inner outer snap`) reads, in the layout of
// the files lammps-data ships and snap-file.ts reads.
import { basename } from 'node:path';

import type { SnapParameters } from './snap-file.js';

/** One element's block of a `.snapcoeff` file. */
export interface SnapBlock {
  readonly radius: number;
  readonly weight: number;
  readonly coefficients: readonly number[];
}

const HEADER = '# Written by hookmd (SNAP.save)';

export function snapParameterText(p: SnapParameters): string {
  return [HEADER, '', `rcutfac ${p.rcutfac}`, `twojmax ${p.twojmax}`, ...optionalKeywordLines(p), ''].join('\n');
}

/** rfac0, rmin0 and every flag (quadraticflag where `p` has it: an `sna` descriptor leaves it to the model). */
export function optionalKeywordLines(p: Omit<SnapParameters, 'quadraticflag'> & { quadraticflag?: boolean }): string[] {
  const flags: readonly (keyof SnapParameters)[] = ['switchflag', 'bzeroflag', ...(p.quadraticflag === undefined ? [] : (['quadraticflag'] as const)), 'chemflag', 'bnormflag', 'wselfallflag'];
  return [`rfac0 ${p.rfac0}`, `rmin0 ${p.rmin0}`, ...flags.map((flag) => `${flag} ${p[flag] === true ? 1 : 0}`)];
}

/** `nelements ncoeff`, then per element `name radius weight` and one coefficient a line. */
export function snapCoefficientText(blocks: Readonly<Record<string, SnapBlock>>): string {
  const entries = Object.entries(blocks);
  const perElement = (entries[0] as [string, SnapBlock])[1].coefficients.length;
  return [HEADER, '', `${entries.length} ${perElement}`, ...entries.flatMap(([name, b]) => [`${name} ${b.radius} ${b.weight}`, ...b.coefficients.map(String)]), ''].join('\n');
}

/** The include file naming the two files (by their names in its own folder) and the ZBL core's lines. */
export function snapIncludeText(coefficients: string, parameters: string, elements: readonly string[], zbl?: { inner: number; outer: number; charges: Readonly<Record<string, number>> }): string {
  const files = `${basename(coefficients)} ${basename(parameters)} ${elements.join(' ')}`;
  if (zbl === undefined) return [HEADER, '', 'pair_style snap', `pair_coeff * * ${files}`, ''].join('\n');
  return [HEADER, '', `pair_style hybrid/overlay zbl ${zbl.inner} ${zbl.outer} snap`, ...zblPairLines(elements, zbl.charges), `pair_coeff * * snap ${files}`, ''].join('\n');
}

/** `pair_coeff i j zbl zi zj` for every pair of LAMMPS types i ≤ j (type k + 1 is elements[k]). */
export function zblPairLines(elements: readonly string[], charges: Readonly<Record<string, number>>): string[] {
  return elements.flatMap((a, i) => elements.slice(i).map((b, k) => `pair_coeff ${i + 1} ${i + k + 1} zbl ${charges[a]} ${charges[b]}`));
}
