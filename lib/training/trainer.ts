// Trainer: fits the parameters of a LennardJones or Morse model to reference energies, forces and stress,
// with its loop on the hook kernel (TrainingStage). fit-loop.ts holds the loop; this file the public API,
// the run lifecycle, checkpoints and the canonical config.
import { namedRecord } from '../data/index.js';
import { HookmdError, HookmdTypeError } from '../errors.js';
import { HookRegistry, HookRunner, RunControl } from '../hooks/index.js';
import type { AnyHook, HookHandle, HookLogger, MethodHook, MutableContext, StopRequest } from '../hooks/index.js';
import { MLIAPNetwork, type Model } from '../models/index.js';
import { Adam } from './optimizers/adam.js';
import { CHECKPOINT_HEADER, checkCheckpoint, readCheckpoint, type EpochRecord, type TrainingCheckpoint } from './checkpoint.js';
import { trainerOptionsFromConfig, type TrainerConfigSource } from './config.js';
import type { LoadedCheckpoint, TrainerHandle, TrainingHookContext } from './context.js';
import { TrainingSet, type DataSummary } from './dataset.js';
import { FitLoop, type FitState, type RunScratch } from './fit-loop.js';
import { resolveLossWeights, type ResolvedLossWeights } from './loss-weights.js';
import { configHash, makeMetadata, type RunMetadata } from './metadata.js';
import { optimizerFrom, schedulerFrom } from './factories.js';
import type { Optimizer } from './optimizers/optimizer.js';
import { checkKeys } from './options.js';
import { NetworkSpace } from './network-space.js';
import { ParameterSpace, type PairModelSpec } from './parameters.js';
import { thetaOf, variablesOf, type ParameterTensors, type TrainableSpace } from './trainable-space.js';
import type { LrScheduler } from './schedulers/scheduler.js';
import { TRAINER_METHOD_ALIASES, TRAINER_METHOD_HINTS, TrainingStage } from './stage.js';
import { epochOrder } from './shuffle.js';
import { trainingContext } from './run-context.js';
import { resolveScalars, type FitOptions, type ResolvedScalars, type TrainerOptions } from './trainer-options.js';
import { showValue } from '../describe-value.js';

/**
 * What `fit()` returns.
 *
 * @example
 * const { epochs, parameters, stopped } = await trainer.fit();
 * console.log(epochs.at(-1)?.metrics.val_forces_rmse, parameters);
 */
export interface TrainingHistory {
  /** Every completed epoch, those of earlier (resumed) runs included. */
  readonly epochs: readonly EpochRecord[];
  readonly stepCount: number;
  /** θ at the end of the run. */
  readonly parameters: Readonly<ParameterTensors>;
  /** Set when a hook (EarlyStoppingHook, …) ended the run through ctx.requestStop. */
  readonly stopped: StopRequest | undefined;
  readonly metadata: RunMetadata;
}

/**
 * What `trainer.trainingStep(batch)` returns.
 *
 * @example
 * const { loss, gradNorm, stepCount } = await trainer.trainingStep([0, 1, 2, 3]);
 */
export interface TrainingStepResult {
  /** The step's total loss, before the update. */
  readonly loss: number;
  readonly losses: Readonly<{ energy: number; forces: number; stress: number }>;
  /** The 2-norm of ∂L/∂(ln θ) before any hook changed it. */
  readonly gradNorm: number;
  /** θ after the update. */
  readonly parameters: Readonly<ParameterTensors>;
  /** Optimizer steps taken so far, this one included. */
  readonly stepCount: number;
}

/**
 * The canonical form of a trainer's configuration: what `configHash` hashes.
 *
 * @example
 * trainer.config.optimizer; // { type: 'Adam', lr: 0.02, betas: [0.9, 0.999], eps: 1e-8 }
 */
export interface TrainerConfig {
  /** The model with its starting parameters. */
  readonly model: PairModelSpec | Readonly<Record<string, unknown>>;
  readonly units: 'metal' | 'lj';
  readonly data: { readonly train: DataSummary; readonly validation: DataSummary | null };
  readonly optimizer: Readonly<Record<string, unknown>>;
  readonly lrScheduler: Readonly<Record<string, unknown>> | null;
  readonly epochs: number;
  readonly batchSize: number;
  readonly shuffle: boolean;
  readonly seed: number;
  readonly lossWeights: ResolvedLossWeights;
  /** Each hook's `config` (or its name), with its enabled state. */
  readonly hooks: ReadonlyArray<Readonly<Record<string, unknown>>>;
  /** Present when validation also runs within epochs (so that configs without it keep their hash). */
  readonly validateEvery?: { readonly steps: number };
}

