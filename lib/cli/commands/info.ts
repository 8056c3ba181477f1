// `hookmd info`: the version, the backends and whether each can run here, the thread count, the CUDA
// device in use or the reason there is none, whether onnxruntime-node (for OnnxModel) is installed, and the
// model kinds --model takes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Command } from 'commander';

import { isHookmdError } from '../../errors.js';
import { backendInfo, configureNative, loadBinding, PACKAGE_ROOT, type BackendName } from '../../native/index.js';
import { MODEL_KINDS, onnxRuntimeStatus, type OnnxRuntimeStatus } from '../../models/index.js';
import { addRuntimeOptions, applyRuntime, type CommonOptions } from '../options.js';

/** The package version, from package.json. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** One backend and whether it can run here. */
export interface BackendStatus {
  name: BackendName;
  available: boolean;
  /** The device it runs on ('2 threads', the GPU's name), when available. */
  device: string | null;
  /** Why it cannot run, when it cannot. */
  reason: string | null;
}

/** What `hookmd info --json` prints. */
export interface InfoReport {
  version: string;
  backend: BackendName;
  requested: string;
  /** Why the requested backend is not the one in use (it cannot run here), or null. */
  fallback: string | null;
  threads: number;
  backends: BackendStatus[];
  binary: string;
  node: string;
  /** onnxruntime-node, the optional package OnnxModel runs on: whether it is installed, and its providers. */
  onnxruntime: OnnxRuntimeStatus;
  /** The model kinds `--model KIND:…` and configs take, canonical names first (`lj`, `snap`, …). */
  models: string[];
}

/** Gathers the report (loads the addon, and onnxruntime-node when it is installed). */
export async function infoReport(): Promise<InfoReport> {
  const info = backendInfo();
  const probes = loadBinding().backends();
  const hostBackends = probes.filter((probe) => probe.name !== 'cuda');
  const cuda = probes.find((probe) => probe.name === 'cuda');
  // The CPU addon does not know CUDA at all; the loader's fallback reason then says why it was not used.
  const cudaReason = cuda?.available === true ? null : (info.fallbackReason ?? cuda?.reason ?? (info.requested === 'cpu' ? 'the cpu backend was requested' : 'no CUDA build loaded'));
  return {
    version: packageVersion(),
    backend: info.backend,
    requested: info.requested,
    fallback: null,
    threads: info.threads,
    backends: [
      ...hostBackends.map((probe): BackendStatus => ({
        name: probe.name as BackendName,
        available: probe.available,
        device: probe.available ? probe.device : null,
        reason: probe.available ? null : probe.reason,
      })),
      { name: 'cuda', available: cuda?.available === true, device: cuda?.available === true ? cuda.device : null, reason: cudaReason },
    ],
    binary: info.binary,
    node: process.versions.node,
    onnxruntime: await onnxRuntimeStatus(),
    models: [...MODEL_KINDS.names],
  };
}

/** `1.30.0 (providers: cpu, cuda not installed)`, or how to install it. */
function onnxLine(status: OnnxRuntimeStatus): string {
  if (!status.installed) return `not installed (OnnxModel needs it): ${status.hint ?? ''}`;
  const providers = status.providers.map((p) => (p.available ? p.name : `${p.name} not installed`)).join(', ');
  return `${status.version ?? 'installed'} (providers: ${providers})`;
}

function text(report: InfoReport): string {
  const rows: Array<[string, string]> = [
    ['version', report.version],
    ['backend', `${report.backend} (requested: ${report.requested}${report.fallback === null ? '' : `; it cannot run here: ${report.fallback}`})`],
    ['threads', String(report.threads)],
    ...report.backends.map((b): [string, string] => [b.name, b.available ? `available: ${b.device ?? ''}` : `unavailable: ${b.reason ?? ''}`]),
    ['binary', report.binary],
    ['node', report.node],
    ['onnx', onnxLine(report.onnxruntime)],
    ['models', MODEL_KINDS.describe()],
  ];
  return rows.map(([key, value]) => `${key.padEnd(8)} ${value}`).join('\n');
}

/** Why a requested backend failed to load, when that is the failure (the error otherwise). */
function unavailableReason(error: unknown): string | undefined {
  if (!isHookmdError(error)) return undefined;
  if (error.code === 'BACKEND_UNAVAILABLE' && typeof error.details.reason === 'string') return error.details.reason;
  if (error.code === 'NATIVE_BINARY_NOT_FOUND' && Array.isArray(error.details.tried)) return `no CUDA binary found (looked in ${error.details.tried.join(', ')})`;
  return undefined;
}

/**
 * The report for the requested runtime. `info` is a diagnostic: a backend that cannot run here is a finding,
 * so the report then describes the fallback that 'auto' loads and says why, rather than failing.
 */
async function diagnose(options: Pick<CommonOptions, 'backend' | 'threads'>): Promise<InfoReport> {
  try {
    applyRuntime(options);
    return await infoReport();
  } catch (error) {
    const reason = unavailableReason(error);
    // Only cuda has a fallback: cpu and mirror come from the one CPU binary that 'auto' would load too.
    if (reason === undefined || options.backend !== 'cuda') throw error;
    applyRuntime({ ...options, backend: 'auto' });
    const report = await infoReport();
    const backends = report.backends.map((b) => (b.name === options.backend ? { ...b, available: false, device: null, reason } : b));
    return { ...report, requested: options.backend, fallback: reason, backends };
  }
}

/** Adds `info` to the program. */
export function registerInfo(program: Command): void {
  const command = program.command('info').description('version, backends, threads, and the CUDA device or why there is none');
  addRuntimeOptions(command).option('--json', 'print JSON');
  command.action(async (options: Pick<CommonOptions, 'backend' | 'threads' | 'json'>) => {
    const report = await diagnose(options);
    process.stdout.write(`${options.json === true ? JSON.stringify(report, null, 2) : text(report)}\n`);
  });
}
