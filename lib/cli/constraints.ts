// Constraints from the command line (`--fix-atoms 0-3,7`, `--fix-com`, `--symmetry [symprec]`) and from a run
// config's `constraints` key. Fixed atoms are marked in every input system (`info.fixed`, which a stream
// holds through its refills and `md` gives FixAtoms), since their indices count atoms of each system, not of
// a batch; FixCom and FixSymmetry hold every system, so they are the engine's constraints.
import { InvalidArgumentError, type Command } from 'commander';

import type { System } from '../data/index.js';
import { FixCom, FixSymmetry, type Constraint, type SystemSource } from '../dynamics/index.js';
import { HookmdRangeError } from '../errors.js';
import { parse } from './options.js';
import type { ConstraintsConfig } from './run-config.js';

// The most atoms a range may name: a typo like 0-99999999999 would otherwise build a huge list.
const MAX_RANGE = 1 << 24;

/**
 * `--fix-atoms`: comma-separated indices and inclusive ranges (`0-3,7` is 0, 1, 2, 3, 7); a usage error
 * names the piece that is not one.
 */
export function parseAtomIndices(text: string): number[] {
  const indices = new Set<number>();
  for (const piece of text.split(',')) {
    const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(piece);
    const [first, last] = match === null ? [NaN, NaN] : [Number(match[1]), Number(match[2] ?? match[1])];
    if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last) || last < first || last - first >= MAX_RANGE) {
      throw new InvalidArgumentError(`must be atom indices from 0 and ranges such as 0-3,7; '${piece.trim()}' is not one.`);
    }
    for (let i = first; i <= last; i++) indices.add(i);
  }
  return [...indices].sort((a, b) => a - b);
}

/** The flags of the constraints, as commander parses them (`--symmetry` alone is true). */
export interface ConstraintOptions {
  fixAtoms?: number[];
  fixCom?: boolean;
  symmetry?: boolean | number;
}

/** Adds --fix-atoms, --fix-com and --symmetry to `command` (relax, md). */
export function addConstraintOptions(command: Command): Command {
  return command
    .option('--fix-atoms <list>', 'fix these atoms of every structure: indices from 0 and ranges, 0-3,7 (beside those a POSCAR\'s selective dynamics fixes)', parseAtomIndices)
    .option('--fix-com', 'hold each structure\'s centre of mass (of its mobile atoms beside fixed ones): ASE FixCom')
    .option('--symmetry [symprec]', 'keep each structure\'s space group, found within symprec (Å, default 0.01): ASE FixSymmetry', parse.positive);
}

/** The engine constraints `config` asks for: FixCom, FixSymmetry. */
export function engineConstraints(config: ConstraintsConfig | undefined): Constraint[] {
  const constraints: Constraint[] = [];
  if (config?.fixCom === true) constraints.push(new FixCom());
  const symmetry = config?.symmetry;
  if (symmetry !== undefined && symmetry !== false) constraints.push(new FixSymmetry(symmetry === true ? {} : { symprec: symmetry }));
  return constraints;
}

/**
 * `system` with the atoms `indices` names fixed too (beside those its `info.fixed` fixes already);
 * INVALID_MASK naming `where` (the flag or config key) for an index past its atoms.
 */
export function withFixedAtoms(system: System, index: number, indices: readonly number[], where: string): System {
  if (indices.length === 0) return system;
  const count = (system.positions as ArrayLike<unknown>).length;
  const outside = indices.find((i) => i >= count);
  if (outside !== undefined) {
    throw new HookmdRangeError('INVALID_MASK', `${where}: atom ${outside} is outside system ${index} of the input, which has ${count} atoms`, { field: where, index, value: outside });
  }
  const given = system.info?.fixed;
  const named = new Set(indices);
  const fixed = Array.from({ length: count }, (_, i) => (Array.isArray(given) && given[i] === true) || named.has(i));
  return { ...system, info: { ...system.info, fixed } };
}

/** `source` with `indices` fixed in each of its systems (withFixedAtoms), as the stream pulls them. */
export function fixingAtoms(source: SystemSource, indices: readonly number[] | undefined, where: string): SystemSource {
  if (indices === undefined || indices.length === 0) return source;
  return (async function* fixing(): AsyncGenerator<System> {
    let index = 0;
    for await (const system of source) yield withFixedAtoms(system, index++, indices, where);
  })();
}
