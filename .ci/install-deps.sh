#!/usr/bin/env bash
# Installs every system package Tessera needs to build, test and run, from Debian 12 packages.
# Idempotent and non-interactive: when everything is present it only checks and returns.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  qt6-base-dev qt6-svg-dev qt6-charts-dev qt6-qpa-plugins libgl-dev
  libgraphviz-dev
  libonnx-dev libprotobuf-dev protobuf-compiler
  libsqlite3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  coinor-libcbc-dev
  libdnnl-dev
  nlohmann-json3-dev libcli11-dev
  clang libclang-rt-14-dev
  xvfb xauth
)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

as_root=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  as_root=(sudo)
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -q
"${as_root[@]}" apt-get install -y -q "${missing[@]}"
