#!/usr/bin/env node
// `npm run bench`: runs every bench/*.mjs except this one, one after the other, with its output passed
// through; exits non-zero when any of them fails (after running the rest).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const self = basename(fileURLToPath(import.meta.url));
const benches = readdirSync(here)
  .filter((name) => name.endsWith('.mjs') && name !== self)
  .sort();

const failed = [];
for (const name of benches) {
  process.stdout.write(`\n=== bench/${name} ===\n\n`);
  const started = performance.now();
  const { status, signal, error } = spawnSync(process.execPath, [join(here, name)], { stdio: 'inherit' });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (status !== 0) {
    failed.push(name);
    process.stderr.write(`bench/${name} failed (${error?.message ?? (signal !== null ? `signal ${signal}` : `exit ${status}`)}) after ${seconds} s\n`);
  } else {
    process.stderr.write(`bench/${name} done in ${seconds} s\n`);
  }
}
if (failed.length > 0) {
  process.stderr.write(`\n${failed.length} of ${benches.length} benches failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
process.stderr.write(`\nall ${benches.length} benches passed\n`);
