#!/usr/bin/env bash
# Installs every system package Tessera needs to build, test and run, from Debian 12 packages, and
# ONNX Runtime for measured:ort: npm's onnxruntime-node (its CPU runtime; Debian packages none) into
# third_party/ort, where the plugin looks for it. Idempotent and non-interactive: when everything
# is present it only checks and returns.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build pkg-config git
  qt6-base-dev qt6-svg-dev qt6-charts-dev qt6-qpa-plugins libgl-dev
  libgraphviz-dev
  libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata
  libsqlite3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  coinor-libcbc-dev
  libdnnl-dev
  libtorch-dev
  libxgboost-dev
  llvm-dev
  nlohmann-json3-dev libcli11-dev
  clang libclang-rt-14-dev
  xvfb xauth
  slurm-wlm munge
)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done

# Node.js and npm run ONNX Runtime's worker; a Node.js from elsewhere (with its npm) is kept.
command -v node >/dev/null && command -v npm >/dev/null || missing+=(nodejs npm)

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages present"
else
  as_root=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    as_root=(sudo)
  fi
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get update -q
  "${as_root[@]}" apt-get install -y -q "${missing[@]}"
fi

# --ignore-scripts: the package's install script would download more; its CPU runtime is in the
# package already (bin/napi-v6/linux/x64/libonnxruntime.so.1).
ort_version=1.30.0
ort_prefix=third_party/ort
installed=$(node -p "require('./$ort_prefix/node_modules/onnxruntime-node/package.json').version" 2>/dev/null || true)
if [[ "$installed" == "$ort_version" ]]; then
  echo "install-deps: onnxruntime-node $ort_version present in $ort_prefix"
else
  echo "install-deps: installing onnxruntime-node $ort_version into $ort_prefix"
  mkdir -p "$ort_prefix"
  npm install --prefix "$ort_prefix" --ignore-scripts --no-audit --no-fund --loglevel=error "onnxruntime-node@$ort_version"
fi
