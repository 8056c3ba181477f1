// Issue 26, item 4: every public function and constructor that takes an options object refuses a key it
// does not know with UNKNOWN_OPTION and says what was meant. The list of places comes from the public
// declarations themselves (option-sites.ts), so a new export that takes options fails here until it is
// added to the table below, with a misspelt key and the spelling the error must suggest.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import * as hookmd from '../../lib/index.js';
import { PAIR_MODELS } from '../../lib/models/index.js';
import { ortInstalled } from '../helpers/onnx.js';
import { optionSites } from './option-sites.js';

const {
  Adam, Batch, CellFilter, CheckpointHook, ConsoleLoggingHook, ConvergedSnapshotHook, ConvergenceHook, CosineLR, Dynamics, EAM,
  EarlyStoppingHook, EnergyDriftMonitorHook, RdfHook, MsdHook, VacfHook, ExtxyzSink, FIRE, FIRE2, FilenameTemplate, ForceMatchingLoss, ForwardObserverHook,
  FreezeAtomsHook, FusedStage, GradientClipHook, GradientDescent, GradientMonitorHook, HookRegistry, HookRunner, HostMemorySink, IpiModel, JsModel,
  LBFGS, Langevin, LearningRateMonitorHook, LennardJones, LoggingHook, MaxForceClampHook, NPT, NPTLangevin, NaNDetectorHook,
  NoseHooverChain, OnnxModel, ProgressHook, ReduceOnPlateau, ReplicaExchangeHook, SGD, SnapshotHook, StageTimingHook, StepLR, Trainer, TrainingLoggingHook,
  VelocityVerlet, ViewHook, ViewServer, WrapPeriodicHook, ZarrSink,
} = hookmd;

