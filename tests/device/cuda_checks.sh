#!/usr/bin/env bash
# The GPU checks, on a device machine (CUDA driver, cuDNN 9, cuBLAS, NVRTC; none of Debian's
# libraries): unpacks what tests/device/pack.sh packed, runs the CUDA tests and tessera-cli's CUDA
# paths, and writes logs and reports under $OUT. Run from the repository root with `.device`
# carried. The build's absolute paths (samples, RPATHs) name /work/main, so that path is made to
# point here. TESSERA_DEVICE_TUNE: workloads to tune with `--target cuda` (TESSERA_DEVICE_TRIALS,
# default 200; TESSERA_DEVICE_BATCH, default MetaSchedule's 64; TESSERA_DEVICE_TUNE_ARGS added;
# TESSERA_DEVICE_TUNE_LIMIT seconds).
# TESSERA_DEVICE_BENCH: strategies to bench on the samples with measured:cuda, end to end
# (TESSERA_DEVICE_BENCH_ARGS added; TESSERA_DEVICE_BENCH_LIMIT seconds each).
# TESSERA_DEVICE_OPTIMIZE: sample names `optimize` runs with the default cost model (auto: measured:cuda
# where the GPU is usable) and --out, so do no harm times on the GPU and the file says so
# (TESSERA_DEVICE_OPTIMIZE_ARGS added; TESSERA_DEVICE_OPTIMIZE_LIMIT seconds each).
# TESSERA_DEVICE_TESTS: the test suites to run (default all three; empty for none).
# TESSERA_DEVICE_ACCURACY: sample names whose candidates `costs accuracy` predicts and times with
# measured:cuda (TESSERA_DEVICE_ACCURACY_LIMIT seconds).
set -uo pipefail
root=$PWD
out=${OUT:-$root/.device/out}
mkdir -p "$out"
exec > >(tee "$out/device.log") 2>&1
# Only on a device machine: never replace a real checkout at that path.
if [[ "$root" != /work/main && -e /work/main && ! -L /work/main ]]; then
  echo "cuda_checks: /work/main exists here; run this on a device machine" >&2
  exit 2
fi
tar -C "$root" -xJf .device/pack.tar.xz
if [[ "$root" != /work/main ]]; then mkdir -p /work && rm -f /work/main && ln -s "$root" /work/main; fi
cd /work/main

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
# NVIDIA's libraries as the device has them (the toolkit's tree or the Python wheels).
dirs=""
for name in libcudnn.so.9 libcublas.so.13 libcublasLt.so.13 libnvrtc.so.13 libnvrtc-builtins.so.13.0; do
  found=$(find /usr/local/cuda/ /usr/local/cuda*/lib64 /opt /usr/lib -name "$name" 2>/dev/null | head -1)
  echo "$name: ${found:-MISSING}"
  [[ -n "$found" ]] && dirs="$dirs:$(dirname "$found")"
done
export LD_LIBRARY_PATH="/work/main/lib$dirs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# tessera-cli comes from a build without libtorch (pack.sh says why); the CLI tests name the default
# build's path, so that path leads to it when the default build's own is not packed.
cli=build-device/bin/tessera-cli
[[ -f build-device/bin/tessera-cli && ! -e build/bin ]] && mkdir -p build && ln -s ../build-device/bin build/bin
# The tests come from the lean build too where it has them (-DTESSERA_BUILD_TESTS=ON), else from the default one.
tests=build-device/tests/plugins
[[ -d $tests ]] || tests=build/tests/plugins
for program in $tests/tessera_cuda_backend_tests $tests/tessera_cuda_tuner_tests $cli build-device/bin/plugins/*; do
  [[ -f "$program" ]] && ldd "$program" | grep -q "not found" && { echo "$program lacks:"; ldd "$program" | grep "not found"; }
done

# A fresh NVRTC kernel cache, so the tuner compiles every candidate in this run.
export TMPDIR=$(mktemp -d)
step() { echo; echo "=== $* ($(date +%T))"; }
for suite in ${TESSERA_DEVICE_TESTS-cuda_backend cuda_tuner plugins_cli}; do
  program=$tests/tessera_${suite}_tests
  [[ -f "$program" ]] || continue
  filter='*'
  [[ $suite == plugins_cli ]] && filter='*Cuda*' # the rest need the CPU and ORT plugins
  step "$program"
  timeout 300 "$program" --gtest_filter="$filter" --gtest_output=xml:"$out/$suite.xml"
done
if [[ -f "$cli" ]]; then
  step "plugins"
  "$cli" plugins
  for workload in ${TESSERA_DEVICE_TUNE:-}; do
    step "tune $workload"
    tag=$(echo "$workload" | tr -c 'a-z0-9\n' '_' | cut -c1-40)
    TIMEFORMAT="tune wall %R s"
    time timeout "${TESSERA_DEVICE_TUNE_LIMIT:-240}" "$cli" tune "$workload" --target cuda \
      --trials "${TESSERA_DEVICE_TRIALS:-200}" --batch "${TESSERA_DEVICE_BATCH:-64}" ${TESSERA_DEVICE_TUNE_ARGS:-} --db :memory: --json "$out/tune_$tag.json"
  done
  if [[ -n "${TESSERA_DEVICE_ACCURACY:-}" ]]; then
    step "costs accuracy, measured:cuda: $TESSERA_DEVICE_ACCURACY"
    models=()
    for name in $TESSERA_DEVICE_ACCURACY; do models+=("samples/$name.onnx"); done
    TIMEFORMAT="accuracy wall %R s"
    time timeout "${TESSERA_DEVICE_ACCURACY_LIMIT:-240}" "$cli" costs accuracy "${models[@]}" --cost measured:cuda --json "$out/accuracy.json"
  fi
  for name in ${TESSERA_DEVICE_OPTIMIZE:-}; do
    step "optimize $name, the default cost model, --out"
    TIMEFORMAT="optimize wall %R s"
    time timeout "${TESSERA_DEVICE_OPTIMIZE_LIMIT:-240}" env -u TESSERA_COST "$cli" optimize "samples/$name.onnx" --strategy eqsat \
      --out "$TMPDIR/opt_$name.onnx" ${TESSERA_DEVICE_OPTIMIZE_ARGS:-} --json "$out/optimize_$name.json"
  done
  for strategy in ${TESSERA_DEVICE_BENCH:-}; do
    step "bench $strategy, measured:cuda, end to end"
    TIMEFORMAT="bench wall %R s"
    time timeout "${TESSERA_DEVICE_BENCH_LIMIT:-300}" "$cli" bench --models samples --strategies "$strategy" --cost measured:cuda \
      --e2e ${TESSERA_DEVICE_BENCH_ARGS:-} --json "$out/bench_$strategy.json"
  done
fi
step "done"
