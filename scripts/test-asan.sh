#!/usr/bin/env bash
# `npm run test:asan`: builds the CPU addon with AddressSanitizer and UndefinedBehaviorSanitizer into
# build-asan/ (never build/, which node-gyp owns) and runs the native-heavy test files against it. Any
# sanitizer report aborts the test process, so it fails the run. Extra arguments replace the file list.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=build-asan
mkdir -p "$out/obj"

# The flags and defines of binding.gyp, at -O1 with frame pointers so reports carry usable stacks.
node_include=$(dirname "$(dirname "$(command -v node)")")/include/node
addon_include=$(node -p "require('node-addon-api').include_dir")
flags=(-std=c++17 -fPIC -fexceptions -O1 -ffp-contract=off -g -fno-omit-frame-pointer -fsanitize=address,undefined
  -fno-sanitize-recover=undefined -pthread -Wall -Wextra -Wno-unused-parameter
  -DNAPI_VERSION=8 -DNAPI_CPP_EXCEPTIONS -DNODE_ADDON_API_DISABLE_DEPRECATED -DNODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS
  -I"$node_include" -I"$addon_include" -Inative/cpp)

# Objects are rebuilt when their source or any native header is newer, so reruns only pay for edits.
newest_header=$(find native/cpp -name '*.h' -printf '%T@\n' | sort -n | tail -n 1)
objects=()
stale=()
for source in $(node scripts/list-sources.cjs cpp); do
  object="$out/obj/$(echo "${source%.cpp}" | tr / _).o"
  objects+=("$object")
  if [ ! -f "$object" ] || [ "$source" -nt "$object" ] ||
    awk -v h="$newest_header" -v o="$(stat -c %Y "$object")" 'BEGIN { exit !(h > o) }'; then
    stale+=("$source $object")
  fi
done
export ASAN_FLAGS="${flags[*]}"
# grep finds nothing on a rerun with every object current, which is no failure.
printf '%s\n' "${stale[@]}" | { grep . || true; } | xargs -r -P "$(nproc)" -L 1 sh -c 'echo "  CXX $0"; g++ $ASAN_FLAGS -c "$0" -o "$1"'
g++ -shared "${flags[@]}" -o "$out/hookmd.node" "${objects[@]}"

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=(test/models test/backends/reductions.test.ts test/dynamics/fire.test.ts test/dynamics/stages.test.ts
    test/dynamics/thermostats.test.ts test/training test/properties test/native/binary-override.test.ts)
fi

# libasan must be the first library in the process, ahead of node's own; node itself leaks by design at
# exit, so leak checking stays off. Child processes (the CLI tests) inherit all of it.
export LD_PRELOAD
LD_PRELOAD=$(g++ -print-file-name=libasan.so)
export ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export HOOKMD_BINARY="$root/$out/hookmd.node"
# A CUDA build, when one exists, would otherwise win under the default backend request (auto).
export HOOKMD_BACKEND=cpu
npx vitest run "${files[@]}"
