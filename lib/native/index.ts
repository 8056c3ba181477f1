export {
  activeBackend,
  addBackendNote,
  backendInfo,
  configureNative,
  getThreads,
  injectBinding,
  loadBinding,
  MAX_THREADS,
  PACKAGE_ROOT,
  parseBackendRequest,
  setThreads,
} from './loader.js';
export type { BackendInfo, BackendRequest } from './loader.js';
export { cpuBinaryCandidates, cudaBinaryCandidates, findCpuBinary, findCudaBinary } from './locate.js';
export type { NativeConvergenceArgs, NativeHookArgs, NativeHookArrivals, NativeStepper, NativeStepperConstructor } from './stepper-binding.js';
export type { NativeNetworkLoss, NativeNetworkLossConstructor, NativePairLoss, NativePairLossConstructor, NativePredictions } from './training-binding.js';
export type {
  BackendName,
  CpuSimd,
  DeviceStats,
  NativeBackendProbe,
  NativeBatch,
  NativeBinding,
  NativeFieldArrays,
  NativeFieldName,
  NativeThreadBudget,
  NativeThreadLimit,
  ReduceOp,
  ThreadLimit,
  TransferStats,
} from './binding.js';
