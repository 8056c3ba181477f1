// A worker that runs a long NVE simulation and tells its parent once it is mid-run. The hook keeps JS
// re-entering between native chunks, so a terminate lands both in native advance() and in JS. In mode
// 'quiet' no JS hook is due at all: the run stays in native chunks, and a terminate must still land.
import { parentPort, workerData } from 'node:worker_threads';

const { Batch, DynamicsStage, LennardJones, VelocityVerlet, bulk, initializeVelocities, repeat } = await import(workerData.library);

const batch = Batch.fromSystems([repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), [4, 4, 4])]);
initializeVelocities(batch, { temperature: 50, seed: 1 });
const running = { stage: DynamicsStage.AFTER_STEP, frequency: 5, call: (ctx) => { if (ctx.stepCount === 20) parentPort.postMessage('running'); } };
const md = new VelocityVerlet({ model: new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8 }), dt: 1, hooks: [running] });
if (workerData.mode === 'quiet') {
  parentPort.postMessage('running');
  new VelocityVerlet({ model: new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8 }), dt: 1 }).runSync(batch, { steps: 1e7 });
} else if (workerData.mode === 'runSync') md.runSync(batch, { steps: 1e7 });
else await md.run(batch, { steps: 1e7 });