const dir = mkdtempSync(join(tmpdir(), 'hookmd-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const model = new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });
const dimer = { symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [1.1, 0, 0]] };
const batch = (): ReturnType<typeof Batch.fromSystems> => Batch.fromSystems([dimer], { units: 'lj' });
const train = [{ ...dimer, energy: -1, forces: [[0, 0, 0], [0, 0, 0]] }];
// A small funcfl EAM file (LAMMPS's format: header, then F(ρ), Z(r) and ρ(r) on their grids).
const funcfl = join(dir, 'tiny.eam');
writeFileSync(funcfl, ['tiny', '29 63.55 3.61 FCC', '8 0.1 8 0.5 3.5',
  ...Array.from({ length: 3 }, (_, k) => Array.from({ length: 8 }, (_, i) => (k === 0 ? -0.1 * i : Math.exp(-i / 4)).toFixed(4)).join(' '))].join('\n'));
// A one-entry Tersoff file (Si.tersoff's numbers), for the many-body models' option check.
const tersoffFile = join(dir, 'si.tersoff');
writeFileSync(tersoffFile, 'Si Si Si 3.0 1.0 1.3258 4.8381 2.0417 0.0000 22.956 0.33675 1.3258 95.373 3.0 0.2 3.2394 3264.7\n');
// The ONNX example of docs/models.md; OnnxModel#compute needs onnxruntime-node (an optional peer dependency).
const onnxFile = resolve(import.meta.dirname, '../../docs/examples/lj-argon.onnx');
/** Builds a model, runs `use` on it, and closes it (an i-PI server, an ONNX session). */
async function using<M extends { close(): Promise<void> }>(model: Promise<M>, use: (model: M) => unknown): Promise<unknown> {
  const built = await model;
  try {
    return await use(built);
  } finally {
    await built.close();
  }
}
const metalDimer = (): ReturnType<typeof Batch.fromSystems> => Batch.fromSystems([{ ...dimer, positions: [[0, 0, 0], [3.8, 0, 0]] }]);
enum Stage { SAVE }
const registry = new HookRegistry(Stage);
// A minimal engine of its own, to reach the Dynamics constructor that every engine shares.
class Custom extends Dynamics {
  constructor(options: never) {
    super(options);
  }
  override integratorSpec(): never {
    throw new Error('never run');
  }
}

// Each call passes one misspelt (or foreign) key; the error must name it and suggest `expected`.
type Call = () => unknown;
/** Every pair model from its declaration: its last parameter spelt with the first letter's case swapped. */
const PAIR_CASES: Record<string, [Call, string, string]> = Object.fromEntries(
  PAIR_MODELS.map((declared) => {
    const names = declared.parameters.map((rule) => rule.name);
    const last = names[names.length - 1];
    const typo = (last[0] === last[0].toUpperCase() ? last[0].toLowerCase() : last[0].toUpperCase()) + last.slice(1);
    const options = { ...Object.fromEntries(names.slice(0, -1).map((name) => [name, 1])), [typo]: 1, cutoff: 3 };
    return [`new ${declared.name}(options)`, [() => declared.create(options as never), typo, last]];
  }),
);
const CASES: Record<string, [Call, string, string]> = {
  ...PAIR_CASES,
  'Batch#registerField(spec)': [() => batch().registerField('charge', { per: 'atom', component: 1 } as never), 'component', 'components'],
  'Batch.fromSystems(options)': [() => Batch.fromSystems([dimer], { unit: 'lj' } as never), 'unit', 'units'],
  'Batch.fromArrays(options)': [
    () => Batch.fromArrays({ positions: Float64Array.of(0, 0, 0, 1.1, 0, 0), atomicNumbers: Int32Array.of(18, 18), numAtomsPerSystem: Int32Array.of(2) }, { unit: 'lj' } as never),
    'unit', 'units',
  ],
  'ConvergenceHook.fromFmax(options)': [() => ConvergenceHook.fromFmax(0.1, { sourcestatus: 0 } as never), 'sourcestatus', 'sourceStatus'],
  'ConvergenceHook.fromFmaxAndStress(options)': [() => ConvergenceHook.fromFmaxAndStress(0.1, 0.01, { presure: 0 } as never), 'presure', 'pressure'],
  'ConvergenceHook.fromForces(options)': [() => ConvergenceHook.fromForces(0.1, { targetstatus: 2 } as never), 'targetstatus', 'targetStatus'],
  'Dynamics#run(options)': [() => new FIRE({ model }).run(batch(), { steps: 50, fmax: 0.01 } as never), 'fmax', 'fmax is a convergence criterion of the engine: new FIRE({ model, convergence: ConvergenceHook.fromFmax(0.01) })'],
  'Dynamics#runStream(options)': [() => new FIRE({ model }).runStream([dimer], { maxAtoms: 10, refillevery: 5 } as never), 'refillevery', 'refillEvery'],
  'Dynamics#runSync(options)': [() => new FIRE({ model }).runSync(batch(), { steps: 1, keepstatus: true } as never), 'keepstatus', 'keepStatus'],
  'NativeFileModel#compute(options)': [() => new EAM({ file: funcfl }).compute(batch(), { stres: true } as never), 'stres', 'stress'],
  'new Tersoff(options)': [() => new hookmd.Tersoff({ file: tersoffFile, stlye: 'mod' } as never), 'stlye', 'style'],
  'new StillingerWeber(options)': [() => new hookmd.StillingerWeber({ file: tersoffFile, skn: 1 } as never), 'skn', 'skin'],
  'new SNAP(options)': [() => new hookmd.SNAP({ coefficients: tersoffFile, parameters: tersoffFile, elemnts: ['Si'] } as never), 'elemnts', 'elements'],
  'SNAP.fromLammps(options)': [() => hookmd.SNAP.fromLammps(tersoffFile, { skn: 1 } as never), 'skn', 'skin'],
  'new MLIAP(options)': [() => new hookmd.MLIAP({ model: tersoffFile, descriptor: tersoffFile, knd: 'nn' } as never), 'knd', 'kind'],
  'MLIAP.fromLammps(options)': [() => hookmd.MLIAP.fromLammps(tersoffFile, { skn: 1 } as never), 'skn', 'skin'],
  'MLIAP.network(options)': [() => hookmd.MLIAP.network({ descriptor: { file: tersoffFile, elements: { Si: { radius: 0.5 } } }, layers: [4], activaton: 'tanh' } as never), 'activaton', 'activation'],
  'fitSnap(options)': [() => hookmd.fitSnap({ train: [dimer], parameters: tersoffFile, elements: { Si: { radius: 0.5, weight: 1 } }, weights: { energy: 1 }, rige: 1 } as never), 'rige', 'ridge'],
  'new MLIAPNetwork(options)': [() => new hookmd.MLIAPNetwork({ descriptor: { file: tersoffFile, elements: { Si: { radius: 0.5 } } }, layers: [4], sed: 1 } as never), 'sed', 'seed'],
  'elasticConstants(options)': [() => hookmd.elasticConstants(model, { ...dimer, cell: [[3, 0, 0], [0, 3, 0], [0, 0, 3]], pbc: true }, { delta: 1e-3 } as never), 'delta', 'strain'],
  'phonons(options)': [() => hookmd.phonons(model, { ...dimer, cell: [[3, 0, 0], [0, 3, 0], [0, 0, 3]], pbc: true }, { delta: 0.01 } as never), 'delta', 'displacement'],
  'new NEB(options)': [() => new hookmd.NEB({ model, images: [dimer, dimer, dimer], k: 0.1 } as never), 'k', 'springConstant'],
  'NEB#run(options)': [() => new hookmd.NEB({ model, images: [dimer, dimer, dimer] }).run({ fmx: 0.01 } as never), 'fmx', 'fmax'],
  'ForceMatchingLoss#evaluate(options)': [() => new ForceMatchingLoss({ model, systems: train, units: 'lj' }).evaluate({ gradients: true } as never), 'gradients', 'gradient'],
  'HookRegistry#fromConfig(options)': [() => registry.fromConfig([], { basedir: '.' } as never), 'basedir', 'baseDir'],
  'HookRegistry#loadStateDict(options)': [() => registry.loadStateDict({}, { stict: false } as never), 'stict', 'strict'],
  'IpiModel#compute(options)': [() => using(IpiModel.listen({ address: `unix:hookmd-options-${process.pid}` }), (ipi) => ipi.compute(metalDimer(), { stres: true } as never)), 'stres', 'stress'],
  'IpiModel.listen(options)': [() => IpiModel.listen({ address: `unix:hookmd-options-${process.pid}`, client: 2 } as never), 'client', 'clients'],
  'JsModel#compute(options)': [() => new JsModel(() => ({ energy: [0], forces: [[0, 0, 0], [0, 0, 0]] })).compute(batch(), { stres: true } as never), 'stres', 'stress'],
  'NativePairModel#compute(options)': [() => model.compute(batch(), { strss: true } as never), 'strss', 'stress'],
  'Trainer#fit(options)': [() => new Trainer({ model, train, epochs: 1, units: 'lj' }).fit({ resume: 'last.json' } as never), 'resume', 'resumeFrom'],
  'Trainer.fromConfig(options)': [() => Trainer.fromConfig('fit.yaml', { loger: console } as never), 'loger', 'logger'],
  'OnnxModel#compute(options)': [() => using(OnnxModel.load(onnxFile, { cutoff: 8.5 }), (onnx) => onnx.compute(metalDimer(), { forcs: false } as never)), 'forcs', 'forces'],
  'OnnxModel.load(options)': [() => OnnxModel.load(onnxFile, { cutof: 8.5 } as never), 'cutof', 'cutoff'],
  'ViewServer.start(options)': [() => ViewServer.start(() => ({}) as never, { prot: 0 } as never), 'prot', 'port'],
  'bulk(options)': [() => hookmd.bulk('Cu', 'fcc', { a: 5, cubc: true } as never), 'cubc', 'cubic'],
  'bulk(structure)': [() => hookmd.bulk('Cu', { cubc: true } as never), 'cubc', 'cubic'],
  'checkpointFilename(options)': [() => hookmd.checkpointFilename('{epoch}', { epoch: 1 }, 'test', { metric: [] } as never), 'metric', 'metrics'],
  'configureNative(options)': [() => hookmd.configureNative({ backnd: 'cpu' } as never), 'backnd', 'backend'],
  'every(options)': [() => hookmd.every(3, { phse: 1 } as never), 'phse', 'phase'],
  'formatExtxyz(options)': [() => hookmd.formatExtxyz(dimer, { unit: 'lj' } as never), 'unit', 'units'],
  'formatLammpsData(options)': [() => hookmd.formatLammpsData(hookmd.bulk('Cu', 'fcc'), { specorder: ['Cu'] } as never), 'specorder', 'species'],
  'initializeVelocities(options)': [() => hookmd.initializeVelocities(batch(), { temperature: 1, sed: 1 } as never), 'sed', 'seed'],
  'molecule(options)': [() => hookmd.molecule('H2O', { vaccum: 5 } as never), 'vaccum', 'vacuum'],
  'new Adam(options)': [() => new Adam({ lr: 0.1, beta: [0.9, 0.99] } as never), 'beta', 'betas'],
  'new CellFilter(options)': [() => new CellFilter({ scalar_pressure: 0 } as never), 'scalar_pressure', 'scalarPressure'],
  'new CheckpointHook(options)': [() => new CheckpointHook({ dirPath: dir } as never), 'dirPath', 'dirpath'],
  'new ConsoleLoggingHook(options)': [() => new ConsoleLoggingHook({ frequncy: 2 } as never), 'frequncy', 'frequency'],
  'new ConvergedSnapshotHook(options)': [() => new ConvergedSnapshotHook({ sink: new hookmd.HostMemorySink(), ownSink: true } as never), 'ownSink', 'ownsSink'],
  'new ConvergenceHook(options)': [() => new ConvergenceHook({ criterion: [{ key: 'fmax', threshold: 1 }] } as never), 'criterion', 'criteria'],
  'new CosineLR(options)': [() => new CosineLR({ t_max: 10 } as never), 't_max', 'tMax'],
  'new Dynamics(options)': [() => new Custom({ model, exit_status: 2 } as never), 'exit_status', 'exitStatus'],
  'new EAM(options)': [() => new EAM({ file: 'Cu_u3.eam', cutoff: 5 } as never), 'cutoff', 'an EAM file sets its own cutoff'],
  'new EarlyStoppingHook(options)': [() => new EarlyStoppingHook({ patients: 3 } as never), 'patients', 'patience'],
  'new EnergyDriftMonitorHook(options)': [() => new EnergyDriftMonitorHook({ treshold: 0.1 } as never), 'treshold', 'threshold'],
  'new RdfHook(options)': [() => new RdfHook({ rmax: 5, nbin: 10 } as never), 'nbin', 'nbins'],
  'new MsdHook(options)': [() => new MsdHook({ frequncy: 10 } as never), 'frequncy', 'frequency'],
  'new VacfHook(options)': [() => new VacfHook({ frequncy: 10 } as never), 'frequncy', 'frequency'],
  'new ExtxyzSink(options)': [() => new ExtxyzSink(join(dir, 'a.xyz'), { apend: true } as never), 'apend', 'append'],
  'new H5mdSink(options)': [() => new hookmd.H5mdSink(join(dir, 'a.h5md'), { time_step: 2 } as never), 'time_step', 'timestep'],
  'new LammpsDumpSink(options)': [() => new hookmd.LammpsDumpSink(join(dir, 'a.lammpstrj'), { specie: ['Cu'] } as never), 'specie', 'species'],
  'new TrajSink(options)': [() => new hookmd.TrajSink(join(dir, 'a.traj'), { apend: true } as never), 'apend', 'append'],
  'readH5md(options)': [() => hookmd.readH5md('md.h5md', { groups: 'all' } as never), 'groups', 'group'],
  'readLammpsDump(options)': [() => hookmd.readLammpsDump('dump.lammpstrj', { specie: ['Cu'] } as never), 'specie', 'species'],
  'new FIRE(options)': [() => new FIRE({ model, dtmax: 1 } as never), 'dtmax', 'dtMax'],
  'new FIRE2(options)': [() => new FIRE2({ model, astart: 0.1 } as never), 'astart', 'alphaStart'],
  'new FilenameTemplate(options)': [() => new FilenameTemplate('{epoch}', 'test', { autoInsertMetricNames: true } as never), 'autoInsertMetricNames', 'autoInsertMetricName'],
  'new ForceMatchingLoss(options)': [() => new ForceMatchingLoss({ model, systems: train, lossWeights: {} } as never), 'lossWeights', 'weights'],
  'new ForwardObserverHook(options)': [() => new ForwardObserverHook({ observe: () => undefined, frequncy: 2 } as never), 'frequncy', 'frequency'],
  'new FixAtoms(options)': [() => new hookmd.FixAtoms({ indice: [0] } as never), 'indice', 'indices'],
  'new FixSymmetry(options)': [() => new hookmd.FixSymmetry({ symprc: 0.1 } as never), 'symprc', 'symprec'],
  'new FreezeAtomsHook(options)': [() => new FreezeAtomsHook({ indice: [0] } as never), 'indice', 'indices'],
  'new FusedStage(options)': [() => new FusedStage({ stages: [new FIRE({ model })], budget: [10] } as never), 'budget', 'budgets'],
  'new GradientClipHook(options)': [() => new GradientClipHook({ max_norm: 1 } as never), 'max_norm', 'maxNorm'],
  'new GradientDescent(options)': [() => new GradientDescent({ model, stepsize: 0.1 } as never), 'stepsize', 'stepSize'],
  'new GradientMonitorHook(options)': [() => new GradientMonitorHook({ percentile: [50] } as never), 'percentile', 'percentiles'],
  'new HookRegistry(options)': [() => new HookRegistry(Stage, { loger: console } as never), 'loger', 'logger'],
  'new HookSession(options)': [() => new hookmd.HookSession(registry, { loger: console } as never), 'loger', 'logger'],
  'HookRegistry#register(options)': [() => registry.register({ stage: Stage.SAVE, frequency: 1, call: () => {} }, { stag: Stage.SAVE } as never), 'stag', 'stage'],
  'Dynamics#register(options)': [() => new FIRE({ model }).register({ stage: hookmd.DynamicsStage.AFTER_STEP, frequency: 1, call: () => {} }, { stages: 1 } as never), 'stages', 'stage'],
  'FusedStage#register(options)': [() => new hookmd.FusedStage({ stages: [new FIRE({ model })] }).register({ stage: hookmd.DynamicsStage.AFTER_STEP, frequency: 1, call: () => {} }, { stages: 1 } as never), 'stages', 'stage'],
  'harmonic(options)': [() => hookmd.harmonic({ k: 1, center: 1, centre: 1 } as never), 'centre', 'center'],
  'new BiasHook(options)': [() => new hookmd.BiasHook({ cv: hookmd.distance(0, 1), potential: hookmd.harmonic({ k: 1, center: 1 }), frequncy: 1 } as never), 'frequncy', 'frequency'],
  'new HookRunner(options)': [() => new HookRunner(registry, { contxt: () => undefined } as never), 'contxt', 'context'],
  'new HostMemorySink(options)': [() => new HostMemorySink({ capcity: 2 } as never), 'capcity', 'capacity'],
  'new JsModel(options)': [() => new JsModel(() => ({ energy: [0] }), { cutof: 3 } as never), 'cutof', 'cutoff'],
  'new LBFGS(options)': [() => new LBFGS({ model, memmory: 10 } as never), 'memmory', 'memory'],
  'new Langevin(options)': [() => new Langevin({ model, dt: 1, temperature: 1, friction: 1, timestep: 2 } as never), 'timestep', 'dt'],
  'new LearningRateMonitorHook(options)': [() => new LearningRateMonitorHook({ intervall: 'epoch' } as never), 'intervall', 'interval'],
  'new LoggingHook(options)': [() => new LoggingHook({ writer: () => undefined, freq: 5 } as never), 'freq', 'frequency'],
  'new MaxForceClampHook(options)': [() => new MaxForceClampHook({ maxforce: 1 } as never), 'maxforce', 'maxForce'],
  'new NPT(options)': [() => new NPT({ model, dt: 1, temperature: 1, pressure: 0, tDamp: 10 } as never), 'tDamp', 'tdamp'],
  'new NPTLangevin(options)': [() => new NPTLangevin({ model, dt: 1, temperature: 1, pressure: 0, tau_p: 10 } as never), 'tau_p', 'tauP'],
  'new NaNDetectorHook(options)': [() => new NaNDetectorHook({ frequncy: 1 } as never), 'frequncy', 'frequency'],
  'new NoseHooverChain(options)': [() => new NoseHooverChain({ model, dt: 1, temperature: 1, taut: 10 } as never), 'taut', 'tdamp'],
  'new ProgressHook(options)': [() => new ProgressHook({ onprogress: () => undefined } as never), 'onprogress', 'onProgress'],
  'new ReduceOnPlateau(options)': [() => new ReduceOnPlateau({ paitence: 3 } as never), 'paitence', 'patience'],
  'new SGD(options)': [() => new SGD({ momentun: 0.9 } as never), 'momentun', 'momentum'],
  'new SnapshotHook(options)': [() => new SnapshotHook({ sink: new HostMemorySink(), frequncy: 2 } as never), 'frequncy', 'frequency'],
  'new StageTimingHook(options)': [() => new StageTimingHook({ frequncy: 1 } as never), 'frequncy', 'frequency'],
  'new StepLR(options)': [() => new StepLR({ step_size: 10 } as never), 'step_size', 'stepSize'],
  'new Trainer(options)': [() => new Trainer({ model, train, epoch: 3 } as never), 'epoch', 'epochs'],
  'new TrainingLoggingHook(options)': [() => new TrainingLoggingHook({ frequncy: 2 } as never), 'frequncy', 'frequency'],
  'new VelocityVerlet(options)': [() => new VelocityVerlet({ model, timestep: 1 } as never), 'timestep', 'dt'],
  'new ViewHook(options)': [() => new ViewHook({ prot: 80 } as never), 'prot', 'port'],
  'new WrapPeriodicHook(options)': [() => new WrapPeriodicHook({ freq: 1 } as never), 'freq', 'frequency'],
  'new ReplicaExchangeHook(options)': [() => new ReplicaExchangeHook({ temperatures: [1, 2], frequency: 10 } as never), 'frequency', 'every'],
  'new ZarrSink(options)': [() => new ZarrSink(join(dir, 'a.zarr'), { chunkatoms: 64 } as never), 'chunkatoms', 'chunkAtoms'],
  'openSink(options)': [() => hookmd.openSink(join(dir, 'b.xyz'), { capacty: 2 } as never), 'capacty', 'capacity'],
  'rattle(stdev)': [() => hookmd.rattle(dimer, { stdv: 0.1 } as never), 'stdv', 'stdev'],
  'readExtxyz(options)': [() => hookmd.readExtxyz('1\n\nAr 0 0 0\n', { unit: 'lj' } as never), 'unit', 'units'],
  'readStructures(options)': [() => hookmd.readStructures('POSCAR', { formt: 'poscar' } as never), 'formt', 'format'],
  'refineSymmetry(options)': [() => hookmd.refineSymmetry(hookmd.bulk('Cu', 'fcc'), { symprc: 0.1 } as never), 'symprc', 'symprec'],
  'registerHookType(options)': [() => hookmd.registerHookType('Unused', () => ({}) as never, { replce: true } as never), 'replce', 'replace'],
  'runLifecycle(options)': [() => hookmd.runLifecycle(registry, () => undefined, { loger: console } as never), 'loger', 'logger'],
  'streamExtxyz(options)': [() => hookmd.streamExtxyz('in.xyz', { maxLineByte: 10 } as never), 'maxLineByte', 'maxLineBytes'],
  'surface(options)': [() => hookmd.surface('Cu', 'fcc111', { size: [1, 1, 1], vaccum: 5 } as never), 'vaccum', 'vacuum'],
  'symmetry(options)': [() => hookmd.symmetry(hookmd.bulk('Cu', 'fcc'), { symprc: 0.1 } as never), 'symprc', 'symprec'],
  'temperatures(options)': [() => hookmd.temperatures(batch(), { frozn: [] } as never), 'frozn', 'frozen'],
  'wallClock(options)': [() => hookmd.wallClock(1, { nw: () => 0 } as never), 'nw', 'now'],
  'writeExtxyz(options)': [() => hookmd.writeExtxyz(join(dir, 'c.xyz'), [dimer], { unit: 'lj' } as never), 'unit', 'units'],
  'writeLammpsData(options)': [() => hookmd.writeLammpsData(join(dir, 'd.data'), hookmd.bulk('Cu', 'fcc'), { specie: ['Cu'] } as never), 'specie', 'species'],
};

// Parameters that take an object which is not a set of options.
const NOT_OPTIONS: Record<string, string> = {
  'defineHook(spec)': 'a hook is an open object: any own fields ride along with it (docs/hooks.md)',
};

describe('every public option object refuses unknown keys (issue 26, item 4)', () => {
  it('the table covers every option-taking site of the public API, and nothing else', () => {
    const sites = optionSites();
    expect(sites.filter((site) => !(site in CASES) && !(site in NOT_OPTIONS)), 'sites without a case below').toEqual([]);
    expect(Object.keys(CASES).filter((site) => !sites.includes(site)), 'cases for sites that no longer exist').toEqual([]);
  }, 60_000);

  // Each case runs where its dependencies are: OnnxModel#compute needs onnxruntime-node, an optional peer.
  const needsOnnxRuntime = (site: string): boolean => site === 'OnnxModel#compute(options)';
  const runnable = Object.entries(CASES).filter(([site]) => ortInstalled || !needsOnnxRuntime(site));
  const skipped = Object.keys(CASES).filter((site) => !runnable.some(([name]) => name === site));
  it.each(runnable)('%s', async (_, [call, field, suggestion]) => {
    let thrown: unknown;
    try {
      await call();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'UNKNOWN_OPTION', details: { field, suggestion } });
    const hint = suggestion.includes(' ') ? `(${suggestion})` : `(did you mean ${suggestion}?)`;
    expect((thrown as Error).message).toContain(`unknown option ${field} ${hint}`);
  });
  if (skipped.length > 0) it.skip(`${skipped.join(', ')} (skipped: onnxruntime-node is not installed)`, () => undefined);
});

