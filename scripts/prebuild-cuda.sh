#!/usr/bin/env bash
# Builds the release CUDA addon, prebuilds-cuda/<platform>-<arch>/hookmd_cuda.node, that the optional
# package packages/hookmd-cuda-linux-x64 ships (docs/cuda.md, "Prebuilt CUDA binary and the release flow"),
# and refuses to leave one behind that lacks what the release promises: the GPU architectures, static cudart,
# and a binary that loads.
set -euo pipefail
cd "$(dirname "$0")/.."

# The release's architectures, named here rather than taken from CMake's default or a developer's cache.
archs="75-real;80-real;90-real;90-virtual"
images="sm_75,sm_80,sm_90,compute_90"

if [ "$(uname -s)" != Linux ]; then echo "prebuild-cuda: the CUDA prebuild is built on Linux only" >&2; exit 1; fi
# Without nvcc, CMake would quietly build a CPU-only binary; a release must not ship that.
if [ -z "${CUDACXX:-}" ] && ! command -v nvcc >/dev/null; then
  echo "prebuild-cuda: nvcc not found (put it on PATH or set CUDACXX)" >&2
  exit 1
fi

# The same build folder as `npm run native:cmake`, so the tests and the prebuild run one binary. An explicit
# configure, since cmake-js's build and compile skip configuring when a cache exists, dropping these flags.
npx --no-install cmake-js configure --out build-cuda --CDHOOKMD_CUDA=ON --CDCMAKE_CUDA_ARCHITECTURES="$archs"
npx --no-install cmake-js build --out build-cuda

platform=$(node -p 'process.platform + "-" + process.arch')
dest="prebuilds-cuda/$platform/hookmd_cuda.node"
# Checked under another name (ending in .node, so that require loads it) and moved into place last: a
# failed check leaves no binary to pack.
out="prebuilds-cuda/$platform/hookmd_cuda.checking.node"
mkdir -p "$(dirname "$dest")"
rm -f "$dest"
trap 'rm -f "$out"' EXIT
cp build-cuda/Release/hookmd_cuda.node "$out"
# Symbols and debug info only: the dynamic exports and the .nv_fatbin section stay.
strip --strip-unneeded "$out"

echo "prebuild-cuda: GPU images"
node scripts/list-fatbin.cjs "$out" --expect "$images"

echo "prebuild-cuda: shared libraries"
ldd "$out"
if ldd "$out" | grep -q libcudart; then echo "prebuild-cuda: $out links libcudart dynamically" >&2; exit 1; fi
unexpected=$(ldd "$out" | grep -Ev 'linux-vdso|libc\.so|libm\.so|libgcc_s\.so|libstdc\+\+\.so|ld-linux' || true)
if [ -n "$unexpected" ]; then echo "prebuild-cuda: unexpected dependencies: $unexpected" >&2; exit 1; fi

# Loading it proves the strip kept the N-API entry point; the probe must answer, GPU or not.
node -e "
  const binding = require(process.argv[1]);
  const cuda = binding.backends().find((entry) => entry.name === 'cuda');
  if (!binding.cudaBuild || cuda === undefined) throw new Error('no cuda backend compiled in');
  console.log('prebuild-cuda: loads; cuda backend', cuda.available ? 'available on ' + cuda.device : 'unavailable here: ' + cuda.reason);
" "$PWD/$out"
mv "$out" "$dest"
echo "prebuild-cuda: wrote $dest ($(stat -c %s "$dest") bytes)"
