#!/usr/bin/env bash
# GPU verification in one call of a GPU machine that has no Node.js and no network (docs/cuda.md): unpacks
# the Node and node_modules packed beside the tree into .devpack/, then runs the chosen phases, each under its
# own time limit, writing one log per phase and a summary line per phase into $OUT (or ./gpu-check-out).
#   backends  the CUDA parity and transfer tests, with skips turned into failures (HOOKMD_REQUIRE_CUDA=1)
#   suite     the whole suite on the cuda backend (tests that need git, npm or a compiler left out)
#   bench     bench/gpu.mjs (forces and neighbor builds) and bench/gpu-step.mjs (whole steps, FIRE, hooks)
#   sanitize  compute-sanitizer memcheck over the CUDA tests that finish in seconds, in one process
# Usage: bash scripts/gpu-check.sh [phase ...]   (default: backends suite bench)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/gpu-check-out}
mkdir -p "$out"
bash .devpack/on-device.sh true > "$out/env.txt" 2>&1
export PATH=/tmp/devnode:$PATH
nvidia-smi >> "$out/env.txt" 2>&1

phase() {
  local name=$1 limit=$2 t0=$SECONDS status
  shift 2
  timeout --kill-after=10 "$limit" "$@" > "$out/$name.log" 2>&1
  status=$?
  echo "$name: exit $status after $((SECONDS - t0)) s" | tee -a "$out/summary.txt"
}
# Without git, npm, a compiler or TypeScript's own package (not packed) these cannot run on the device.
host_only=(--exclude 'test/docs/**' --exclude 'test/native/install-script.test.ts' --exclude 'test/cli/docs.test.ts')

[ $# -gt 0 ] || set -- backends suite bench
for name in "$@"; do
  case $name in
    backends) phase backends "${LIMIT_BACKENDS:-150}" env HOOKMD_REQUIRE_CUDA=1 node node_modules/vitest/vitest.mjs run test/backends --reporter=verbose ;;
    suite) phase suite "${LIMIT_SUITE:-200}" env HOOKMD_BACKEND=cuda node node_modules/vitest/vitest.mjs run "${host_only[@]}" \
      --reporter=dot --reporter=json --outputFile.json="$out/suite.json" ;;
    bench)
      phase bench-forces "${LIMIT_BENCH:-90}" node bench/gpu.mjs --seconds 1
      phase bench-steps "${LIMIT_BENCH_STEPS:-150}" node bench/gpu-step.mjs --seconds 2 ;;
    # One worker thread in one process: compute-sanitizer follows the process it starts, and vitest's forks
    # would run the kernels in children it may not instrument.
    sanitize) phase sanitize "${LIMIT_SANITIZE:-150}" env HOOKMD_REQUIRE_CUDA=1 compute-sanitizer --tool memcheck \
      node node_modules/vitest/vitest.mjs run --pool=threads --maxWorkers=1 --no-isolate test/backends/cuda.test.ts \
      test/backends/loss-parity.test.ts test/backends/stream-transfers.test.ts test/backends/coherence.test.ts \
      test/backends/reductions.test.ts test/backends/integrator-parity.test.ts ;;
    *) echo "unknown phase $name" >&2; exit 2 ;;
  esac
done
