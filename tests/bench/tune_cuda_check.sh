#!/usr/bin/env bash
# One-shot check of `tessera-cli tune --target cuda` on a machine with a GPU (issue #15 item 7).
# Builds nothing: run it from a build tree that has bin/tessera-cli and bin/plugins/libtessera_cuda.so.
#   tests/bench/tune_cuda_check.sh [BUILD_DIR] [TRIALS]    (defaults: build, 64)
# Prints the plugins' state, the GPU tuner's tests, then the tuning report's JSON (a few minutes).
set -u
build=${1:-build}
trials=${2:-64}
cli="$build/bin/tessera-cli"
[ -x "$cli" ] || { echo "no $cli: build tessera-cli and the cuda plugin first" >&2; exit 2; }
out=$(mktemp -d /tmp/tune-cuda-check.XXXXXX)
# A fresh kernel cache, so every candidate is compiled by NVRTC in this run.
export TMPDIR="$out"

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -n 2
"$cli" plugins
tests="$build/tests/plugins/tessera_cuda_tuner_tests"
if [ -x "$tests" ]; then
  timeout 300 "$tests" --gtest_brief=1 2>&1 | tail -n 20
fi
timeout 480 "$cli" tune matmul:512x512x512 --target cuda --trials "$trials" \
  --db "$out/tune.sqlite" --json "$out/tune.json"
status=$?
echo "exit status $status"
[ -f "$out/tune.json" ] && cat "$out/tune.json" && echo
exit $status
