// Child of thread-pool.test.ts: an MD run on a 2-thread pool while the process may use one CPU only (the
// parent starts it under `taskset -c 0`), so the worker is always the late one. Prints how many times the
// calling (main) thread went to sleep during the run, from /proc's per-thread counter.
import { readFileSync } from 'node:fs';

const [library] = process.argv.slice(2);
const { Batch, DynamicsStage, LennardJones, VelocityVerlet, bulk, repeat, setThreads } = await import(library);

function mainThreadSleeps() {
  const status = readFileSync(`/proc/self/task/${process.pid}/status`, 'utf8');
  return Number(/^voluntary_ctxt_switches:\s+(\d+)$/m.exec(status)[1]);
}

setThreads(2);
// 2,048 atoms: one system large enough that its pair loop is split between the pool's threads at every step.
const batch = Batch.fromSystems([repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), [8, 8, 8])]);
const md = new VelocityVerlet({ model: new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 }), dt: 1 });
md.register({ stage: DynamicsStage.BEFORE_STEP, frequency: 100, name: 'read', call: (ctx) => ctx.scalars.temperature[0] });
await md.run(batch, { steps: 5 });
const before = mainThreadSleeps();
await md.run(batch, { steps: 200 });
console.log(JSON.stringify({ steps: 200, sleeps: mainThreadSleeps() - before }));
