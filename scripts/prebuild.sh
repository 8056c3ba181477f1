#!/usr/bin/env bash
# Builds the release CPU addon, prebuilds/<platform>-<arch>/hookmd.node, that the hookmd tarball ships
# (docs/install.md), and refuses to leave one behind that lacks what the release promises: a binary that
# loads on glibc 2.28 and newer with no libstdc++ of the system's, and that loads here. `npm pack` and
# `npm publish` run it (prepack), so a packed hookmd always carries its prebuild.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

platform=$(node -p 'process.platform + "-" + process.arch')
# The one prebuild a release promises; other platforms compile from source at install (docs/install.md).
if [ "$platform" != linux-x64 ]; then echo "prebuild: releases are built on linux-x64, not $platform" >&2; exit 1; fi

# prebuildify runs `node-gyp rebuild`, which deletes build/: work on a copy of the tracked tree so that the
# developer's build/Release stays as it was.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$work"
else
  tar -c --exclude=./node_modules --exclude='./build*' --exclude='./prebuilds*' . | tar -x -C "$work"
fi
ln -s "$root/node_modules" "$work/node_modules"
# hookmd_glibc_floor: the static libstdc++ and glibc 2.28 symbol versions of binding.gyp. JOBS: every core.
(cd "$work" && GYP_DEFINES="hookmd_glibc_floor=1" JOBS=max npx --no-install prebuildify --napi --strip)
built="$work/prebuilds/$platform/hookmd.node"

echo "prebuild: glibc floor"
bash scripts/glibc-floor/check.sh "$built" 2.28

echo "prebuild: shared libraries"
ldd "$built"
unexpected=$(ldd "$built" | grep -Ev 'linux-vdso|libc\.so|libm\.so|libgcc_s\.so|ld-linux' || true)
if [ -n "$unexpected" ]; then echo "prebuild: unexpected dependencies: $unexpected" >&2; exit 1; fi

# Loading it proves the strip kept the N-API entry point and that the pinned symbols resolve.
node -e "
  const binding = require(process.argv[1]);
  const cpu = binding.backends().find((entry) => entry.name === 'cpu');
  if (cpu === undefined || !cpu.available) throw new Error('no cpu backend');
  console.log('prebuild: loads; cpu backend on', cpu.device);
" "$built"

dest="prebuilds/$platform/hookmd.node"
mkdir -p "$(dirname "$dest")"
mv "$built" "$dest"
echo "prebuild: wrote $dest ($(stat -c %s "$dest") bytes)"
