// The streamed pipeline behind `relax` and `run`: input frames stream from an extxyz file (or the structure
// of a POSCAR, CIF or LAMMPS data file) through the engine (runStream keeps the batch full and refills it) into the sinks, with progress and safe Ctrl-C.
import { ProgressHook, type Dynamics, type StreamSink } from '../dynamics/index.js';
import type { System } from '../data/index.js';
import type { StagedFile } from '../io/atomic-write.js';
import { HookmdAbortError } from '../errors.js';
import { readH5md, readStructures, streamExtxyz, structureFormat } from '../io/index.js';
import { fixingAtoms } from './constraints.js';
import { countFrames } from './frame-count.js';
import type { Interrupt } from './interrupt.js';
import { createProgress, progressMode } from './progress.js';
import type { StreamConfig, UnitsName } from './run-config.js';
import { emptyInputFinding, systemTemperatures, temperatureFindings, warningsOf, type Finding } from './run-checks.js';
import type { InputSelection } from './selection.js';
import type { RunSummary } from './summary.js';
import { showText } from '../describe-value.js';

/** Everything a streamed run needs, built and checked by the command. */
export interface StreamJob {
  command: 'relax' | 'run';
  engine: Dynamics;
  input: string;
  units: UnitsName;
  sinks: readonly StreamSink[];
  /** Output files written to temporaries: committed when the run ends (also when interrupted), discarded when it fails. */
  staged: readonly StagedFile[];
  /** Files the sinks and hooks write, for the summary. */
  outputs: string[];
  stream: Required<StreamConfig>;
  /** The systems of the input this run takes (--shard, --resume); all of them when absent. */
  selection?: InputSelection;
  /** Atoms fixed in every input system (--fix-atoms, `constraints.fixAtoms`), and the flag or key that named them. */
  fixAtoms?: { readonly indices: readonly number[]; readonly where: string };
  quiet?: boolean;
  progressInterval: number;
  /**
   * The highest thermostat target of the pipeline's stages, when it has any: a system that leaves hotter
   * than TEMPERATURE_FACTOR times it flags the run (run-checks.ts).
   */
  targetTemperature?: number;
}

/**
 * Runs `job` until the input is exhausted or `interrupt` fires. runStream closes the sinks in every case;
 * when interrupted, the systems still in the batch are written as unconverged first, so the outputs hold
 * every system that was started.
 */
export async function runStreamJob(job: StreamJob, interrupt: Interrupt): Promise<RunSummary> {
  const extxyz = structureFormat(job.input) === 'extxyz';
  const inSource = extxyz ? ((await countFrames(job.input)) ?? 0) : 1;
  const systems = job.selection?.size(inSource) ?? inSource;
  const mode = progressMode(job.quiet);
  const progress = createProgress({ mode, label: job.command, unit: 'systems', total: systems, interval: job.progressInterval, countLabel: job.command === 'run' ? 'finished' : 'converged' });
  const startStep = job.engine.stepCount;
  let done = 0;
  let converged = 0;
  let step = 0;
  // The largest force in the batch, as of the last progress report.
  let detail: string | undefined;
  const findings: Finding[] = [];
  const target = job.targetTemperature;
  // A sink of its own counts the systems as they leave, for the progress bar and the summary, and checks
  // their temperature against the pipeline's thermostats.
  const counter: StreamSink = {
    write(leaving: readonly System[]): void {
      if (target !== undefined) {
        const name = (s: number): string => `system ${showText(leaving[s].info?.systemId ?? '?')} of the input`;
        findings.push(...temperatureFindings(systemTemperatures(leaving, job.units), leaving.map(() => target), job.units, name));
      }
      done += leaving.length;
      converged += leaving.filter((system) => system.info?.converged === true).length;
      progress.update({ done, step, converged, detail });
    },
  };
  // Without a reporter the native loop runs undisturbed: no hook, no crossing into JS.
  if (mode !== 'none') {
    job.engine.register(new ProgressHook({
      frequency: 10,
      onProgress: (event) => {
        step = event.step - startStep;
        detail = `fmax ${event.fmax.toExponential(2)}${job.units === 'lj' ? '' : ' eV/Å'}`;
        progress.update({ done, step, converged: converged + event.converged, detail });
      },
    }));
  }
  const onSignal = (): void => progress.note(`\nhookmd ${job.command}: stopping after the current step; writing the systems in flight (Ctrl-C again to quit at once)`);
  interrupt.signal.addEventListener('abort', onSignal);
  const started = performance.now();
  try {
    const source = extxyz ? streamExtxyz(job.input, { units: job.units }) : structureFormat(job.input) === 'h5md' ? await readH5md(job.input) : readStructures(job.input);
    // Atoms are fixed before the shard's selection, so an index error names the system by its input index.
    const fixed = fixingAtoms(source, job.fixAtoms?.indices, job.fixAtoms?.where ?? '--fix-atoms');
    await job.engine.runStream(job.selection?.from(fixed) ?? fixed, {
      sinks: [counter, ...job.sinks],
      units: job.units,
      signal: interrupt.signal,
      ...job.stream,
    });
  } catch (error) {
    // A Ctrl-C while an async hook was pending rejects the run (HookmdAbortError); the outputs still hold
    // whole frames of every system written, so the command ends as interrupted, not failed.
    if (!(error instanceof HookmdAbortError && interrupt.received !== undefined)) {
      for (const file of job.staged) await file.discard();
      throw error;
    }
  } finally {
    interrupt.signal.removeEventListener('abort', onSignal);
    progress.stop();
  }
  for (const file of job.staged) await file.commit(job.command);
  if (inSource === 0) findings.push(emptyInputFinding(job.input));
  return {
    command: job.command,
    input: job.input,
    systems,
    processed: done,
    converged,
    steps: job.engine.stepCount - startStep,
    seconds: (performance.now() - started) / 1000,
    interrupted: interrupt.received ?? null,
    outputs: job.outputs,
    warnings: warningsOf(findings),
  };
}
