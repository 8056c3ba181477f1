// The JSON Schema of `hookmd run` configs. `hookmd schema` prints it, docs/config.schema.json is that
// output, and the CLI validates every config (and `--model-config` file) against this same object.
import { PAIR_MODELS } from '../models/index.js';
import type { JsonSchema } from './json-schema.js';
import { MAX_THREADS } from './threads.js';

const positive = (description: string): JsonSchema => ({ type: 'number', exclusiveMinimum: 0, description });
const nonNegative = (description: string): JsonSchema => ({ type: 'number', minimum: 0, description });
const count = (description: string): JsonSchema => ({ type: 'integer', minimum: 1, description });
const text = (description: string): JsonSchema => ({ type: 'string', minLength: 1, description });
const flag = (description: string): JsonSchema => ({ type: 'boolean', description });
const frequency: JsonSchema = count('Fire every this many steps.');
const hookName: JsonSchema = text('Name shown in hook listings and errors.');

/** The DynamicsStage names, for hook arguments that pick a stage. */
const DYNAMICS_STAGE_NAMES: readonly string[] = [
  'BEFORE_STEP', 'BEFORE_PRE_UPDATE', 'AFTER_PRE_UPDATE', 'BEFORE_COMPUTE', 'AFTER_COMPUTE',
  'BEFORE_POST_UPDATE', 'AFTER_POST_UPDATE', 'AFTER_STEP', 'ON_CONVERGE',
];

function model(type: string, parameters: Record<string, JsonSchema>, pair: JsonSchema): JsonSchema {
  const names = Object.keys(parameters);
  return {
    type: 'object',
    required: ['type'],
    properties: {
      type: { const: type },
      ...parameters,
      cutoff: positive('Cutoff r_c (Å in metal units, σ in lj) of every pair, or the default of pairs without one.'),
      pairs: { type: 'object', description: "Per species pair, keyed 'A-B' by symbol or atomic number; no mixing rule.", additionalProperties: pair },
      shift: flag('Shift each pair energy to 0 at the cutoff (default false).'),
      switchOn: positive('Start of the XPLOR switch (length units); exclusive with shift.'),
      skin: nonNegative('Verlet skin (length units; default 2.0 Å in metal units, 0.3 σ in lj).'),
    },
    additionalProperties: false,
    if: { required: ['pairs'] },
    else: { required: [...names, 'cutoff'] },
  };
}

function pairOf(parameters: Record<string, JsonSchema>): JsonSchema {
  return {
    type: 'object',
    required: Object.keys(parameters),
    properties: { ...parameters, cutoff: positive('This pair’s cutoff (length units).') },
    additionalProperties: false,
  };
}

/** The schema of each pair model, from its declaration (lib/models/pair-models.ts). */
const PAIR_MODEL_SCHEMAS: JsonSchema[] = PAIR_MODELS.map((declared) => {
  const parameters = Object.fromEntries(
    declared.parameters.map((rule) => [rule.name, rule.allowZero ? nonNegative(rule.description) : positive(rule.description)]),
  );
  return model(declared.kind, parameters, pairOf(parameters));
});

/** An EAM potential file: a path (relative to the config file; on the command line, to the working directory). */
const EAM_MODEL: JsonSchema = {
  type: 'object',
  required: ['type', 'file'],
  properties: {
    type: { const: 'eam' },
    file: text('LAMMPS EAM potential file: funcfl (*.eam), setfl (*.eam.alloy) or Finnis–Sinclair (*.eam.fs).'),
    format: { enum: ['funcfl', 'setfl', 'fs'], description: 'The file’s format (default: from its name, else its content).' },
    skin: nonNegative('Verlet skin (Å; default 2.0).'),
  },
  additionalProperties: false,
};

/** The species of a Tersoff or Stillinger–Weber file: element symbols, or a map from element symbols to the file's names. */
const MANY_BODY_ELEMENTS: JsonSchema = {
  description: "Elements to use, as pair_coeff names them: symbols (['Si', 'C']) or { symbol: name in the file } (default: every element of the file).",
  oneOf: [
    { type: 'array', items: { type: 'string' }, minItems: 1 },
    { type: 'object', additionalProperties: { type: 'string' } },
  ],
};

