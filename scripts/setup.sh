#!/usr/bin/env bash
# Installs what kfield needs on Debian 12 (as root) and, unless the user brings a Kokkos
# (Kokkos_ROOT), builds Kokkos 3.4.01 with Serial + OpenMP + hwloc from Debian's own trilinos
# source package into a cache outside the repository. Idempotent; prints nothing on success.
# Prints the Kokkos prefix to use on its last line when asked with --print-kokkos-root.
set -euo pipefail

cache=${KFIELD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kfield}
kokkos_prefix=$cache/kokkos-3.4.01-openmp
log=$cache/setup.log
mkdir -p "$cache"
: > "$log"

fail() { echo "kfield setup: $1 (log: $log)" >&2; exit 1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

packages=(build-essential cmake ninja-build pkg-config git
  libhdf5-dev hdf5-tools libhwloc-dev hwloc libgtest-dev libgmock-dev libbenchmark-dev
  libopenmpi-dev openmpi-bin libssl-dev libcli11-dev nlohmann-json3-dev dpkg-dev python3-h5py
  python3-numpy libopenblas0-pthread python3-matplotlib clang-format-14)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  command -v apt-get >/dev/null || fail "missing packages (${missing[*]}) and no apt-get: install them by hand"
  as_root apt-get update -qq >>"$log" 2>&1 || fail "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >>"$log" 2>&1 || fail "apt-get install ${missing[*]} failed"
fi

if [ -n "${Kokkos_ROOT:-}" ]; then
  [ -d "$Kokkos_ROOT" ] || fail "Kokkos_ROOT=$Kokkos_ROOT does not exist"
  kokkos_prefix=$Kokkos_ROOT
elif [ ! -f "$kokkos_prefix/.kfield-complete" ]; then
  # Source packages need a deb-src entry: derive it from the machine's own deb entries.
  if ! apt-get source --download-only --print-uris trilinos >/dev/null 2>&1; then
    src=/etc/apt/sources.list.d/debian.sources
    [ -f "$src" ] || fail "no $src to derive a deb-src entry from; add one for trilinos"
    sed -e 's/^Types: deb$/Types: deb-src/' "$src" |
      as_root tee /etc/apt/sources.list.d/kfield-deb-src.sources >/dev/null
    as_root apt-get update -qq >>"$log" 2>&1 || fail "apt-get update (deb-src) failed"
  fi
  work=$(mktemp -d "$cache/kokkos-src.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && apt-get source --download-only -qq trilinos) >>"$log" 2>&1 ||
    fail "apt-get source trilinos failed"
  orig=$(ls "$work"/trilinos_*.orig.tar.* | head -n 1)
  tar -xf "$orig" -C "$work" --wildcards '*/packages/kokkos/*' >>"$log" 2>&1 ||
    fail "could not unpack packages/kokkos from $orig"
  kokkos_src=$(ls -d "$work"/*/packages/kokkos)
  cmake -S "$kokkos_src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_STANDARD=17 -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_HWLOC=ON \
    -DCMAKE_INSTALL_PREFIX="$kokkos_prefix" >>"$log" 2>&1 || fail "configuring Kokkos failed"
  cmake --build "$work/build" >>"$log" 2>&1 || fail "building Kokkos failed"
  rm -rf "$kokkos_prefix"
  cmake --install "$work/build" >>"$log" 2>&1 || fail "installing Kokkos failed"
  # Written last, so an interrupted build is never taken for a finished one.
  touch "$kokkos_prefix/.kfield-complete"
fi

if [ "${1:-}" = --print-kokkos-root ]; then echo "$kokkos_prefix"; fi
