#!/usr/bin/env bash
# Builds the *reference* LAMMPS used by bench/ and by the fixture generators in
# bench/reference-lammps/ (snap-fixtures.mjs, mlearn-reference.mjs). It is NOT
# used by CI: CI only compares against the checked-in fixtures under
# test/fixtures/snap/, and Debian's own `lmp` (lammps package) lacks ML-SNAP and
# ML-IAP, so regenerating those fixtures needs this build.
#
# What it does, from Debian's own source package (no other source is fetched):
#   1. adds a deb-src entry for Debian's registry if none exists
#      (/etc/apt/sources.list.d/debian-src.sources, deb822 format),
#   2. apt-get update; installs the build dependencies it needs,
#   3. `apt-get source lammps` into $HOOKMD_REFERENCE_DIR (default
#      /work/reference-lammps, outside the repository),
#   4. configures cmake/ of that source: serial (no MPI, no OpenMP), Release,
#      -O3 -march=native, packages ML-SNAP, ML-IAP (without Python), MANYBODY
#      and OPT (ZBL, used by the `hybrid/overlay zbl ... snap` files, is in the
#      core pair styles),
#   5. builds with $JOBS (default 2) jobs; prints the binary path and version.
#
# Usage:  sudo bash bench/reference-lammps/build.sh     (root: apt-get)
# Then:   export HOOKMD_REFERENCE_LMP=/work/reference-lammps/build/lmp
# The other scripts read HOOKMD_REFERENCE_LMP, defaulting to that path.
#
# About 20 minutes on 2 cores. Rerunning reuses the unpacked source and the
# build directory (an incremental make).
set -euo pipefail

DIR="${HOOKMD_REFERENCE_DIR:-/work/reference-lammps}"
JOBS="${JOBS:-2}"
SRC_LIST=/etc/apt/sources.list.d/debian-src.sources

# 1. deb-src entry (only if no deb-src for deb.debian.org/debian is configured).
if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  cat >"$SRC_LIST" <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  echo "added $SRC_LIST"
fi

# 2. package lists and the tools the build needs (cmake and g++ usually exist).
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends dpkg-dev cmake g++ make pkg-config >/dev/null

# 3. Debian's LAMMPS source package.
mkdir -p "$DIR"
cd "$DIR"
SRCDIR="$(find "$DIR" -maxdepth 1 -mindepth 1 -type d -name 'lammps-*' | sort | tail -n 1)"
if [ -z "$SRCDIR" ]; then
  apt-get source lammps
  SRCDIR="$(find "$DIR" -maxdepth 1 -mindepth 1 -type d -name 'lammps-*' | sort | tail -n 1)"
fi
echo "source: $SRCDIR"

# 4. configure. CMAKE_DISABLE_FIND_PACKAGE_MPI: LAMMPS's cmake probes for MPI even
# with BUILD_MPI=off, and a partial Open MPI install (runtime without headers,
# as Debian's lmp pulls in) makes that probe fail the configure step.
BUILD="$DIR/build"
mkdir -p "$BUILD"
cmake -S "$SRCDIR/cmake" -B "$BUILD" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS="-O3 -march=native" \
  -DBUILD_MPI=off -DBUILD_OMP=off -DCMAKE_DISABLE_FIND_PACKAGE_MPI=TRUE \
  -DBUILD_SHARED_LIBS=off \
  -DPKG_ML-SNAP=on -DPKG_ML-IAP=on -DMLIAP_ENABLE_PYTHON=off \
  -DPKG_MANYBODY=on -DPKG_OPT=on \
  -DWITH_JPEG=off -DWITH_PNG=off -DWITH_FFMPEG=off -DWITH_GZIP=on

# 5. build.
start=$(date +%s)
cmake --build "$BUILD" -j "$JOBS"
echo "build took $(( $(date +%s) - start )) s"

LMP="$BUILD/lmp"
echo "version: $(echo 'info config' | "$LMP" -log none -nocite 2>/dev/null | head -n 1)"
echo "binary:  $LMP"
echo "export HOOKMD_REFERENCE_LMP=$LMP"
