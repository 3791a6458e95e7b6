#!/usr/bin/env bash
# Installs the Debian packages cgrasim needs to build and test, and only those that are missing.
# Idempotent: when every package is present it installs nothing and touches no package list.
# Works as root on a fresh Debian 12; as another user it uses sudo when available.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libsystemc-dev
  libboost-graph-dev
  libgraphviz-dev graphviz
  libyaml-cpp-dev
  googletest libgtest-dev
  libcli11-dev
  nlohmann-json3-dev
  libfmt-dev
  libsqlite3-dev                 # cgrasim sweep: the results database
  openmpi-bin libopenmpi-dev     # cgrasim sweep under mpirun, and its MPI test (required to build)
  gnuplot-nox                    # cgrasim sweep --plots, cgrasim plot
  libpagmo-dev                   # cgrasim explore's optimisers (pagmo2; required to build)
  python3                        # bench/gpu_tables.py and gpu_compare.py; the GPU tables' test
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
as_root=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: error: not root and no sudo; install: ${missing[*]}" >&2; exit 1; }
  as_root=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