/**
 * Fits LJ ε/σ or Morse D/α/r₀ (per species pair) to reference energies, forces and stress by mini-batch
 * gradient descent on the native loss. The optimizer works on ln θ, so parameters stay positive. Runs
 * are deterministic for a given seed, and resume from a checkpoint bit for bit.
 *
 * @example
 * const trainer = new Trainer({
 *   model: new LennardJones({ epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true }),
 *   train, validation, optimizer: new Adam({ lr: 0.02 }), lrScheduler: new CosineLR({ tMax: 60 }),
 *   epochs: 60, batchSize: 8, hooks: [new EarlyStoppingHook({ monitor: 'val_loss', patience: 10 })], seed: 1,
 * });
 * const history = await trainer.fit();
 * const fitted = trainer.toModel();  // a LennardJones with the fitted ε and σ
 */
export class Trainer implements TrainerHandle {
  /** The training hooks (register, list, enable, disable). */
  readonly hooks: HookRegistry<typeof TrainingStage, TrainingHookContext>;
  readonly optimizer: Optimizer;
  readonly lrScheduler: LrScheduler | null;
  readonly lossWeights: ResolvedLossWeights;
  readonly epochs: number;
  readonly batchSize: number;
  readonly seed: number;
  readonly shuffle: boolean;
  readonly units: 'metal' | 'lj';
  /** Parameter names, in the order of the model's pair table ('Ar-Ar.epsilon', …; 'epsilon' without pairs). */
  readonly parameterNames: readonly string[];
  /** Where hook warnings and error-policy reports go (TrainerOptions.logger; default console). */
  readonly logger: HookLogger;
  readonly #space: TrainableSpace;
  readonly #train: TrainingSet;
  readonly #validation: TrainingSet | null;
  readonly #scalars: ResolvedScalars;
  readonly #state: FitState;
  #metadata: RunMetadata | null = null;
  #running = false;

