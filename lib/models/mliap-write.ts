// The text of ML-IAP's LAMMPS files for `MLIAP.save` (lib/models/mliap.ts): the `sna` or `so3` descriptor
// file (every keyword written, the elements with their radii and weights), the model file (`linear` and
// `quadratic`: per element its coefficients, one a line; `nn`: the NET line of the layers, then per element
// its scale0 and scale1 rows and its parameters) and the `.mliap` include file, in the layout of the files
// lammps-data ships and mliap-file.ts reads.
import { basename } from 'node:path';

import type { MliapActivation, MliapDescriptor, MliapDescriptorStyle, MliapModelKind } from './mliap-file.js';
import { optionalKeywordLines, zblPairLines } from './snap-write.js';

const HEADER = '# Written by hookmd (MLIAP.save)';

export function mliapDescriptorText(descriptor: MliapDescriptor): string {
  const { elements } = descriptor;
  const basis =
    descriptor.style === 'so3'
      ? [`nmax ${descriptor.parameters.nmax}`, `lmax ${descriptor.parameters.lmax}`, `alpha ${descriptor.parameters.alpha}`]
      : [`twojmax ${descriptor.parameters.twojmax}`];
  return [
    HEADER,
    '',
    `rcutfac ${descriptor.parameters.rcutfac}`,
    ...basis,
    `nelems ${elements.length}`,
    `elems ${elements.map((e) => e.name).join(' ')}`,
    `radelems ${elements.map((e) => e.radius).join(' ')}`,
    `welems ${elements.map((e) => e.weight).join(' ')}`,
    ...(descriptor.style === 'so3' ? [] : optionalKeywordLines(descriptor.parameters)),
    '',
  ].join('\n');
}

/**
 * The model file: `nelements nparams`, for nn the NET line, then per element its numbers (nn: the
 * `descriptors` scale0 and scale1 values on a line each, then the layers' parameters).
 */
export function mliapModelText(parameters: readonly (readonly number[])[], network?: { descriptors: number; layers: readonly { nodes: number; activation: MliapActivation }[] }): string {
  const extra = network === undefined ? 0 : 2 * network.descriptors;
  const perElement = ((parameters[0] as readonly number[]).length - extra).toString();
  const lines = [HEADER, '', `${parameters.length} ${perElement}`];
  if (network !== undefined) lines.push(`NET ${network.descriptors} ${network.layers.length} ${network.layers.map((l) => `${l.activation} ${l.nodes}`).join(' ')}`);
  for (const block of parameters) {
    if (network !== undefined) lines.push(block.slice(0, network.descriptors).join(' '), block.slice(network.descriptors, extra).join(' '));
    lines.push(...block.slice(extra).map(String));
  }
  lines.push('');
  return lines.join('\n');
}

/** The include file naming the model and descriptor files (by their names in its own folder), with the ZBL core's lines. */
export function mliapIncludeText(
  kind: MliapModelKind,
  model: string,
  descriptor: string,
  descriptorStyle: MliapDescriptorStyle,
  elements: readonly string[],
  zbl?: { inner: number; outer: number; charges: Readonly<Record<string, number>> },
): string {
  const style = `mliap model ${kind} ${basename(model)} descriptor ${descriptorStyle} ${basename(descriptor)}`;
  if (zbl === undefined) return [HEADER, '', `pair_style ${style}`, `pair_coeff * * ${elements.join(' ')}`, ''].join('\n');
  return [HEADER, '', `pair_style hybrid/overlay zbl ${zbl.inner} ${zbl.outer} ${style}`, ...zblPairLines(elements, zbl.charges), `pair_coeff * * mliap ${elements.join(' ')}`, ''].join('\n');
}