/** A Tersoff parameter file (LAMMPS `tersoff`, `tersoff/mod`, `tersoff/zbl`). */
const TERSOFF_MODEL: JsonSchema = {
  type: 'object',
  required: ['type', 'file'],
  properties: {
    type: { const: 'tersoff' },
    file: text('LAMMPS Tersoff parameter file (*.tersoff, *.tersoff.mod, *.tersoff.zbl).'),
    style: { enum: ['mod', 'zbl'], description: 'The variant (default: what the file’s entries say).' },
    elements: MANY_BODY_ELEMENTS,
    skin: nonNegative('Verlet skin (Å; default 2.0).'),
  },
  additionalProperties: false,
};

/** A Stillinger–Weber parameter file (LAMMPS `sw`). */
const SW_MODEL: JsonSchema = {
  type: 'object',
  required: ['type', 'file'],
  properties: {
    type: { const: 'sw' },
    file: text('LAMMPS Stillinger–Weber parameter file (*.sw).'),
    elements: MANY_BODY_ELEMENTS,
    skin: nonNegative('Verlet skin (Å; default 2.0).'),
  },
  additionalProperties: false,
};

/** The ZBL core of a SNAP or ML-IAP model given file by file (an include file sets its own). */
const ZBL_CORE: JsonSchema = {
  type: 'object',
  required: ['inner', 'outer'],
  description: 'A ZBL core under the potential, as pair_style hybrid/overlay zbl inner outer adds it.',
  properties: {
    inner: nonNegative('Where the switching to zero starts (Å).'),
    outer: nonNegative('Where the core ends (Å).'),
    charges: { type: 'object', additionalProperties: { type: 'number' }, description: 'Nuclear charge of each element (default: its atomic number).' },
  },
  additionalProperties: false,
};

/** A SNAP potential: a LAMMPS include file (*.snap), or its .snapcoeff and .snapparam files. */
const SNAP_MODEL: JsonSchema = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { const: 'snap' },
    file: text('LAMMPS include file (*.snap: pair_style snap, or hybrid/overlay zbl … snap); or give coefficients and parameters.'),
    coefficients: text('The .snapcoeff file (instead of file).'),
    parameters: text('The .snapparam file (instead of file).'),
    elements: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'Elements to use, as pair_coeff names them (default: every element of the coefficient file).' },
    zbl: ZBL_CORE,
    skin: nonNegative('Verlet skin (Å; default 2.0).'),
  },
  additionalProperties: false,
};

/** An ML-IAP potential on the sna or so3 descriptor: a LAMMPS include file (*.mliap), or its model and descriptor files. */
const MLIAP_MODEL: JsonSchema = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { const: 'mliap' },
    file: text('LAMMPS include file (*.mliap: pair_style mliap model … descriptor sna|so3 …); or give model and descriptor.'),
    model: text('The model file (instead of file).'),
    descriptor: text('The sna or so3 descriptor file (instead of file).'),
    descriptorStyle: { enum: ['sna', 'so3'], description: 'The descriptor style (default: so3 when the file sets nmax, lmax or alpha, else sna).' },
    kind: { enum: ['linear', 'quadratic', 'nn'], description: 'The model kind (default: nn for a NET file, else what its coefficient count says).' },
    elements: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'Elements to use, as pair_coeff names them (default: the descriptor’s).' },
    zbl: ZBL_CORE,
    skin: nonNegative('Verlet skin (Å; default 2.0).'),
  },
  additionalProperties: false,
};

/** A model in an ONNX file on hookmd's graph-model convention (docs/models.md), run by onnxruntime-node. */
const ONNX_MODEL: JsonSchema = {
  type: 'object',
  required: ['type', 'file', 'cutoff'],
  properties: {
    type: { const: 'onnx' },
    file: text('ONNX model file (relative to the config file; on the command line, to the working directory).'),
    cutoff: positive('Interaction range of the model: edges join atoms closer than this (Å).'),
    skin: nonNegative('Verlet skin of the neighbor lists behind the edges (Å; default 2.0).'),
    dtype: { enum: ['float64', 'float32'], description: 'Float type of the inputs (default: what the model declares).' },
    inputs: { type: 'object', description: 'The model’s names of convention inputs that it names differently.', additionalProperties: text('The model’s input name.') },
    outputs: { type: 'object', description: 'The model’s names of convention outputs that it names differently.', additionalProperties: text('The model’s output name.') },
  },
  additionalProperties: false,
};