  constructor(options: TrainerOptions) {
    this.#scalars = resolveScalars(options);
    ({ epochs: this.epochs, batchSize: this.batchSize, seed: this.seed, shuffle: this.shuffle, units: this.units } = this.#scalars);
    this.#space = options.model instanceof MLIAPNetwork ? new NetworkSpace(options.model, 'Trainer') : ParameterSpace.fromModel(options.model, 'Trainer');
    this.parameterNames = this.#space.names;
    this.lossWeights = resolveLossWeights(options.lossWeights, 'Trainer');
    this.optimizer = options.optimizer === undefined ? new Adam() : optimizerFrom(options.optimizer, 'Trainer');
    this.lrScheduler = schedulerFrom(options.lrScheduler, 'Trainer');
    this.#train = new TrainingSet(options.train, this.#space, this.lossWeights, this.units, 'train', true);
    this.#validation = options.validation === undefined ? null : new TrainingSet(options.validation, this.#space, this.lossWeights, this.units, 'validation');
    // θ is always θ(u) (exp(u) for a pair model), from the first step on: a run resumed at step 0 then starts bit for bit alike.
    const variables = variablesOf(this.#space, this.#space.initial);
    const theta = new Float64Array(variables.length);
    thetaOf(this.#space, variables, theta);
    this.#state = {
      variables, theta, epoch: 0, batchIndex: 0, stepCount: 0, epochLossSum: 0, history: [], metrics: namedRecord<number>(), samplesSeen: 0, atomsSeen: 0,
    };
    this.logger = options.logger ?? console;
    this.hooks = new HookRegistry(TrainingStage, { workflow: this, logger: this.logger, methodAliases: TRAINER_METHOD_ALIASES, methodHints: TRAINER_METHOD_HINTS });
    for (const hook of options.hooks ?? []) this.register(hook);
  }

  /**
   * A trainer from a config object, or a JSON/YAML file: `{ model: { type, ...options }, train, validation,
   * optimizer: { type, ... }, lrScheduler, epochs, batchSize, lossWeights, seed, hooks: [{ type, enabled, ... }] }`,
   * with data as extxyz paths (relative to the file) or arrays of systems. Hook types are registered
   * names or module paths (`'./my-hooks.js#MyHook'`, `'some-package#MyHook'`), resolved from the file's
   * directory (the working directory for an object).
   *
   * @example
   * const trainer = Trainer.fromConfig('fit-argon.yaml');
   */
  static fromConfig(source: TrainerConfigSource | string, options: { readonly logger?: HookLogger } = {}): Trainer {
    checkKeys('Trainer.fromConfig', options, ['logger']);
    const { options: trainerOptions, hooks, baseDir } = trainerOptionsFromConfig(source);
    const trainer = new Trainer(options.logger === undefined ? trainerOptions : { ...trainerOptions, logger: options.logger });
    trainer.hooks.fromConfig(hooks, { baseDir });
    return trainer;
  }

  /** Registers a training hook (a stage hook or a method-style hook); returns its handle. */
  register<H extends object>(hook: AnyHook | MethodHook<H>): HookHandle<AnyHook> {
    return this.hooks.register(hook as never) as HookHandle<AnyHook>;
  }

  /** θ now. */
  get parameters(): Readonly<ParameterTensors> {
    return this.#space.values(this.#state.theta);
  }

  /** Optimizer steps taken (across epochs and fit() calls). */
  get stepCount(): number {
    return this.#state.stepCount;
  }

  /** Completed epochs. */
  get epoch(): number {
    return this.#state.epoch;
  }

  get history(): readonly EpochRecord[] {
    return [...this.#state.history];
  }

  /** The metadata of the current (or last) fit(); null before the first. */
  get metadata(): RunMetadata | null {
    return this.#metadata;
  }

  /** The canonical configuration (see {@link TrainerConfig}). */
  get config(): TrainerConfig {
    return {
      model: this.#space.spec(this.#space.initial) as TrainerConfig['model'],
      units: this.units,
      data: { train: this.#train.summary, validation: this.#validation?.summary ?? null },
      optimizer: this.optimizer.config,
      lrScheduler: this.lrScheduler?.config ?? null,
      epochs: this.epochs,
      batchSize: this.batchSize,
      shuffle: this.shuffle,
      seed: this.seed,
      lossWeights: this.lossWeights,
      hooks: this.hooks.handles().map((handle) => {
        const config = (handle.hook as { config?: unknown }).config;
        const described = config !== null && typeof config === 'object' ? config : { name: handle.name };
        return { ...(described as Record<string, unknown>), enabled: handle.enabled };
      }),
      ...(this.#scalars.validateEverySteps === null ? {} : { validateEvery: { steps: this.#scalars.validateEverySteps } }),
    };
  }

  /** SHA-256 of the canonical JSON of `config`. */
  get configHash(): string {
    return configHash(this.config);
  }

  /** A new model of the trained kind with the current parameters. */
  toModel(): Model {
    return this.#space.toModel(this.#state.theta);
  }

  /** The current state as a checkpoint (what CheckpointHook writes). */
  checkpoint(): TrainingCheckpoint {
    const s = this.#state;
    return {
      ...CHECKPOINT_HEADER,
      metadata: this.#metadata ?? makeMetadata(this.config, this.hooks.list(), null),
      model: this.#space.spec(s.theta) as TrainingCheckpoint['model'],
      parameterNames: [...this.parameterNames],
      parameters: this.#space.plainValues(s.theta),
      variables: [...s.variables],
      optimizer: { type: this.optimizer.type, state: this.optimizer.stateDict() },
      lrScheduler: this.lrScheduler === null ? null : { type: this.lrScheduler.type, state: this.lrScheduler.stateDict() },
      hooks: this.hooks.stateDict(),
      epoch: s.epoch,
      batchIndex: s.batchIndex,
      stepCount: s.stepCount,
      epochLossSum: s.epochLossSum,
      history: [...s.history],
      metrics: { ...s.metrics },
      samplesSeen: s.samplesSeen,
      atomsSeen: s.atomsSeen,
      seed: this.seed,
      extra: {},
    };
  }

  /**
   * Trains until `epochs` epochs are complete (or a hook requests a stop) and returns the history. Hooks are
   * opened before BEFORE_TRAIN and closed after AFTER_TRAIN; when anything fails, every hook's onException
   * runs, then AFTER_TRAIN with `ctx.error` set, then close, and the error (a HookError naming the hook and
   * stage, for a hook) propagates.
   */
  async fit(options: FitOptions = {}): Promise<TrainingHistory> {
    checkKeys('Trainer.fit', options, ['resumeFrom', 'signal'], '', { resume: 'resumeFrom', ckpt_path: 'resumeFrom' });
    const signal = options.signal;
    if (signal !== undefined && !(signal instanceof AbortSignal)) {
      throw new HookmdTypeError('INVALID_OPTIONS', 'Trainer.fit: signal must be an AbortSignal', { field: 'signal', value: signal });
    }
    return this.#exclusive('Trainer.fit', async () => {
      let loaded: LoadedCheckpoint | null = null;
      if (options.resumeFrom !== undefined) loaded = this.#resume(options.resumeFrom);
      const resumedFrom = typeof loaded?.checkpoint.metadata?.runId === 'string' ? loaded.checkpoint.metadata.runId : null;
      const { ctx, control, loop, metadata } = this.#prepare(resumedFrom, signal);
      const afterFailure = (error: unknown): Promise<void> => loop.afterFailure(error);
      await new HookRunner(this.hooks, { context: () => ctx, logger: this.logger, afterFailure }).run(() => loop.run(loaded));
      return { epochs: this.history, stepCount: this.stepCount, parameters: this.parameters, stopped: control.stopped, metadata };
    });
  }

  /**
   * One optimizer step on the training systems `batch` (indices into `train`), for users who drive their
   * own loop: the step's stages (BEFORE_STEP … AFTER_STEP, with ON_GRADIENT_CLIP and a save point) fire
   * as in fit(), and stepCount grows by one; epochs and their stages are the caller's. Hooks are not
   * opened or closed here: wrap the loop in `runLifecycle(trainer.hooks, …)` for that.
   *
   * @example
   * for (let epoch = 0; epoch < 10; epoch++) {
   *   for (const batch of [[0, 1], [2, 3]]) await trainer.trainingStep(batch);
   * }
   */
  async trainingStep(batch: ArrayLike<number>): Promise<TrainingStepResult> {
    const systems = this.#checkBatch(batch);
    return this.#exclusive('Trainer.trainingStep', async () => {
      const { ctx, loop } = this.#prepare(null, undefined);
      ctx.batchIndex = this.#state.batchIndex;
      const loss = await loop.step(systems);
      return { loss, losses: ctx.losses, gradNorm: ctx.gradNorm, parameters: this.parameters, stepCount: this.stepCount };
    });
  }

  async #exclusive<T>(op: string, body: () => Promise<T>): Promise<T> {
    if (this.#running) throw new HookmdError('TRAINER_BUSY', `${op}: this trainer is already fitting; await the running fit() or trainingStep() first`, {});
    this.#running = true;
    try {
      return await body();
    } finally {
      this.#running = false;
    }
  }

  #checkBatch(batch: ArrayLike<number>): Int32Array {
    const size = this.#train.size;
    const bad = (problem: string, value: unknown): never => {
      throw new HookmdTypeError('INVALID_BATCH', `Trainer.trainingStep: batch ${problem}`, { field: 'batch', value });
    };
    if (batch === null || typeof batch !== 'object' || typeof batch.length !== 'number') return bad('must be an array of training-set indices', batch);
    if (batch.length === 0) return bad('must hold at least one index', batch);
    const out = new Int32Array(batch.length);
    for (let i = 0; i < batch.length; i++) {
      const k = batch[i];
      if (!Number.isInteger(k) || k < 0 || k >= size) bad(`[${i}] must be an integer in [0, ${size}), got ${showValue(k)}`, k);
      out[i] = k;
    }
    return out;
  }

