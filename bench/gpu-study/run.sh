#!/usr/bin/env bash
# The GPU design study's prototypes (docs/cuda.md, "Profiling on a device"), built and run against hookmd:
#   fire_lj13  whole FIRE relaxations of 65,536 LJ13 clusters in one launch, checked step for step against
#              hookmd's cpu FIRE (fire-reference.mjs writes the clusters and hookmd's convergence steps)
#   lj_step    the fused velocity-Verlet step of in.lj at 1,048,576 atoms (64 cells) and 4,000 atoms (10 cells)
# Writes one JSON line per measurement into DIR (*.jsonl) and nvcc's register table (ptxas.txt).
# Usage: bash bench/gpu-study/run.sh DIR [--build-only]
#   --build-only compiles the prototypes into build/gpu-study and stops: run it where nvcc is (the GPU machine
#   may have none) and carry build/gpu-study to the device; without nvcc, run.sh uses the binaries found there.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:?usage: run.sh DIR [--build-only]}
mkdir -p "$dir" build/gpu-study
if command -v nvcc > /dev/null; then
  for proto in fire_lj13 lj_step; do
    nvcc -O3 -std=c++17 -arch=sm_90 -Xptxas -v -Inative/cpp "bench/gpu-study/$proto.cu" -o "build/gpu-study/$proto" 2>> "$dir/ptxas.txt"
  done
fi
[ "${2:-}" = --build-only ] && exit 0
for proto in fire_lj13 lj_step; do
  [ -x "build/gpu-study/$proto" ] || { echo "no build/gpu-study/$proto and no nvcc to build it" >&2; exit 2; }
done
node bench/gpu-study/fire-reference.mjs 65536 "$dir" | tee "$dir/fire_reference.jsonl"
build/gpu-study/fire_lj13 65536 "$dir/lj13-65536.pos.bin" "$dir/lj13-65536.ref.bin" | tee "$dir/fire_lj13.jsonl"
rm -f "$dir"/lj13-65536.*.bin
build/gpu-study/lj_step 64 | tee "$dir/lj_step_1m.jsonl"
build/gpu-study/lj_step 10 | tee "$dir/lj_step_4k.jsonl"