/** Forces from clients of an i-PI socket server (ASE's SocketClient, CP2K, Quantum ESPRESSO, LAMMPS, ...). */
const IPI_MODEL: JsonSchema = {
  type: 'object',
  required: ['type', 'address'],
  properties: {
    type: { const: 'ipi' },
    address: text("'unix:NAME' (the socket /tmp/ipi_NAME) or 'HOST:PORT' (TCP; 'PORT' alone listens on 127.0.0.1)."),
    clients: count('How many clients may be connected at once (default 1).'),
    timeout: positive('Seconds to wait for any one reply of a client, a force evaluation included (default 600).'),
  },
  additionalProperties: false,
};

const budget: JsonSchema = count('Step budget: a system moves on to the next stage (or finishes) after this many steps here.');
const fmax: JsonSchema = positive('Converged when the largest per-atom force is ≤ fmax (eV/Å in metal units); the system then moves on.');
const dt = positive('Time step (fs in metal units, τ in lj; default 1 fs or 0.005 τ).');
const temperature = nonNegative('Target temperature (K in metal units, ε/k_B in lj).');
// Pressures and frictions are strings with their unit (lib/cli/quantity.ts checks them when the engines are
// built); in lj units, where they are reduced, a bare number.
const PRESSURE_UNITS = 'Pa, kPa, MPa, GPa, bar, kbar, atm or eV/A^3';
const pressure = (what: string): JsonSchema => ({
  description: `${what}, with its unit: "1 GPa", "1 bar", "0.0062 eV/A^3" (${PRESSURE_UNITS}). A bare number is refused in metal units (LAMMPS metal means bar, ASE eV/Å³); in lj units it is the only form (ε/σ³).`,
  examples: ['1 bar', '1 GPa', '0.0062415 eV/A^3'],
});

// Initial velocities of an MD stage (LAMMPS's `velocity create`): systems arrive at rest from an optimizer.
const velocities: JsonSchema = {
  type: 'object',
  description: 'Draw each system’s velocities from Maxwell–Boltzmann (total momentum removed) when it enters this stage. Systems leave an optimizer at rest; without this they start this stage with the velocities they have.',
  required: ['temperature'],
  properties: {
    temperature: nonNegative('Temperature of the draw (K in metal units, ε/k_B in lj).'),
    seed: { type: 'integer', minimum: 0, description: 'Random seed (default 0).' },
  },
  additionalProperties: false,
};

function stage(type: string, description: string, parameters: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return {
    type: 'object',
    description,
    required: ['type', ...required],
    properties: { type: { const: type }, steps: budget, ...parameters },
    additionalProperties: false,
  };
}

const FIRE_PARAMETERS: Record<string, JsonSchema> = {
  fmax,
  dt: positive('Initial step (default 0.1).'),
  dtMax: positive('Largest step (default 1.0).'),
  dtMin: positive('Smallest step (default 0.02·dt).'),
  maxStep: positive('Largest displacement per step (Å in metal units; default 0.2).'),
  nMin: { type: 'integer', minimum: 0, description: 'Downhill steps before dt grows (default 5).' },
  fInc: positive('dt growth factor (default 1.1).'),
  fDec: positive('dt shrink factor (default 0.5).'),
  alphaStart: nonNegative('Initial mixing α (default 0.1).'),
  fAlpha: positive('α decay factor (default 0.99).'),
};

// Variable-cell relaxation through a cell filter (ASE's FrechetCellFilter) on any optimizer stage.
const cell: JsonSchema = {
  type: 'object',
  description: 'Relax each cell with its atoms (ASE FrechetCellFilter). A system converges when fmax holds and every |σ_ij + P·δ_ij| ≤ stress.',
  properties: {
    pressure: pressure('Target pressure P (default 0)'),
    hydrostaticStrain: flag('Only scale the cell, keeping its shape (default false).'),
    stress: pressure('Stress convergence threshold (default fmax/100 per length unit, in eV/Å³)'),
  },
  additionalProperties: false,
};