describe('ASE spellings of the builders get typed errors that show the hookmd call (issue 26, item 4)', () => {
  it("bulk('Cu', 'fcc', 5.0): ASE's positional lattice constant", () => {
    expect(() => hookmd.bulk('Cu', 'fcc', 5.0 as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining("bulk('Cu', 'fcc', { a: 5 })") }));
  });

  it('bulk(symbol, options) takes the reference structure, as ASE does without crystalstructure', () => {
    expect(hookmd.bulk('Cu', { cubic: true, a: 3.6 }).cell).toEqual([[3.6, 0, 0], [0, 3.6, 0], [0, 0, 3.6]]);
  });

  it('repeat(s, [2, 2]) names the three counts it needs; repeat(s, 2) is [2, 2, 2] as in ASE', () => {
    const cu = hookmd.bulk('Cu', 'fcc', { cubic: true });
    expect(() => hookmd.repeat(cu, [2, 2] as never)).toThrow(expect.objectContaining({ code: 'INVALID_REPEAT', message: expect.stringContaining('write [2, 2, 1]') }));
    expect(hookmd.repeat(cu, 2).positions).toHaveLength(32);
  });

  it('rattle(system, { stdev, seed }) is rattle(system, stdev, seed)', () => {
    expect(hookmd.rattle(dimer, { stdev: 0.1, seed: 3 })).toEqual(hookmd.rattle(dimer, 0.1, 3));
  });

  it("surface('Cu', 'fcc111', [2, 2, 3]): ASE's positional size", () => {
    expect(() => hookmd.surface('Cu', 'fcc111', [2, 2, 3] as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('{ size: [2,2,3] }') }));
  });
});
