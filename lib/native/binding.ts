// The typed surface of the native addon. Only lib/native touches the .node file; every other layer sees
// these interfaces.
import type { CpuSimd, DeviceStats, NativeBackendProbe, NativeBatch, NativeThreadBudget, NativeThreadLimit } from './batch-binding.js';
import type { NativeStepperConstructor } from './stepper-binding.js';
import type { NativeNetworkLossConstructor, NativePairLossConstructor } from './training-binding.js';
import type { NativeEamConstructor, NativeEdgeListConstructor, NativeManyBodyConstructor, NativePairEvaluators, NativePairPotentialConstructor, NativeSnapConstructor } from './models-binding.js';

export type { BackendName, CpuSimd, DeviceStats, NativeBackendProbe, NativeBatch, NativeFieldArrays, NativeFieldName, NativeThreadBudget, NativeThreadLimit, ReduceOp, ThreadLimit, TransferStats } from './batch-binding.js';

/** The module object of hookmd.node / hookmd_cuda.node. */
export interface NativeBinding {
  NativeBatch: new (backend: string) => NativeBatch;
  /** Every pair potential of native/cpp/math/PairEvaluators.h, by name. */
  PairPotential: NativePairPotentialConstructor;
  /** The names of that list, with their θ values per species pair. */
  readonly pairEvaluators: NativePairEvaluators;
  EAM: NativeEamConstructor;
  ManyBody: NativeManyBodyConstructor;
  /** SNAP and the ML-IAP models on its descriptor (native/cpp/models/SnapPotential.h). */
  Snap: NativeSnapConstructor;
  EdgeList: NativeEdgeListConstructor;
  /** The stepping loop of one batch (native/cpp/dynamics/Stepper.h). */
  NativeStepper: NativeStepperConstructor;
  /** The force-matching loss of a pair model (native/cpp/binding/LossWrap). */
  PairLoss: NativePairLossConstructor;
  /** The loss of an ML-IAP network on SNAP descriptors (native/cpp/binding/NetworkLossWrap). */
  NetworkLoss: NativeNetworkLossConstructor;
  setErrorFactory(factory: (code: string, message: string) => Error): void;
  setThreads(n: number): number;
  getThreads(): number;
  threadLimit(): NativeThreadLimit;
  /**
   * The default budget decided from `hookmdThreads` (undefined: unset) and the cgroup files under `root`, a
   * directory standing for "/", with this process's cores and affinity mask. For tests of the policy.
   */
  decideThreadBudget(root: string, hookmdThreads?: string): NativeThreadBudget;
  backends(): NativeBackendProbe[];
  externalViews(): boolean;
  /** V8's count of the external memory native code has reported, in bytes: every batch's fields among it. For tests. */
  externalMemory(): number;
  cpuSimd(): CpuSimd;
  /** An exclusive flock on `path` (created if missing): the descriptor holding it, or -1 while another process holds it. */
  lockFile(path: string): number;
  /** Removes `path` and closes `fd`, releasing its lock. */
  unlockFile(path: string, fd: number): void;
  readonly napiVersion: number;
  readonly cudaBuild: boolean;
  /** The device kernel families, each with where and when it was verified on a GPU ('' while dark). */
  deviceKernels?(): Array<{ name: string; verified: string }>;
  /** CUDA builds only: what the CUDA backend really launched, waited for and copied, over the process. */
  actualDeviceStats?(): DeviceStats;
  resetActualDeviceStats?(): void;
}