const STAGES: readonly JsonSchema[] = [
  stage('fire', 'FIRE relaxation (ASE semantics and defaults).', { ...FIRE_PARAMETERS, cell }),
  stage('fire2', 'FIRE 2.0 relaxation.', { ...FIRE_PARAMETERS, cell }),
  stage('gd', 'Gradient descent with a capped step.', {
    fmax,
    stepSize: positive('x += stepSize·F (Å²/eV in metal units; default 0.01).'),
    maxStep: positive('Largest displacement per step (default 0.2).'),
    cell,
  }),
  stage('lbfgs', 'L-BFGS relaxation (ASE semantics and defaults), each system with its own history.', {
    fmax,
    memory: count('Position/force pairs kept per system (default 100).'),
    maxStep: positive('Largest displacement of one atom per step (Å in metal units; default 0.2).'),
    alpha: positive('Initial Hessian guess (eV/Å² in metal units; default 70).'),
    damping: positive('Factor on every step (default 1).'),
    cell,
  }),
  // MD never converges: without `steps` its systems would run until stream.maxSteps, a number the config never
  // stated, so MD stages must say how long they run.
  stage('nve', 'Velocity Verlet (NVE).', { dt, velocities }, ['steps']),
  stage('langevin', 'Langevin NVT (BAOAB).', {
    dt,
    temperature,
    friction: {
      description: 'Friction γ with its unit: "0.01/fs" or "10/ps" (a bare number is refused in metal units); in lj units a bare number (1/τ). Default 0.01/fs, or 1 in lj.',
      examples: ['0.01/fs', '10/ps'],
    },
    seed: { type: 'integer', minimum: 0, description: 'Random seed (default 0).' },
    velocities,
  }, ['temperature', 'steps']),
  stage('nhc', 'Nosé–Hoover chain NVT.', {
    dt,
    temperature: positive('Target temperature (K in metal units, ε/k_B in lj).'),
    tdamp: positive('Thermostat damping time (default 100·dt).'),
    chainLength: { type: 'integer', minimum: 1, maximum: 10, description: 'Chain length (default 3).' },
    velocities,
  }, ['temperature', 'steps']),
  stage('npt', 'NPT: Nosé–Hoover chains and the Martyna–Tobias–Klein barostat (LAMMPS fix npt); orthorhombic cells.', {
    dt,
    temperature: positive('Target temperature (K in metal units, ε/k_B in lj).'),
    pressure: pressure('Target pressure'),
    tdamp: positive('Thermostat damping time (default 100·dt).'),
    pdamp: positive('Barostat damping time (default 1000·dt).'),
    couple: { enum: ['iso', 'aniso'], description: 'iso: the cell scales uniformly (default); aniso: each axis on its own.' },
    chainLength: { type: 'integer', minimum: 1, maximum: 10, description: 'Links of each chain (default 3).' },
    velocities,
  }, ['temperature', 'pressure', 'steps']),
  stage('npt-langevin', 'NPTLangevin: Langevin dynamics and stochastic cell rescaling (Bernetti–Bussi C-rescale), isotropic; any cell shape.', {
    dt,
    temperature,
    pressure: pressure('Target pressure'),
    friction: {
      description: 'Friction γ with its unit: "0.01/fs" or "10/ps" (a bare number is refused in metal units); in lj units a bare number (1/τ). Default 0.01/fs, or 1 in lj.',
      examples: ['0.01/fs', '10/ps'],
    },
    compressibility: {
      description: 'Isothermal compressibility with its unit: "4.5e-5/bar" (the default, water\'s, as GROMACS uses), "0.01/GPa", "72 A^3/eV"; in lj units a bare number (σ³/ε), required there. It sets how fast the volume follows the pressure.',
      examples: ['4.5e-5/bar', '0.01/GPa'],
    },
    pdamp: positive('Barostat relaxation time τ_p (default 1000·dt).'),
    seed: { type: 'integer', minimum: 0, description: 'Random seed (default 0).' },
    velocities,
  }, ['temperature', 'pressure', 'steps']),
];

