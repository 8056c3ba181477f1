// The `Properties=name:type:ncols:...` column spec of extxyz frames: parsing it, converting atom-line
// tokens by type (R real, I integer, S string, L logical, as in ASE), and formatting it back.
import { isFloatToken, parseFloatToken } from './keyvalue.js';

/** One per-atom property: `ncols` columns of type `type`. */
export interface PropertyColumn {
  readonly name: string;
  readonly type: 'R' | 'I' | 'S' | 'L';
  readonly ncols: number;
}

/** What ASE assumes when a frame has no Properties key. */
export const DEFAULT_PROPERTIES = 'species:S:1:pos:R:3';

/** Parses a Properties value; throws a plain Error saying what is wrong. */
export function parseProperties(spec: string): PropertyColumn[] {
  const fields = spec.split(':');
  if (fields.length % 3 !== 0) {
    throw new Error(`Properties=${spec} is not a list of name:type:ncols triplets`);
  }
  const columns: PropertyColumn[] = [];
  for (let i = 0; i < fields.length; i += 3) {
    const [name, type, ncols] = [fields[i], fields[i + 1], fields[i + 2]];
    if (name === '') throw new Error(`Properties=${spec}: property ${i / 3 + 1} has no name`);
    if (type !== 'R' && type !== 'I' && type !== 'S' && type !== 'L') {
      throw new Error(`unknown property type '${type}' for '${name}' in Properties (expected R, I, S or L)`);
    }
    if (!/^\d+$/.test(ncols) || Number(ncols) < 1) {
      throw new Error(`property '${name}' has column count '${ncols}'; expected an integer ≥ 1`);
    }
    if (columns.some((c) => c.name === name)) throw new Error(`property '${name}' appears twice in Properties`);
    columns.push({ name, type, ncols: Number(ncols) });
  }
  return columns;
}

/** Formats columns back into a Properties value. */
export function formatProperties(columns: readonly PropertyColumn[]): string {
  return columns.map((c) => `${c.name}:${c.type}:${c.ncols}`).join(':');
}

/** The total number of tokens an atom line must have. */
export function columnCount(columns: readonly PropertyColumn[]): number {
  return columns.reduce((sum, c) => sum + c.ncols, 0);
}

/** Converts one token of a column of `type`; throws a plain Error naming the bad token. */
export function parseToken(token: string, type: PropertyColumn['type'], name: string): number | string | boolean {
  switch (type) {
    case 'R':
      if (!isFloatToken(token)) throw new Error(`'${token}' in column '${name}' is not a number`);
      return parseFloatToken(token);
    case 'I':
      if (!/^[+-]?\d+$/.test(token)) throw new Error(`'${token}' in column '${name}' is not an integer`);
      return Number(token);
    case 'L':
      if (token === 'T' || token === 'True') return true;
      if (token === 'F' || token === 'False') return false;
      throw new Error(`'${token}' in column '${name}' is not a logical (T or F)`);
    case 'S':
      return token;
  }
}

/** The column type that holds `values` (per-atom values of one property), or undefined if none does. */
export function columnType(values: readonly unknown[]): PropertyColumn['type'] | undefined {
  if (values.every((v) => typeof v === 'number')) return values.every((v) => Number.isInteger(v)) ? 'I' : 'R';
  if (values.every((v) => typeof v === 'boolean')) return 'L';
  if (values.every((v) => typeof v === 'string' && v !== '' && !/\s/.test(v))) return 'S';
  return undefined;
}
