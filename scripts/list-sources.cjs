#!/usr/bin/env node
// The one list of native sources: every .cpp under native/cpp (and, with `cuda`, every .cu and .cpp under
// native/cuda's folders). binding.gyp and CMakeLists.txt both read it, so adding a file needs no build edit.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

function collect(dir, extension) {
  const found = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...collect(relative, extension));
    else if (entry.name.endsWith(extension)) found.push(relative);
  }
  return found.sort();
}

const kind = process.argv[2] ?? 'cpp';
const files = kind === 'cuda' ? collect('native/cuda', '.cu').concat(collect('native/cuda', '.cpp')) : collect('native/cpp', '.cpp');
// gyp splits on whitespace; CMake reads one path per line.
process.stdout.write(files.join('\n'));
