#!/usr/bin/env bash
# Proves that the published package installs and loads without a compiler: builds the N-API prebuild,
# packs the package, installs the tarball into an empty folder with every compiler hidden from PATH, then
# imports hookmd there and round-trips a Batch. Where the CUDA prebuild exists, it also packs the optional
# platform package hookmd-cuda-<platform>-<arch>, installs it beside hookmd with no nvcc either, and shows
# that backend 'cuda' loads the binary from that package (docs/cuda.md).
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

# The platform package is packed from the prebuild that `npm run native:prebuild-cuda` left in the checkout
# (the copy above holds no ignored files); rebuilding it here would cost a full nvcc build.
platform=$(node -p 'process.platform + "-" + process.arch')
cuda_package="hookmd-cuda-$platform"
cuda_prebuild="$root/prebuilds-cuda/$platform/hookmd_cuda.node"
cuda_tarball=
if [ ! -d "packages/$cuda_package" ]; then
  echo "check-pack: no CUDA platform package for $platform; checking hookmd alone"
elif [ -f "$cuda_prebuild" ]; then
  mkdir -p "prebuilds-cuda/$platform"
  cp "$cuda_prebuild" "prebuilds-cuda/$platform/"
  cuda_tarball=$(npm pack --silent --pack-destination "$work" "./packages/$cuda_package" | tail -n 1)
elif command -v nvcc >/dev/null 2>&1; then
  echo "check-pack: nvcc is installed but $cuda_prebuild is missing; run npm run native:prebuild-cuda" >&2
  exit 1
else
  echo "check-pack: no CUDA prebuild and no nvcc here; checking hookmd alone (its optional package is skipped)"
fi

# A PATH with node and npm but no cc, c++, g++, make, python3, cmake or nvcc, and none of the CUDA variables a
# developer's shell may set: the CUDA binary carries its runtime (static cudart; prebuild-cuda checks ldd).
bin="$work/bin"
mkdir -p "$bin" "$work/app"
for tool in node npm npx sh env; do ln -s "$(command -v "$tool")" "$bin/$tool"; done
unset LD_LIBRARY_PATH CUDACXX CUDA_HOME CUDA_PATH
for tool in cc c++ gcc g++ make cmake python3 nvcc; do
  if PATH="$bin" command -v "$tool" >/dev/null 2>&1; then echo "check-pack: $tool still visible" >&2; exit 1; fi
done

cd "$work/app"
echo '{ "name": "hookmd-pack-check", "version": "1.0.0", "private": true, "type": "module" }' > package.json
PATH="$bin" CC=/bin/false CXX=/bin/false npm install --no-audit --no-fund --prefer-offline "$work/$tarball" ${cuda_tarball:+"$work/$cuda_tarball"}
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

if [ -z "$cuda_tarball" ]; then exit 0; fi
# One process: ask for cuda, which must come from the platform package. On a GPU it runs; elsewhere the
# typed error carries the probe's reason, and 'auto' (allowed, since nothing was loaded) falls back to cpu
# giving that same reason.
PATH="$bin" CUDA_PACKAGE="$cuda_package" node --input-type=module <<'EOF'
const { backendInfo, configureNative } = await import('hookmd');
const fromPackage = (file) => file.includes(`/node_modules/${process.env.CUDA_PACKAGE}/`);
configureNative({ backend: 'cuda' });
let info;
try {
  info = backendInfo();
} catch (error) {
  if (error?.code !== 'BACKEND_UNAVAILABLE') throw error;
  const { binary, reason } = error.details;
  if (!fromPackage(binary)) throw new Error(`probed ${binary}, not the platform package`);
  console.log(`check-pack: backend 'cuda' loaded ${binary}`);
  console.log(`check-pack: no usable GPU here: BACKEND_UNAVAILABLE, ${reason}`);
  configureNative({ backend: 'auto' });
  const auto = backendInfo();
  if (auto.backend !== 'cpu' || auto.fallbackReason !== reason) {
    throw new Error(`'auto' ran on ${auto.backend} with fallbackReason ${JSON.stringify(auto.fallbackReason)}`);
  }
  console.log(`check-pack: backend 'auto' falls back to cpu (${auto.binary}): ${auto.fallbackReason}`);
}
if (info !== undefined) {
  if (info.backend !== 'cuda' || !fromPackage(info.binary)) throw new Error(`ran ${info.backend} from ${info.binary}`);
  console.log(`check-pack: backend 'cuda' runs on ${info.device}, loaded from ${info.binary}`);
}
EOF
