#!/usr/bin/env bash
# Proves that the published package installs and loads without a compiler: builds the N-API prebuild,
# packs the package, installs the tarball into an empty folder with every compiler hidden from PATH, then
# imports hookmd there and round-trips a Batch.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Work on a copy of the tree: prebuildify rebuilds through node-gyp, which would wipe the developer's build/.
mkdir -p "$work/src"
(cd "$root" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$work/src")
ln -s "$root/node_modules" "$work/src/node_modules"
cd "$work/src"
npm run --silent native:prebuild
ls prebuilds/*/
tarball=$(npm pack --silent --pack-destination "$work" | tail -n 1)

# A PATH with node and npm but no cc, c++, g++, make, python3 or cmake.
bin="$work/bin"
mkdir -p "$bin" "$work/app"
for tool in node npm npx sh env; do ln -s "$(command -v "$tool")" "$bin/$tool"; done
for tool in cc c++ gcc g++ make cmake python3; do
  if PATH="$bin" command -v "$tool" >/dev/null 2>&1; then echo "check-pack: $tool still visible" >&2; exit 1; fi
done

cd "$work/app"
echo '{ "name": "hookmd-pack-check", "version": "1.0.0", "private": true, "type": "module" }' > package.json
PATH="$bin" CC=/bin/false CXX=/bin/false npm install --no-audit --no-fund --prefer-offline "$work/$tarball"
PATH="$bin" node --input-type=module -e "
  const { Batch, backendInfo } = await import('hookmd');
  const input = [{ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, 3.8]], cell: [10, 10, 10], pbc: true }];
  const batch = Batch.fromSystems(input);
  batch.positions[5] = 3.9;
  const [out] = batch.toSystems();
  if (out.positions[1][2] !== 3.9 || out.symbols.join() !== 'Ar,Ar') throw new Error('round trip failed');
  const info = backendInfo();
  if (!info.binary.includes('prebuilds')) throw new Error('loaded ' + info.binary + ', not the prebuild');
  console.log('check-pack: installed without a compiler; loaded', info.binary);
"
