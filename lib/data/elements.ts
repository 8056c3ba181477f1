// Symbol ↔ atomic number ↔ standard mass, from the periodic table in element-table.ts.
import { HookmdError } from '../errors.js';
import { ELEMENT_TABLE } from './element-table.js';
import { showValue } from '../describe-value.js';

const numberBySymbol = new Map<string, number>(ELEMENT_TABLE.map(([symbol], index) => [symbol, index + 1]));

/** Highest atomic number known. */
export const MAX_ATOMIC_NUMBER: number = ELEMENT_TABLE.length;

/** Atomic number of `symbol` ('Ar' → 18); throws UNKNOWN_ELEMENT. */
export function atomicNumber(symbol: string): number {
  const z = numberBySymbol.get(symbol);
  if (z === undefined) {
    throw new HookmdError('UNKNOWN_ELEMENT', `elements: unknown element symbol ${showValue(symbol)}`, {
      field: 'symbols',
      value: symbol,
    });
  }
  return z;
}

/** Whether `z` is an atomic number in the table. */
export function isAtomicNumber(z: number): boolean {
  return Number.isInteger(z) && z >= 1 && z <= ELEMENT_TABLE.length;
}

/** Chemical symbol of atomic number `z` (18 → 'Ar'); throws UNKNOWN_ELEMENT. */
export function chemicalSymbol(z: number): string {
  if (!isAtomicNumber(z)) {
    throw new HookmdError('UNKNOWN_ELEMENT', `elements: unknown atomic number ${z}`, { field: 'atomicNumbers', value: z });
  }
  return ELEMENT_TABLE[z - 1][0];
}

/** Standard atomic mass in amu of atomic number `z` (18 → 39.948). */
export function standardMass(z: number): number {
  chemicalSymbol(z);
  return ELEMENT_TABLE[z - 1][1];
}