const sinkFile: Record<string, JsonSchema> = {
  path: text('Output file, relative to the working directory: .xyz or .extxyz (extxyz), .zarr (Zarr v3 store), .traj (ASE trajectory), .lammpstrj or .dump (LAMMPS dump), .h5md or .h5 (H5MD).'),
  capacity: count('Systems buffered before each write.'),
  units: { enum: ['metal', 'lj'], description: 'Units of the file (default: the run’s units).' },
};

/** Argument schemas of the built-in hook types; other registered types (plugins) take any arguments. */
const HOOK_ARGUMENTS: Readonly<Record<string, { required?: string[]; properties: Record<string, JsonSchema> }>> = {
  LoggingHook: {
    required: ['path'],
    properties: {
      path: text('Log file, relative to the working directory.'),
      format: { enum: ['csv', 'jsonl'], description: 'File format (default csv).' },
      frequency,
      stage: { enum: DYNAMICS_STAGE_NAMES, description: 'Stage to log at (default AFTER_STEP).' },
      bufferRows: count('Rows held before they are appended (default 1000).'),
      name: hookName,
    },
  },
  SnapshotHook: {
    required: ['path'],
    properties: { ...sinkFile, frequency, stage: { enum: DYNAMICS_STAGE_NAMES, description: 'Stage to snapshot at (default AFTER_STEP).' }, name: hookName },
  },
  ConvergedSnapshotHook: { required: ['path'], properties: { ...sinkFile, name: hookName } },
  ProgressHook: { properties: { frequency } },
  EnergyDriftMonitorHook: {
    properties: { frequency, maxRelativeDrift: positive('Fail the run when |E − E₀|/|E₀| of a system exceeds this.'), name: hookName },
  },
  MaxForceClampHook: { required: ['maxForce'], properties: { maxForce: positive('Cap on each atom’s |F| (eV/Å in metal units).'), frequency } },
  WrapPeriodicHook: { properties: { frequency } },
  NaNDetectorHook: { properties: { frequency } },
  // The analysis hooks write their series to `path` when the run ends (lib/cli/analysis-hooks.ts).
  RdfHook: {
    required: ['rmax', 'path'],
    properties: {
      rmax: positive('Largest distance binned (Å in metal units); each periodic cell must be thicker than 2·rmax.'),
      nbins: count('Bins of width rmax/nbins (default 100).'),
      frequency,
      path: text('csv file of each system’s g(r), averaged over the states the hook saw (systemId,frames,r[Å],g); relative to the working directory.'),
      name: hookName,
    },
  },
  MsdHook: { required: ['path'], properties: { frequency, path: text('csv file of each system’s mean squared displacement (step,time[fs],systemId,msd[Å^2]); relative to the working directory.'), name: hookName } },
  VacfHook: { required: ['path'], properties: { frequency, path: text('csv file of each system’s velocity autocorrelation (step,time[fs],systemId,vacf[Å^2/fs^2]); relative to the working directory.'), name: hookName } },
};

// Keys the hook kernel takes from every entry, whatever its type (docs/hooks.md, "Config files").
const KERNEL_KEYS: Record<string, JsonSchema> = {
  errorPolicy: { enum: ['raise', 'warn', 'ignore', 'disable'], description: 'What a failure of the hook does (default raise).' },
  order: { type: 'number', description: 'Lower runs first among hooks of its tier (default 0).' },
};

const HOOK: JsonSchema = {
  type: 'object',
  description: 'A hook by registered type name, with its arguments.',
  required: ['type'],
  properties: {
    type: text("A registered hook type (a built-in below, or one a plugin registers), or a module path 'file.js#Export' relative to the config."),
    enabled: flag('false leaves the hook out (default true).'),
    ...KERNEL_KEYS,
  },
  allOf: Object.entries(HOOK_ARGUMENTS).map(([type, args]) => ({
    if: { properties: { type: { const: type } } },
    then: {
      required: args.required ?? [],
      properties: { type: { const: type }, enabled: flag('false leaves the hook out.'), ...KERNEL_KEYS, ...args.properties },
      additionalProperties: false,
    },
  })),
};

