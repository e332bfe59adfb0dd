#!/usr/bin/env bash
# Packs programs for a device machine that has CUDA, cuDNN and cuBLAS but none of Debian's
# libraries: each FILE (a program or plugin of a build tree), stripped, at its path, and every shared
# library they load except glibc's, the C++ runtime's and NVIDIA's (those come from the device), in
# lib/. Writes .device/pack.tar.xz; the device runs tests/device/cuda_checks.sh with `.device` carried.
#   tests/device/pack.sh build-device/tests/plugins/tessera_cuda_{backend,tuner}_tests \
#     build-device/tests/plugins/tessera_plugins_cli_tests build-device/bin/tessera-cli build-device/bin/plugins/*
# tessera-cli from the default build links libtorch (hundreds of MB with its dependencies) and LLVM
# (over 100 MB): pack one from a build configured with -DTESSERA_WITH_TORCH=OFF -DTESSERA_WITH_LLVM=OFF
# -DTESSERA_BUILD_GUI=OFF, with its cuda plugin (the GPU tuner needs neither; CPU kernels are then C),
# and its tests from the same build (-DTESSERA_BUILD_TESTS=ON): the default build's link LLVM.
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ $# -gt 0 ]] || { echo "usage: tests/device/pack.sh FILE..." >&2; exit 2; }
files=("$@")
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/lib" .device
for file in "${files[@]}"; do
  [[ -f "$file" ]] || { echo "pack: $file is missing (build first)" >&2; exit 1; }
  mkdir -p "$stage/$(dirname "$file")"
  strip --strip-debug -o "$stage/$file" "$file"
done
# Shared libraries, except the system's core and NVIDIA's (the device has its own, matching its driver).
skip='^(linux-vdso|ld-linux|libc\.|libm\.|libdl\.|librt\.|libpthread\.|libstdc\+\+|libgcc_s|libcuda|libcudnn|libcublas|libnvrtc)'
ldd "${files[@]}" | awk '/=> \//{print $1, $3}' | sort -u | while read -r name path; do
  [[ "$name" =~ $skip ]] && continue
  strip --strip-debug -o "$stage/lib/$name" "$path" 2>/dev/null || cp "$path" "$stage/lib/$name"
done
# The tree and the pack travel together under 64 MiB: x86 branch filtering and one large dictionary
# make the pack about 12 % smaller than xz's default (28.9 against 32.8 MB), at a couple of minutes.
tar -C "$stage" -I "xz -T1 --x86 --lzma2=preset=9e,dict=192MiB" -cf .device/pack.tar.xz .
ls -l .device/pack.tar.xz
