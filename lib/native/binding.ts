// The typed surface of the native addon. Only lib/native touches the .node file; every other layer sees
// these interfaces.
import type { CpuSimd, NativeBackendProbe, NativeBatch } from './batch-binding.js';
import type { NativeEamConstructor, NativeLennardJonesConstructor, NativeMorseConstructor } from './models-binding.js';

export type { BackendName, CpuSimd, NativeBackendProbe, NativeBatch, NativeFieldArrays, NativeFieldName, ReduceOp, TransferStats } from './batch-binding.js';

/** The module object of hookmd.node / hookmd_cuda.node. */
export interface NativeBinding {
  NativeBatch: new (backend: string) => NativeBatch;
  LennardJones: NativeLennardJonesConstructor;
  Morse: NativeMorseConstructor;
  EAM: NativeEamConstructor;
  setErrorFactory(factory: (code: string, message: string) => Error): void;
  setThreads(n: number): number;
  getThreads(): number;
  hardwareThreads(): number;
  backends(): NativeBackendProbe[];
  externalViews(): boolean;
  cpuSimd(): CpuSimd;
  readonly napiVersion: number;
  readonly cudaBuild: boolean;
}
