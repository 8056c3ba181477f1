// OnnxModel: a force field in an ONNX file, run by onnxruntime-node (an optional peer dependency) on the
// inputs of hookmd's graph-model convention (docs/models.md, "Use your ML potential"). The model's outputs
// are checked (shapes, finite values) before they reach the batch.
import { existsSync } from 'node:fs';

import { HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';
import type { Batch } from '../data/index.js';
import { activeBackend, addBackendNote } from '../native/index.js';
import type { NativeNeighborStats } from '../native/models-binding.js';
import { checkKeys } from '../option-keys.js';
import { checkRegularFile } from '../regular-file.js';
import { computeRequest } from './compute-options.js';
import { GRAPH_INPUTS, GraphInputs, type GraphFloat, type GraphInputName } from './graph-inputs.js';
import type { ComputeOptions, Model, ModelDescription } from './model.js';
import { loadOnnxRuntime, onnxProviders, type OrtModule, type OrtSession, type OrtTensor } from './onnx-runtime.js';
import { SerialQueue } from './serial-queue.js';
import { showText, showValue } from '../describe-value.js';


// protobuf's limit for a model without external data.
const MAX_ONNX_BYTES = 2 * 1024 ** 3;
/** The convention's outputs: energy [B] (eV), forces [N,3] (eV/Å), stress [B,3,3] (eV/Å³, ASE's sign; optional). */
export const GRAPH_OUTPUTS = ['energy', 'forces', 'stress'] as const;
/** One of the convention's output names. */
export type GraphOutputName = (typeof GRAPH_OUTPUTS)[number];

/**
 * Options of `OnnxModel.load(path, options)`.
 *
 * @example
 * await OnnxModel.load('mace-small.onnx', { cutoff: 5, inputs: { edge_index: 'edges' }, outputs: { energy: 'E' } });
 */
export interface OnnxModelOptions {
  /** The model's interaction range: edges join atoms closer than this (Å in metal units). Required. */
  cutoff: number;
  /** Verlet skin of the neighbor lists behind the edges (default: the batch units', 2.0 Å in metal). */
  skin?: number;
  /** The model's name for a convention input, where it differs (convention name → model's name). */
  inputs?: Partial<Record<GraphInputName, string>>;
  /** The model's name for a convention output, where it differs. */
  outputs?: Partial<Record<GraphOutputName, string>>;
  /** Float type of the model's inputs; read from the model when it declares one, which must then agree. */
  dtype?: GraphFloat;
  /** Name in logs and errors (default: the file name). */
  name?: string;
}

/**
 * Where an OnnxModel's computes spent their time (`model.computeStats()`): building the inputs (edges
 * included) and tensors, onnxruntime's run, and checking and copying the outputs into the batch.
 *
 * @example
 * const { computes, inputSeconds, runSeconds, outputSeconds } = model.computeStats();
 * const overhead = (inputSeconds + outputSeconds) / runSeconds; // hookmd's share around the model
 */
export interface OnnxComputeStats {
  computes: number;
  inputSeconds: number;
  runSeconds: number;
  outputSeconds: number;
}

/** The execution provider a model runs on. */
export type OnnxExecutionProvider = 'cuda' | 'cpu';

const FLOAT_INPUTS: readonly GraphInputName[] = ['positions', 'cell', 'edge_shift'];

function fileName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** The float type the model declares for its floating inputs, if it declares one. */
function declaredFloat(session: OrtSession, modelNames: ReadonlyMap<GraphInputName, string>, owner: string): GraphFloat | undefined {
  for (const input of FLOAT_INPUTS) {
    const meta = session.inputMetadata?.find((m) => m.name === modelNames.get(input));
    if (meta?.type === undefined) continue;
    if (meta.type === 'float64' || meta.type === 'float32') return meta.type;
    throw new HookmdTypeError('ONNX_UNSUPPORTED_DTYPE', `${owner}: input '${meta.name}' is ${meta.type}; the convention's floats are float64 or float32`, { field: input, value: meta.type });
  }
  return undefined;
}

/**
 * A force field in an ONNX file, run by onnxruntime-node on hookmd's graph-model convention: positions,
 * atomic numbers, cells, pbc, system indices and the directed edges within `cutoff` (from hookmd's neighbor
 * lists) go in; energy, forces and optionally stress come out (docs/models.md, "Use your ML potential").
 * Its compute is asynchronous: engines await it in `run()` and `runStream()`.
 *
 * @example
 * const model = await OnnxModel.load('lj-argon.onnx', { cutoff: 8.5 });
 * await model.compute(batch);
 * await new FIRE({ model, convergence: ConvergenceHook.fromFmax(0.01) }).run(batch, { steps: 500 });
 */
export class OnnxModel implements Model {
  readonly name: string;
  readonly cutoff: number;
  /** The file it was loaded from. */
  readonly path: string;
  /** Float type of its inputs; outputs of either float type are converted to float64. */
  readonly dtype: GraphFloat;
  /** Where onnxruntime runs it: 'cuda' when hookmd's backend is cuda and onnxruntime offers CUDA, else 'cpu'. */
  readonly executionProvider: OnnxExecutionProvider;
  /** Always true: compute returns a promise. */
  readonly asyncCompute: true = true;
  readonly #ort: OrtModule;
  readonly #session: OrtSession;
  readonly #inputs: GraphInputs;
  readonly #modelInputs: ReadonlyMap<GraphInputName, string>;
  readonly #modelOutputs: ReadonlyMap<GraphOutputName, string>;
  readonly #queue = new SerialQueue();
  readonly #stats: OnnxComputeStats = { computes: 0, inputSeconds: 0, runSeconds: 0, outputSeconds: 0 };
  #closed = false;

  private constructor(path: string, name: string, cutoff: number, dtype: GraphFloat, provider: OnnxExecutionProvider, ort: OrtModule, session: OrtSession,
    inputs: GraphInputs, modelInputs: Map<GraphInputName, string>, modelOutputs: Map<GraphOutputName, string>) {
    this.path = path;
    this.name = name;
    this.cutoff = cutoff;
    this.dtype = dtype;
    this.executionProvider = provider;
    this.#ort = ort;
    this.#session = session;
    this.#inputs = inputs;
    this.#modelInputs = modelInputs;
    this.#modelOutputs = modelOutputs;
  }

  /**
   * Loads `path` and checks its inputs and outputs against the convention: every input the model declares
   * must be a convention input (under its own name or mapped by `inputs`), and it must return energy and
   * forces. Throws ONNXRUNTIME_MISSING when onnxruntime-node is not installed.
   */
  static async load(path: string, options: OnnxModelOptions): Promise<OnnxModel> {
    const owner = `OnnxModel.load(${JSON.stringify(path)})`;
    if (typeof path !== 'string' || path.length === 0) throw new HookmdTypeError('INVALID_PARAMETER', 'OnnxModel.load: path must be a non-empty string', { field: 'path', value: path });
    if (options === null || typeof options !== 'object') throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: options { cutoff, ... } are required`, { field: 'options', value: options });
    checkKeys('OnnxModel', options, ['cutoff', 'skin', 'inputs', 'outputs', 'dtype', 'name']);
    const { cutoff, skin } = options;
    if (typeof cutoff !== 'number' || !Number.isFinite(cutoff) || cutoff <= 0) {
      throw new HookmdRangeError('INVALID_CUTOFF', `${owner}: cutoff must be a finite number > 0, got ${showText(cutoff)}`, { field: 'cutoff', value: cutoff });
    }
    if (skin !== undefined && (typeof skin !== 'number' || !Number.isFinite(skin) || skin < 0)) {
      throw new HookmdRangeError('INVALID_SKIN', `${owner}: skin must be a finite number ≥ 0, got ${showText(skin)}`, { field: 'skin', value: skin });
    }
    if (options.dtype !== undefined && options.dtype !== 'float64' && options.dtype !== 'float32') {
      throw new HookmdTypeError('INVALID_PARAMETER', `${owner}: dtype must be 'float64' or 'float32', got ${showValue(options.dtype)}`, { field: 'dtype', value: options.dtype });
    }
    // onnxruntime would read /dev/zero or a FIFO without end (or block opening it): a regular file only. A
    // missing file stays onnxruntime's to report (ONNX_LOAD_FAILED, as every other file it cannot load).
    try {
      if (existsSync(path)) checkRegularFile(path, MAX_ONNX_BYTES, 'an ONNX model');
    } catch (error) {
      throw new HookmdError('READ_FAILED', `${owner}: cannot read ${path}: ${(error as Error).message}`, { field: 'path', value: path }, { cause: error });
    }
    const name = options.name ?? fileName(path);
    const inputMap = OnnxModel.#names(owner, 'inputs', options.inputs, GRAPH_INPUTS);
    const outputMap = OnnxModel.#names(owner, 'outputs', options.outputs, GRAPH_OUTPUTS);
    const ort = await loadOnnxRuntime(owner);
    const { session, provider } = await OnnxModel.#open(ort, path, owner, name);
    try {
      const modelInputs = new Map<GraphInputName, string>();
      const known = new Map([...inputMap].map(([convention, model]) => [model, convention]));
      for (const input of session.inputNames) {
        const convention = known.get(input);
        if (convention === undefined) {
          throw new HookmdTypeError('ONNX_UNKNOWN_INPUT', `${owner}: the model's input '${input}' is not one of the convention's (${GRAPH_INPUTS.join(', ')}); map it with the inputs option`, { field: 'inputs', value: input });
        }
        modelInputs.set(convention, input);
      }
      const modelOutputs = new Map<GraphOutputName, string>();
      for (const [convention, output] of outputMap) {
        if (session.outputNames.includes(output)) modelOutputs.set(convention, output);
        else if (convention !== 'stress') {
          throw new HookmdTypeError('ONNX_MISSING_OUTPUT', `${owner}: the model has no output '${output}' (${convention}); it has ${session.outputNames.join(', ')}; map it with the outputs option`, { field: 'outputs', value: output });
        }
      }
      const declared = declaredFloat(session, modelInputs, owner);
      if (declared !== undefined && options.dtype !== undefined && declared !== options.dtype) {
        throw new HookmdTypeError('ONNX_DTYPE_MISMATCH', `${owner}: dtype '${options.dtype}' was given, but the model's inputs are ${declared}`, { field: 'dtype', value: options.dtype, expected: declared });
      }
      const dtype = declared ?? options.dtype ?? 'float64';
      const inputs = new GraphInputs(cutoff, skin, dtype, modelInputs.keys());
      return new OnnxModel(path, name, cutoff, dtype, provider, ort, session, inputs, modelInputs, modelOutputs);
    } catch (error) {
      await session.release();
      throw error;
    }
  }

  /** The convention name → model name map, every convention name mapped to itself unless `given` renames it. */
  static #names<N extends string>(owner: string, field: string, given: unknown, names: readonly N[]): Map<N, string> {
    if (given !== undefined && (given === null || typeof given !== 'object' || Array.isArray(given))) {
      throw new HookmdTypeError('INVALID_PARAMETER', `${owner}: ${field} must be an object of convention name → model name`, { field, value: given });
    }
    const map = new Map<N, string>(names.map((n) => [n, n]));
    for (const [key, value] of Object.entries(given ?? {})) {
      if (!(names as readonly string[]).includes(key)) {
        throw new HookmdTypeError('UNKNOWN_OPTION', `${owner}: ${field}.${key} is not a convention name (${names.join(', ')})`, { field: `${field}.${key}`, value: key });
      }
      if (typeof value !== 'string' || value.length === 0) {
        throw new HookmdTypeError('INVALID_PARAMETER', `${owner}: ${field}.${key} must be the model's name for it, a non-empty string`, { field: `${field}.${key}`, value });
      }
      map.set(key as N, value);
    }
    return map;
  }

  /**
   * A session on the CUDA execution provider when hookmd's backend is cuda and onnxruntime offers CUDA,
   * else on the CPU provider; the choice and its reason go to `backendInfo().notes`.
   */
  static async #open(ort: OrtModule, path: string, owner: string, name: string): Promise<{ session: OrtSession; provider: OnnxExecutionProvider }> {
    const create = async (providers: string[]): Promise<OrtSession> => {
      try {
        return await ort.InferenceSession.create(path, { executionProviders: providers });
      } catch (error) {
        throw new HookmdError('ONNX_LOAD_FAILED', `${owner}: onnxruntime could not load the model: ${error instanceof Error ? error.message : String(error)}`, { field: 'path', value: path }, { cause: error });
      }
    };
    const backend = activeBackend();
    let reason: string;
    if (backend !== 'cuda') {
      reason = `hookmd's backend is ${backend}`;
    } else if (!onnxProviders(ort).some((p) => p.name === 'cuda' && p.available)) {
      reason = "onnxruntime-node offers no CUDA provider here (its CUDA libraries are installed with ONNXRUNTIME_NODE_INSTALL=cuda12 npm install onnxruntime-node)";
    } else {
      try {
        const session = await create(['cuda']);
        addBackendNote(`OnnxModel ${name}: onnxruntime's CUDA execution provider`);
        return { session, provider: 'cuda' };
      } catch (error) {
        reason = `onnxruntime's CUDA provider failed: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    const session = await create(['cpu']);
    addBackendNote(`OnnxModel ${name}: onnxruntime's CPU execution provider (${reason})`);
    return { session, provider: 'cpu' };
  }

  /** Always undefined: engines call compute() from JS for this model. */
  get native(): undefined {
    return undefined;
  }

  /** Edges of the last compute. */
  get edgeCount(): number {
    return this.#inputs.edgeCount;
  }

  /** Counters of the neighbor lists behind the edges: builds so far, pairs and bytes held now. */
  neighborStats(): NativeNeighborStats {
    return this.#inputs.neighborStats();
  }

  /**
   * Runs the model on the batch's current positions and writes `batch.energy`, `batch.forces` (unless
   * `forces: false`) and `batch.stress` (when `stress: true`; the model must return it). Computes one at a
   * time: a second call waits for the first.
   */
  compute(batch: Batch, options: ComputeOptions = {}): Promise<void> {
    return this.#queue.run(() => this.#compute(batch, options));
  }

  async #compute(batch: Batch, options: ComputeOptions): Promise<void> {
    const owner = `${this.name}.compute`;
    if (this.#closed) throw new HookmdError('MODEL_CLOSED', `${owner}: the model was closed`, { field: 'model' });
    const { forces, stress } = computeRequest(this.name, options);
    if (stress && !this.#modelOutputs.has('stress')) {
      throw new HookmdTypeError('STRESS_UNAVAILABLE', `${owner}: the stress was asked for, but the model has no stress output (map one with the outputs option)`, { field: 'stress' });
    }
    const started = performance.now();
    const feeds: Record<string, OrtTensor> = {};
    for (const [name, input] of this.#inputs.build(batch)) {
      feeds[this.#modelInputs.get(name) as string] = new this.#ort.Tensor(input.type, input.data, input.dims);
    }
    const wanted: GraphOutputName[] = ['energy', ...(forces ? (['forces'] as const) : []), ...(stress ? (['stress'] as const) : [])];
    const prepared = performance.now();
    let results: Record<string, OrtTensor>;
    try {
      results = await this.#session.run(feeds, wanted.map((name) => this.#modelOutputs.get(name) as string));
    } catch (cause) {
      // onnxruntime's own error names neither the model nor the call: both, and the batch it was given.
      const call = this.#stats.computes + 1;
      throw new HookmdError('ONNX_RUN_FAILED', `${owner}: onnxruntime failed while running ${this.path} (compute call ${call}, ${batch.numSystems} systems, ${batch.numAtoms} atoms): ${cause instanceof Error ? cause.message : String(cause)}`, {
        model: this.name, path: this.path, call, systems: batch.numSystems, atoms: batch.numAtoms,
      }, { cause });
    }
    const ran = performance.now();
    this.#stats.computes += 1;
    this.#stats.inputSeconds += (prepared - started) / 1000;
    this.#stats.runSeconds += (ran - prepared) / 1000;
    const energy = this.#output(results, 'energy', batch.numSystems, owner);
    const values = wanted.map((name) => [name, name === 'energy' ? energy : this.#output(results, name, (name === 'forces' ? 3 * batch.numAtoms : 9 * batch.numSystems), owner)] as const);
    for (const [name, value] of values) batch[name].set(value);
    batch.markResults({ energy: true, ...(forces ? { forces: true } : {}), ...(stress ? { stress: true } : {}) });
    this.#stats.outputSeconds += (performance.now() - ran) / 1000;
  }

  /**
   * Time spent so far, split into building the inputs, onnxruntime's run (which includes the wait for the
   * event loop's next turn) and handling the outputs; `runSeconds` is the model's, the rest hookmd's.
   */
  computeStats(): OnnxComputeStats {
    return { ...this.#stats };
  }

  /** Output `name` as float64, checked: `length` values, every one finite. */
  #output(results: Record<string, OrtTensor>, name: GraphOutputName, length: number, owner: string): Float64Array {
    const modelName = this.#modelOutputs.get(name) as string;
    const data = results[modelName]?.data;
    if (!(data instanceof Float64Array || data instanceof Float32Array)) {
      throw new HookmdTypeError('INVALID_MODEL_OUTPUT', `${owner}: output '${modelName}' (${name}) must be a float32 or float64 tensor`, { field: name, value: results[modelName]?.type });
    }
    if (data.length !== length) {
      throw new HookmdTypeError('LENGTH_MISMATCH', `${owner}: output '${modelName}' (${name}) has ${data.length} values, expected ${length}`, { field: name, value: data.length, expected: length });
    }
    const out = data instanceof Float64Array ? data : Float64Array.from(data);
    const bad = out.findIndex((v) => !Number.isFinite(v));
    if (bad >= 0) {
      const per = name === 'forces' ? 'atom' : 'system';
      const index = name === 'energy' ? bad : Math.floor(bad / (name === 'forces' ? 3 : 9));
      throw new HookmdRangeError('INVALID_MODEL_OUTPUT', `${owner}: output '${modelName}' (${name}) is ${out[bad]} for ${per} ${index}; values must be finite`, { field: name, [per]: index, value: out[bad] });
    }
    return out;
  }

  describe(): ModelDescription {
    return { name: this.name, cutoff: this.cutoff, kind: 'OnnxModel', path: this.path, dtype: this.dtype, executionProvider: this.executionProvider, inputs: Object.fromEntries(this.#modelInputs), outputs: Object.fromEntries(this.#modelOutputs) };
  }

  /** Releases the onnxruntime session; a later compute is MODEL_CLOSED. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue.idle();
    await this.#session.release();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
