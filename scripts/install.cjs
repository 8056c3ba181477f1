#!/usr/bin/env node
// `npm install`'s step for hookmd (package.json "install"). Uses the prebuilt binary when one fits this
// platform and loads; otherwise compiles the CPU addon with node-gyp on every core (-j max). Where that is
// impossible because python3, make or a C++ compiler is missing, it fails with one message that says what
// to install, instead of node-gyp's first complaint ("Could not find any Python installation").
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const platform = `${process.platform}-${process.arch}`;

/** The prebuilt or already built binary that loads here, or why none does. */
function usableBinary() {
  let file;
  try {
    file = require('node-gyp-build').resolve(root);
  } catch {
    return { reason: `no prebuilt binary for ${platform}` };
  }
  // Loading it is the only honest check: a binary for this platform may still need a newer glibc.
  const probe = spawnSync(process.execPath, ['-e', 'require(process.argv[1])', file], { encoding: 'utf8' });
  if (probe.status === 0) return { file };
  return { reason: `${path.relative(root, file)} does not load here: ${(probe.stderr.trim().split('\n').find((line) => /Error/.test(line)) ?? probe.stderr.trim()).slice(0, 300)}` };
}

function onPath(command) {
  if (path.isAbsolute(command)) return existsSync(command);
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir !== '' && existsSync(path.join(dir, command)));
}

/** What a node-gyp build needs that this machine lacks (Windows: node-gyp finds Visual Studio itself). */
function missingTools() {
  if (process.platform === 'win32') return [];
  const python = [process.env.npm_config_python, process.env.PYTHON, 'python3', 'python'].filter(Boolean);
  const compiler = [process.env.CXX, 'c++', 'g++', 'clang++'].filter(Boolean);
  const missing = [];
  if (!python.some(onPath)) missing.push('python3');
  if (!onPath('make')) missing.push('make');
  if (!compiler.some(onPath)) missing.push('a C++17 compiler (g++ or clang++)');
  return missing;
}

function nodeGyp() {
  // npm names its bundled node-gyp for lifecycle scripts; a checkout has its own as a devDependency.
  if (process.env.npm_config_node_gyp) return [process.execPath, process.env.npm_config_node_gyp];
  try {
    return [process.execPath, require.resolve('node-gyp/bin/node-gyp.js')];
  } catch {
    return ['node-gyp'];
  }
}

function main() {
  const fromSource = /^(true|1|hookmd)$/.test(process.env.npm_config_build_from_source ?? '');
  const found = fromSource ? { reason: 'a build from source was requested' } : usableBinary();
  if (found.file !== undefined) return 0;
  const missing = missingTools();
  if (missing.length > 0) {
    process.stderr.write(
      `hookmd: cannot install: ${found.reason}, and compiling one needs ${missing.join(', ')}, which this machine lacks.\n` +
        'hookmd: install python3, make and a C++17 compiler (Debian/Ubuntu: apt-get install python3 make g++; ' +
        'RHEL/Fedora: dnf install python3 make gcc-c++; Alpine: apk add python3 make g++; macOS: xcode-select --install), ' +
        'then run npm install again. Prebuilt binaries exist for linux-x64 with glibc 2.28 or newer (docs/install.md).\n',
    );
    return 1;
  }
  const [command, ...args] = nodeGyp();
  const build = spawnSync(command, [...args, 'rebuild', '-j', 'max'], { cwd: root, stdio: 'inherit' });
  if (build.error !== undefined) {
    process.stderr.write(`hookmd: could not start node-gyp: ${build.error.message}\n`);
    return 1;
  }
  return build.status ?? 1;
}

process.exitCode = main();
