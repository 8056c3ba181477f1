export { Batch, nativeBatchOf } from './batch.js';
export type { BatchOptions, ExtraFieldSpec } from './batch.js';
export { atomicNumber, chemicalSymbol, isAtomicNumber, MAX_ATOMIC_NUMBER, standardMass } from './elements.js';
export type { ResolvedSystem, System, Vectors } from './system.js';
export { LJ, METAL, unitSystem } from './units.js';
export type { UnitSystem } from './units.js';
export { determinant3, normalizeSystem } from './validate.js';
export type { NormalizedSystem } from './validate.js';
