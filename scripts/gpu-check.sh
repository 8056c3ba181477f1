#!/usr/bin/env bash
# GPU verification in one call of a GPU machine that has no Node.js and no network (docs/cuda.md): unpacks
# the Node and node_modules packed beside the tree into .devpack/, then runs the chosen phases, each under its
# own time limit, writing one log per phase and a summary line per phase into $OUT (or ./gpu-check-out).
#   verify    the dark kernels (docs/cuda.md, "Dark kernels") with HOOKMD_CUDA_UNVERIFIED=1 and
#             HOOKMD_REQUIRE_CUDA=1: their GPU parity, the ledger contract (real counts = declared) and the
#             budgets; when every test passes, flips them on: records the GPU, $COMMIT and the command in
#             native/cpp/platform/DeviceOperationTable.h and docs/cuda.md, and leaves the change as $OUT/flip.patch
#             (no git here: apply it with `git apply` where the tree lives, then rebuild)
#   backends  the CUDA parity and transfer tests, with skips turned into failures (HOOKMD_REQUIRE_CUDA=1)
#   suite     the whole suite on the cuda backend (tests that need git, npm or a compiler left out)
#   bench     bench/gpu.mjs: the issue's four workloads, construction and the CPU small-system path, cpu
#             against cuda, with the dark kernels run (HOOKMD_CUDA_UNVERIFIED=1)
#   sanitize  compute-sanitizer memcheck over the CUDA tests that finish in seconds, in one process
#   split     bench/gpu-split.mjs on cuda (dark kernels run): FIRE split into start, steps and read-back, and
#             in.lj at 1M and 4k atoms as ten 256-step runs, each with its ledger and transfers ($OUT/split.jsonl)
#   proto     the design study's prototypes (bench/gpu-study/run.sh): the one-launch FIRE kernel checked step
#             for step against hookmd's cpu FIRE, and the fused VV step at 1M and 4k atoms ($OUT/proto/)
# Usage: COMMIT=<hash> bash scripts/gpu-check.sh [phase ...]   (default: verify backends bench)
# One device call for the GPU issue's figures: verify bench split proto (under 8 minutes on an H200).
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
  return $status
}
# Without git, npm, a compiler or TypeScript's own package (not packed) these cannot run on the device.
host_only=(--exclude 'test/docs/**' --exclude 'test/native/install-script.test.ts' --exclude 'test/cli/docs.test.ts')
# What verifies a dark kernel: its parity with the CPU, the ledger's contract and the budgets it is for
# (device-step: the energy sums left until read; neighbor-build: the lists and forces of pair-parity;
# resident-step: the graph per chunk of resident-step-parity, its ledger in ledger-contract and the NVE budget); and
# the integrators' parity, since the thermostat programs the small-system path mirrors (Langevin's
# momentum-free noise, the frozen-atom counts) changed after the last verification.
verify_tests=(test/backends/small-system-parity.test.ts test/backends/device-step-parity.test.ts test/backends/pair-parity.test.ts
  test/backends/ledger-contract.test.ts test/backends/device-budgets.test.ts test/backends/device-ledger.test.ts
  test/backends/integrator-parity.test.ts test/backends/resident-step-parity.test.ts test/backends/many-body-parity.test.ts
  test/backends/many-body-budgets.test.ts)

# Records the verification of every dark kernel family in the sources, and the change as a patch.
flip() {
  local gpu driver when record families
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
  driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
  when=$(date -u +%Y-%m-%d)
  record="$gpu, $when, commit ${COMMIT:-unknown} (bash scripts/gpu-check.sh verify)"
  families=$(sed -n 's/^ *X([A-Za-z]*, "\([a-z-]*\)", "",.*$/\1/p' native/cpp/platform/DeviceOperationTable.h)
  [ -n "$families" ] || { echo "flip: no dark kernel left" | tee -a "$out/summary.txt"; return 0; }
  mkdir -p "$out/flip"
  cp native/cpp/platform/DeviceOperationTable.h "$out/flip/DeviceOperationTable.h.orig"
  cp docs/cuda.md "$out/flip/cuda.md.orig"
  for family in $families; do
    sed -i "s|^\( *X([A-Za-z]*, \"$family\", \)\"\"|\1\"$record\"|" native/cpp/platform/DeviceOperationTable.h
  done
  {
    echo ""
    echo "- $(echo "$families" | tr '\n' ' ')verified on $when on one $gpu (driver $driver), commit ${COMMIT:-unknown}:"
    echo "  \`bash scripts/gpu-check.sh verify\` (${verify_tests[*]}), with HOOKMD_REQUIRE_CUDA=1 and HOOKMD_CUDA_UNVERIFIED=1."
  } >> docs/cuda.md
  { diff -u --label a/native/cpp/platform/DeviceOperationTable.h --label b/native/cpp/platform/DeviceOperationTable.h "$out/flip/DeviceOperationTable.h.orig" native/cpp/platform/DeviceOperationTable.h
    diff -u --label a/docs/cuda.md --label b/docs/cuda.md "$out/flip/cuda.md.orig" docs/cuda.md; } > "$out/flip.patch"
  rm -r "$out/flip"
  echo "flip: $(echo "$families" | tr '\n' ' ')-> $out/flip.patch" | tee -a "$out/summary.txt"
}

[ $# -gt 0 ] || set -- verify backends bench
for name in "$@"; do
  case $name in
    verify)
      if phase verify "${LIMIT_VERIFY:-300}" env HOOKMD_REQUIRE_CUDA=1 HOOKMD_CUDA_UNVERIFIED=1 node node_modules/vitest/vitest.mjs run \
        "${verify_tests[@]}" --reporter=verbose; then flip; fi ;;
    backends) phase backends "${LIMIT_BACKENDS:-150}" env HOOKMD_REQUIRE_CUDA=1 node node_modules/vitest/vitest.mjs run test/backends --reporter=verbose ;;
    suite) phase suite "${LIMIT_SUITE:-200}" env HOOKMD_BACKEND=cuda node node_modules/vitest/vitest.mjs run "${host_only[@]}" \
      --reporter=dot --reporter=json --outputFile.json="$out/suite.json" ;;
    bench) phase bench "${LIMIT_BENCH:-200}" env HOOKMD_CUDA_UNVERIFIED=1 node bench/gpu.mjs --seconds 1 ;;
    split) phase split "${LIMIT_SPLIT:-150}" env HOOKMD_CUDA_UNVERIFIED=1 node bench/gpu-split.mjs --backends cuda --json "$out/split.jsonl" ;;
    proto) phase proto "${LIMIT_PROTO:-120}" bash bench/gpu-study/run.sh "$out/proto" ;;
    # One worker thread in one process: compute-sanitizer follows the process it starts, and vitest's forks
    # would run the kernels in children it may not instrument.
    sanitize) phase sanitize "${LIMIT_SANITIZE:-150}" env HOOKMD_REQUIRE_CUDA=1 HOOKMD_CUDA_UNVERIFIED=1 compute-sanitizer --tool memcheck \
      node node_modules/vitest/vitest.mjs run --pool=threads --maxWorkers=1 --no-isolate test/backends/cuda.test.ts \
      test/backends/loss-parity.test.ts test/backends/stream-transfers.test.ts test/backends/coherence.test.ts \
      test/backends/reductions.test.ts test/backends/integrator-parity.test.ts test/backends/device-ledger.test.ts ;;
    *) echo "unknown phase $name" >&2; exit 2 ;;
  esac
done
