#!/usr/bin/env bash
# Proves that the published package installs and loads without a compiler: packs hookmd (whose prepack,
# scripts/prebuild.sh, builds the CPU prebuild and checks its glibc floor), checks that the tarball carries
# prebuilds/linux-x64, the LICENSE and the guides under docs/ (the CLI's messages cite them), and that the
# binary in it needs no glibc newer than 2.28 (objdump -T), installs the
# tarball into an empty folder with every compiler hidden from PATH, then imports hookmd there and
# round-trips a Batch. The same tarball without its prebuild must then fail to install with hookmd's one
# message naming what to install, not node-gyp's. Where the CUDA prebuild exists, it also packs the
# optional platform package hookmd-cuda-<platform>-<arch>, installs it beside hookmd with no nvcc either,
# and shows that backend 'cuda' loads the binary from that package (docs/cuda.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
platform=$(node -p 'process.platform + "-" + process.arch')

# prepack builds prebuilds/<platform>/hookmd.node in a copy of the tree, so the checkout's build/ stays.
tarball=$(npm pack --silent --pack-destination "$work" | tail -n 1)
prebuild="package/prebuilds/$platform/hookmd.node"
# Listed to a file first: grep -q stops reading early, and the SIGPIPE would fail the pipeline.
tar -tzf "$work/$tarball" > "$work/contents"
for shipped in "$prebuild" package/LICENSE package/docs/cli.md package/docs/dynamics.md package/docs/config.schema.json; do
  if ! grep -qx "$shipped" "$work/contents"; then
    echo "check-pack: $tarball does not contain $shipped" >&2
    exit 1
  fi
done

# The platform package is packed from the prebuild that `npm run native:prebuild-cuda` left in the checkout;
# rebuilding it here would cost a full nvcc build.
cuda_package="hookmd-cuda-$platform"
cuda_prebuild="$root/prebuilds-cuda/$platform/hookmd_cuda.node"
cuda_tarball=
if [ ! -d "packages/$cuda_package" ]; then
  echo "check-pack: no CUDA platform package for $platform; checking hookmd alone"
elif [ -f "$cuda_prebuild" ]; then
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
# The floor of the binary as installed, read as the dynamic loader reads it.
bash "$root/scripts/glibc-floor/check.sh" "$work/app/node_modules/hookmd/prebuilds/$platform/hookmd.node" 2.28

# The same package without a binary that fits, on a machine without a compiler: the install must stop with
# hookmd's message (what to install, where prebuilds exist), not with node-gyp's "Could not find any Python".
mkdir -p "$work/bare" "$work/bare-app"
tar -xzf "$work/$tarball" -C "$work/bare"
rm -rf "$work/bare/package/prebuilds"
tar -czf "$work/bare.tgz" -C "$work/bare" package
cd "$work/bare-app"
echo '{ "name": "hookmd-bare-check", "version": "1.0.0", "private": true, "type": "module" }' > package.json
if PATH="$bin" npm install --no-audit --no-fund --prefer-offline --omit=optional "$work/bare.tgz" > "$work/bare.log" 2>&1; then
  echo "check-pack: the package without a prebuild installed although no compiler exists" >&2
  exit 1
fi
if ! grep -q 'hookmd: cannot install: no prebuilt binary for' "$work/bare.log" || ! grep -q 'install python3, make and a C++17 compiler' "$work/bare.log" ||
  grep -qE 'gyp ERR|Could not find any Python' "$work/bare.log"; then
  echo "check-pack: without a prebuild or a compiler the install did not fail with hookmd's message:" >&2
  cat "$work/bare.log" >&2
  exit 1
fi
echo "check-pack: without a prebuild or a compiler, the install stops with:"
grep '^hookmd: \|hookmd: cannot' "$work/bare.log" | sed 's/^npm error //' | head -n 2
cd "$work/app"

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
