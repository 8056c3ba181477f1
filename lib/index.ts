// hookmd public API: re-exports only.

export { HookmdError, HookmdRangeError, HookmdTypeError, isHookmdError } from './errors.js';
export type { CodedError, ErrorDetails } from './errors.js';

export {
  Batch,
  LJ,
  METAL,
  atomicNumber,
  bulk,
  chemicalSymbol,
  createRng,
  isAtomicNumber,
  rattle,
  repeat,
  standardMass,
  unitSystem,
} from './data/index.js';
export type { BatchOptions, BulkOptions, CrystalStructure, ExtraFieldSpec, ResolvedSystem, Rng, System, UnitSystem, Vectors } from './data/index.js';

export { backendInfo, configureNative, getThreads, setThreads } from './native/index.js';
export type { BackendInfo, BackendRequest } from './native/index.js';
