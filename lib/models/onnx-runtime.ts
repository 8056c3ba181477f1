// onnxruntime-node, an optional peer dependency: loaded on first use, so hookmd installs and runs without
// it. The types below are the part of its API that OnnxModel uses, written out so that hookmd's declarations
// never name a package the user may not have.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { HookmdError } from '../errors.js';

/** A tensor as onnxruntime-node builds and returns them. */
export interface OrtTensor {
  readonly type: string;
  readonly dims: readonly number[];
  readonly data: ArrayLike<number | bigint | boolean> | unknown;
}

/** What a session reports about one of its inputs or outputs (onnxruntime-node ≥ 1.20). */
export interface OrtValueMetadata {
  readonly name: string;
  readonly isTensor: boolean;
  readonly type?: string;
  readonly shape?: ReadonlyArray<number | string>;
}

/** An inference session. */
export interface OrtSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  readonly inputMetadata?: readonly OrtValueMetadata[];
  readonly outputMetadata?: readonly OrtValueMetadata[];
  /** Runs the model; `fetches` names the outputs to compute (all when omitted). */
  run(feeds: Record<string, OrtTensor>, fetches?: string[]): Promise<Record<string, OrtTensor>>;
  release(): Promise<void>;
}

/** The onnxruntime-node module. */
export interface OrtModule {
  readonly InferenceSession: { create(path: string, options?: { executionProviders?: string[] }): Promise<OrtSession> };
  readonly Tensor: new (type: string, data: unknown, dims: readonly number[]) => OrtTensor;
  readonly env: { readonly versions?: { readonly node?: string; readonly common?: string } };
  listSupportedBackends?(): ReadonlyArray<{ readonly name: string; readonly bundled: boolean }>;
}

const PACKAGE = 'onnxruntime-node';
/** How to install it without the CUDA download its install script attempts (docs/models.md). */
export const ONNXRUNTIME_INSTALL_HINT: string = `npm install ${PACKAGE} (offline or without a GPU: ONNXRUNTIME_NODE_INSTALL_CUDA=skip npm install ${PACKAGE})`;

let loading: Promise<OrtModule> | undefined;

/**
 * The onnxruntime-node module, imported once; ONNXRUNTIME_MISSING (naming the package and how to install it)
 * when it is not installed.
 */
export function loadOnnxRuntime(owner: string): Promise<OrtModule> {
  loading ??= import(PACKAGE).then(
    (module: { default?: OrtModule } & OrtModule) => module.default ?? module,
    (error: unknown) => {
      loading = undefined;
      throw new HookmdError('ONNXRUNTIME_MISSING', `${owner}: ONNX models need the optional package ${PACKAGE}, which is not installed: ${ONNXRUNTIME_INSTALL_HINT}`, {
        package: PACKAGE,
        reason: error instanceof Error ? error.message : String(error),
      }, { cause: error });
    },
  );
  return loading;
}

/** One execution provider of the installed onnxruntime-node. */
export interface OnnxProvider {
  name: string;
  /** Whether its library is present, so that a session can use it (CUDA's is a separate download). */
  available: boolean;
}

/** What `hookmd info` reports about onnxruntime-node. */
export interface OnnxRuntimeStatus {
  installed: boolean;
  version: string | null;
  providers: OnnxProvider[];
  /** How to install it, when it is not installed. */
  hint: string | null;
}

// The CUDA provider's library, which onnxruntime-node's install script downloads next to its binding.
const PROVIDER_LIBRARIES: Readonly<Record<string, string>> = { cuda: 'libonnxruntime_providers_cuda.so', tensorrt: 'libonnxruntime_providers_tensorrt.so' };

function bindingFolder(): string | undefined {
  try {
    const entry = createRequire(import.meta.url).resolve(PACKAGE);
    return join(dirname(entry), '..', 'bin', 'napi-v6', process.platform, process.arch);
  } catch {
    return undefined;
  }
}

/** The execution providers onnxruntime-node offers here; `available` says whether each can run. */
export function onnxProviders(ort: OrtModule): OnnxProvider[] {
  const folder = bindingFolder();
  return (ort.listSupportedBackends?.() ?? [{ name: 'cpu', bundled: true }]).map(({ name, bundled }) => {
    const library = PROVIDER_LIBRARIES[name];
    const present = bundled || (library !== undefined && folder !== undefined && existsSync(join(folder, library)));
    return { name, available: present };
  });
}

/** Whether onnxruntime-node is installed, its version, and its providers. */
export async function onnxRuntimeStatus(): Promise<OnnxRuntimeStatus> {
  try {
    const ort = await loadOnnxRuntime('hookmd info');
    return { installed: true, version: ort.env.versions?.node ?? ort.env.versions?.common ?? null, providers: onnxProviders(ort), hint: null };
  } catch {
    return { installed: false, version: null, providers: [], hint: ONNXRUNTIME_INSTALL_HINT };
  }
}
