#!/usr/bin/env node
// What the hook kernel's dispatch costs per step (lib/hooks, compiled to dist/hooks): a loop of N steps that
// sets ctx.stepCount and dispatches one stage, with 0, 1 and 10 hooks,
//   - none due, dispatching every step (frequency 1e9, steps start at 1): the skip-window check;
//   - none due, the engine's way: dispatch only when step reaches registry.nextDue();
//   - all due: no-op hooks at frequency 1, and gated by a trigger every(1);
// each against an empty loop (the same loop without the dispatch) measured in the same process.
// Every scenario runs in its own process, so one scenario's JIT feedback cannot slow another's; within it,
// scenario and empty loop alternate for `rounds` rounds after a warm-up, and the best round of each counts.
// Targets (DESIGN §4 Rule 12, issue 3): none due within 2 ns/step of the empty loop; 10 no-op hooks due
// at ≤ 30 ns per hook call.
//
// Usage: npx tsc -p tsconfig.build.json && node bench/hook-dispatch.mjs [--rounds 7] [--scale 1]
import { childMain, machineLine, markdownTable, parseArgs, runChild } from './lib/harness.mjs';

const NONE_DUE_TARGET_NS = 2;
const PER_CALL_TARGET_NS = 30;

// `target`: 'none due' rows must stay within NONE_DUE_TARGET_NS of the empty loop, 'per call' rows within
// PER_CALL_TARGET_NS per hook call; the one-hook row shows the fixed cost of a dispatch that runs hooks.
const SCENARIOS = [
  { name: 'none due, dispatch every step', mode: 'every-step', hooks: 0, frequency: 1e9, steps: 2e7, target: 'none due' },
  { name: 'none due, dispatch every step', mode: 'every-step', hooks: 1, frequency: 1e9, steps: 2e7, target: 'none due' },
  { name: 'none due, dispatch every step', mode: 'every-step', hooks: 10, frequency: 1e9, steps: 2e7, target: 'none due' },
  { name: 'none due, loop driven by nextDue', mode: 'next-due', hooks: 0, frequency: 1e9, steps: 2e7, target: 'none due' },
  { name: 'none due, loop driven by nextDue', mode: 'next-due', hooks: 1, frequency: 1e9, steps: 2e7, target: 'none due' },
  { name: 'none due, loop driven by nextDue', mode: 'next-due', hooks: 10, frequency: 1e9, steps: 2e7, target: 'none due' },
  { name: 'all due, no-op hooks, frequency 1', mode: 'every-step', hooks: 1, frequency: 1, steps: 4e6 },
  { name: 'all due, no-op hooks, frequency 1', mode: 'every-step', hooks: 10, frequency: 1, steps: 1e6, target: 'per call' },
  { name: 'all due, no-op hooks, trigger every(1)', mode: 'every-step', hooks: 10, frequency: 1, trigger: true, steps: 1e6, target: 'per call' },
];

// --- child: one scenario ------------------------------------------------------------------------------
async function measure({ scenario, rounds, scale }) {
  const { HookRegistry, every } = await import('../dist/hooks/index.js');
  const Stage = Object.freeze({ A: 0, B: 1 });
  const registry = new HookRegistry(Stage);
  let calls = 0;
  for (let i = 0; i < scenario.hooks; i++) {
    const trigger = scenario.trigger ? every(1) : undefined;
    // Distinct closures, as distinct hooks would be.
    registry.register({ name: `noop${i}`, stage: Stage.A, frequency: scenario.frequency, trigger, call: () => { calls++; } });
  }
  const steps = Math.max(1000, Math.round(scenario.steps * scale));
  const ctx = { stepCount: 0 };

  // The same loop with and without the dispatch; steps start at 1 so that frequency 1e9 is never due.
  const empty = () => {
    for (let s = 1; s <= steps; s++) ctx.stepCount = s;
  };
  const everyStep = () => {
    for (let s = 1; s <= steps; s++) {
      ctx.stepCount = s;
      registry.dispatch(Stage.A, ctx);
    }
  };
  const nextDue = () => {
    let due = registry.nextDue(1);
    for (let s = 1; s <= steps; s++) {
      ctx.stepCount = s;
      if (s >= due) {
        registry.dispatch(Stage.A, ctx);
        due = registry.nextDue(s + 1);
      }
    }
  };
  const loop = scenario.mode === 'next-due' ? nextDue : everyStep;

  const time = (fn) => {
    const t0 = process.hrtime.bigint();
    fn();
    return Number(process.hrtime.bigint() - t0) / steps;
  };
  for (let i = 0; i < 3; i++) {
    time(empty);
    time(loop);
  }
  let best = Infinity;
  let baseline = Infinity;
  for (let r = 0; r < rounds; r++) {
    baseline = Math.min(baseline, time(empty));
    best = Math.min(best, time(loop));
  }
  const expectedCalls = scenario.frequency === 1 ? scenario.hooks * steps * (rounds + 3) : 0;
  if (calls !== expectedCalls) throw new Error(`${scenario.name}: ${calls} hook calls, expected ${expectedCalls}`);
  return { nsPerStep: best, baselineNsPerStep: baseline, steps };
}

if (!(await childMain(measure))) {
  const options = parseArgs({ rounds: 7, scale: 1 });
  console.log(machineLine());
  const rows = [];
  let failures = 0;
  for (const scenario of SCENARIOS) {
    const r = await runChild(new URL(import.meta.url), { scenario, rounds: options.rounds, scale: options.scale });
    const delta = r.nsPerStep - r.baselineNsPerStep;
    const perCall = scenario.frequency === 1 ? delta / scenario.hooks : undefined;
    const ok = scenario.target === 'per call' ? perCall <= PER_CALL_TARGET_NS : scenario.target !== 'none due' || delta <= NONE_DUE_TARGET_NS;
    const goal = { 'per call': `≤ ${PER_CALL_TARGET_NS} ns/call`, 'none due': `Δ ≤ ${NONE_DUE_TARGET_NS} ns` }[scenario.target];
    if (!ok) failures++;
    rows.push([
      scenario.name,
      scenario.hooks,
      r.nsPerStep.toFixed(2),
      r.baselineNsPerStep.toFixed(2),
      delta.toFixed(2),
      perCall === undefined ? '—' : perCall.toFixed(2),
      `${(r.nsPerStep / r.baselineNsPerStep).toFixed(1)}×`,
      goal === undefined ? '—' : `${ok ? 'ok' : 'MISSED'} (${goal})`,
      r.peakRssMiB.toFixed(1),
    ]);
  }
  console.log(
    markdownTable(
      ['scenario', 'hooks', 'ns/step', 'empty loop ns/step', 'Δ ns/step', 'ns per hook call', 'ratio', 'target', 'peak RSS (MiB)'],
      rows,
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'r'],
    ),
  );
  if (failures > 0) {
    console.error(`${failures} scenario(s) missed their target`);
    process.exitCode = 1;
  }
}
