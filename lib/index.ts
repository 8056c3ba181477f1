// hookmd public API: re-exports only.

export { HookmdError, HookmdRangeError, HookmdTypeError, isHookmdError } from './errors.js';
export type { CodedError, ErrorDetails } from './errors.js';

export {
  HookError,
  HookHandle,
  HookRegistry,
  HookRunner,
  RunControl,
  after,
  and,
  at,
  before,
  createContext,
  defineHook,
  every,
  hookTypes,
  isTrigger,
  not,
  or,
  registerHookType,
  runLifecycle,
  stageName,
  stageValues,
  wallClock,
} from './hooks/index.js';
export type {
  AnyHook,
  ContextInit,
  DynamicsContext,
  ErrorPolicy,
  EveryOptions,
  Hook,
  HookConfigEntry,
  HookContext,
  HookErrorInfo,
  HookFactory,
  HookInfo,
  HookLogger,
  HookRegistryOptions,
  HookRunnerOptions,
  HookSource,
  HookSpec,
  LoadStateOptions,
  MutableContext,
  ProfileEntry,
  RegisterHookTypeOptions,
  StageOf,
  StageSet,
  StageValue,
  StateDict,
  StepContext,
  StopRequest,
  TrainContext,
  TrainLosses,
  Trigger,
  TriggerPeriodicity,
  WallClockOptions,
} from './hooks/index.js';

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

export { JsModel, LennardJones, Morse } from './models/index.js';
export type {
  ComputeOptions,
  JsModelFunction,
  JsModelOptions,
  JsModelResult,
  LennardJonesOptions,
  LennardJonesPairParameters,
  Model,
  ModelDescription,
  MorseOptions,
  MorsePairParameters,
  NativeNeighborStats,
} from './models/index.js';

export {
  CONVERGENCE_KEYS,
  ConvergenceHook,
  DYNAMICS_STAGES,
  Dynamics,
  DynamicsStage,
  EnergyDriftMonitorHook,
  FIRE,
  FIRE2,
  FreezeAtomsHook,
  GradientDescent,
  Langevin,
  MaxForceClampHook,
  NaNDetectorHook,
  NoseHooverChain,
  ProgressHook,
  StageTimingHook,
  VelocityVerlet,
  WrapPeriodicHook,
  initializeVelocities,
  temperatures,
} from './dynamics/index.js';
export type {
  ConvergenceCriterion,
  ConvergenceHookOptions,
  DynamicsHook,
  DynamicsHookContext,
  DynamicsOptions,
  EnergyDriftOptions,
  EngineModel,
  FireOptions,
  GradientDescentOptions,
  LangevinOptions,
  NoseHooverChainOptions,
  PerSystem,
  ProgressEvent,
  ReduceOp,
  RunOptions,
  RunResult,
  VelocityOptions,
  VelocityVerletOptions,
} from './dynamics/index.js';

export {
  ASE_FS,
  ExtxyzSink,
  HostMemorySink,
  ZarrSink,
  formatExtxyz,
  openSink,
  readExtxyz,
  readZarr,
  streamExtxyz,
  writeExtxyz,
} from './io/index.js';
export type { ExtxyzSinkOptions, ReadExtxyzOptions, Sink, SinkOptions, WriteExtxyzOptions, ZarrSinkOptions } from './io/index.js';
export { LOG_COLUMNS, LoggingHook } from './dynamics/hooks/logging-hook.js';
export type { LogColumn, LoggingHookOptions, LogRow } from './dynamics/hooks/logging-hook.js';
export { ConvergedSnapshotHook, SnapshotHook } from './dynamics/hooks/snapshot-hook.js';
export type { SnapshotHookOptions, SnapshotSinkOptions } from './dynamics/hooks/snapshot-hook.js';