  // The metadata, context and loop of one run (a fit() or a trainingStep()).
  #prepare(resumedFrom: string | null, signal: AbortSignal | undefined): { ctx: MutableContext<TrainingHookContext>; control: RunControl; loop: FitLoop; metadata: RunMetadata } {
    const metadata = makeMetadata(this.config, this.hooks.list(), resumedFrom);
    this.#metadata = metadata;
    const control = new RunControl();
    const scratch: RunScratch = { pending: [], clip: null, rawGradient: null, gradNorm: Number.NaN };
    const ctx = trainingContext({
      trainer: this, registry: this.hooks, control, scratch, metadata, state: this.#state, numBatches: Math.ceil(this.#train.size / this.batchSize),
    });
    const loop = new FitLoop({
      registry: this.hooks, ctx, control, state: this.#state, space: this.#space, train: this.#train, validation: this.#validation,
      optimizer: this.optimizer, scheduler: this.lrScheduler, scalars: this.#scalars, scratch, snapshot: () => this.checkpoint(), signal,
    });
    return { ctx, control, loop, metadata };
  }

  // Loads a checkpoint into this trainer; returns it with the file it came from.
  #resume(source: string | TrainingCheckpoint): LoadedCheckpoint {
    const checkpoint = typeof source === 'string' ? readCheckpoint(source) : checkCheckpoint(source, 'Trainer.fit: resumeFrom');
    const mismatch = (what: string, saved: unknown, here: unknown): never => {
      throw new HookmdError('CHECKPOINT_MISMATCH', `Trainer.fit: the checkpoint's ${what} (${showValue(saved)}) differs from this trainer's (${showValue(here)})`, {
        field: what,
        saved,
        here,
      });
    };
    if (checkpoint.parameterNames.join() !== this.parameterNames.join()) mismatch('parameterNames', checkpoint.parameterNames, this.parameterNames);
    if (checkpoint.optimizer.type !== this.optimizer.type) mismatch('optimizer', checkpoint.optimizer.type, this.optimizer.type);
    if ((checkpoint.lrScheduler?.type ?? null) !== (this.lrScheduler?.type ?? null)) {
      mismatch('lrScheduler', checkpoint.lrScheduler?.type ?? null, this.lrScheduler?.type ?? null);
    }
    const numBatches = Math.ceil(this.#train.size / this.batchSize);
    if (checkpoint.batchIndex > numBatches) mismatch('batchIndex', checkpoint.batchIndex, `at most ${numBatches} batches per epoch`);
    this.optimizer.loadStateDict(checkpoint.optimizer.state);
    if (this.lrScheduler !== null && checkpoint.lrScheduler !== null) this.lrScheduler.loadStateDict(checkpoint.lrScheduler.state);
    // Hooks added since the checkpoint start fresh; states of hooks no longer registered are ignored.
    this.hooks.loadStateDict(checkpoint.hooks, { strict: false });
    const s = this.#state;
    if (checkpoint.variables.length !== this.#space.size) mismatch('variables', `${checkpoint.variables.length} values`, `${this.#space.size}`);
    s.variables = Float64Array.from(checkpoint.variables);
    s.theta = new Float64Array(s.variables.length);
    thetaOf(this.#space, s.variables, s.theta);
    s.epoch = checkpoint.epoch;
    s.batchIndex = checkpoint.batchIndex;
    s.stepCount = checkpoint.stepCount;
    s.epochLossSum = checkpoint.epochLossSum;
    s.history = [...checkpoint.history];
    for (const key of Object.keys(s.metrics)) delete s.metrics[key];
    Object.assign(s.metrics, checkpoint.metrics);
    // Checkpoints written before these counters existed: what the completed steps saw, from the epoch order.
    const counted = checkpoint.samplesSeen !== undefined && checkpoint.atomsSeen !== undefined;
    const seen = counted ? { samples: checkpoint.samplesSeen as number, atoms: checkpoint.atomsSeen as number } : this.#seenBefore(s.epoch, s.batchIndex);
    s.samplesSeen = seen.samples;
    s.atomsSeen = seen.atoms;
    return { path: typeof source === 'string' ? source : null, checkpoint };
  }

  // Systems and atoms of `epoch` whole epochs plus `batches` mini-batches of the next one.
  #seenBefore(epoch: number, batches: number): { samples: number; atoms: number } {
    const total = this.#train.atomCounts.reduce((sum, n) => sum + n, 0);
    const order = epochOrder(this.#train.size, this.seed, epoch, this.shuffle).slice(0, Math.min(this.#train.size, batches * this.batchSize));
    let atoms = epoch * total;
    for (const k of order) atoms += this.#train.atomCounts[k];
    return { samples: epoch * this.#train.size + order.length, atoms };
  }
}