/**
 * The schema of a model description: `{ type: 'lj' | 'morse' | 'eam' | 'tersoff' | 'sw' | 'snap' | 'mliap' | 'onnx' | 'ipi', ...parameters }`
 * (`--model-config`, and
 * `model` in a run config).
 */
export const MODEL_SCHEMA: JsonSchema = {
  description: 'The force field.',
  oneOf: [...PAIR_MODEL_SCHEMAS, EAM_MODEL, TERSOFF_MODEL, SW_MODEL, SNAP_MODEL, MLIAP_MODEL, ONNX_MODEL, IPI_MODEL],
};

/**
 * The schema of `hookmd run` configs (YAML or JSON). Files the config reads (input, plugins) are relative
 * to it; files the run writes (sinks, hook outputs) are relative to the working directory.
 *
 * @example
 * validateSchema(YAML.parse(text), CONFIG_SCHEMA); // [] when the config is valid
 */
export const CONFIG_SCHEMA: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'hookmd run configuration',
  description: 'Input structures stream through a pipeline of stages (one engine, or several fused) into sinks.',
  type: 'object',
  // A run without sinks would compute every system and write none of them.
  required: ['model', 'input', 'stages', 'sinks'],
  properties: {
    units: { enum: ['metal', 'lj'], description: 'Unit system of the input, the parameters and the outputs (default metal).' },
    backend: { enum: ['auto', 'cpu', 'mirror', 'cuda'], description: 'Native backend (default auto); --backend overrides it.' },
    threads: { type: 'integer', minimum: 0, maximum: MAX_THREADS, description: 'CPU threads (0: the CPUs this process may use); --threads overrides it.' },
    plugins: { type: 'array', description: 'ES modules imported before the hooks are built; they may call registerHookType.', items: text('Module path, relative to the config file.') },
    model: { $ref: '#/$defs/model' },
    input: text('extxyz file of input structures, relative to the config file; read as a stream.'),
    stages: {
      type: 'array',
      minItems: 1,
      description: 'Engines applied in order; several are fused (one force computation per step). A system finishes when it leaves the last stage.',
      items: { $ref: '#/$defs/stage' },
    },
    hooks: { type: 'array', description: 'Hooks on the whole pipeline, by registered name.', items: { $ref: '#/$defs/hook' } },
    sinks: { type: 'array', minItems: 1, description: 'Where finished systems go (at least one).', items: { $ref: '#/$defs/sink' } },
    constraints: {
      type: 'object',
      description: 'Constraints on every system in every stage (ASE’s FixAtoms, FixCom, FixSymmetry).',
      properties: {
        fixAtoms: { type: 'array', description: 'Atom indices (from 0, in each system’s order) fixed in every input system, beside those a POSCAR’s selective dynamics fixes.', items: { type: 'integer', minimum: 0 }, minItems: 1 },
        fixCom: flag('Hold each system’s centre of mass (of its mobile atoms beside fixed ones); the temperature counts 3 fewer degrees of freedom.'),
        symmetry: { description: 'Keep each system’s space group: true, or the tolerance symprec (Å in metal units; default 0.01).', oneOf: [{ type: 'boolean' }, positive('symprec')] },
      },
      additionalProperties: false,
    },
    stream: {
      type: 'object',
      description: 'Batching: how the stream of input structures fills the batch.',
      properties: {
        maxAtoms: count('Atom budget of the batch (default 65536).'),
        refillEvery: count('Steps between graduations and refills (default 10).'),
        maxSteps: count('A system leaves unconverged after this many steps (default 10000).'),
        restoreOrder: flag('Write systems in input order (default true).'),
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
  $defs: {
    model: MODEL_SCHEMA,
    stage: { description: 'One engine of the pipeline.', oneOf: STAGES },
    hook: HOOK,
    sink: { type: 'object', required: ['path'], properties: { path: sinkFile.path, capacity: sinkFile.capacity }, additionalProperties: false },
  },
};
