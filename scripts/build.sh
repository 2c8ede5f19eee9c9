#!/usr/bin/env bash
# Installs the dependencies (scripts/setup.sh), then configures and builds kfield in
# ${KFIELD_BUILD_DIR:-build}. Extra arguments go to CMake's configure step.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${KFIELD_BUILD_DIR:-$root/build}
kokkos=$(bash "$root/scripts/setup.sh" --print-kokkos-root)

args=(-G Ninja -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-Release}" -DKokkos_ROOT="$kokkos")
# AVX2 where the CPU has it (the same bits; see KFIELD_ARCH in CMakeLists.txt). Not
# -march=native: on AVX-512 machines GCC 12 miscompiles a std::vector<double> initialiser
# list (tests/TestLibrary.cpp's {1, 1, 1, 1, 0, 0, 0, 0} becomes a broadcast of 1.0).
if grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo &&
  grep -qw bmi2 /proc/cpuinfo && grep -qw movbe /proc/cpuinfo; then
  args+=(-DKFIELD_ARCH="${KFIELD_ARCH:-x86-64-v3}")
fi
if [ "${CI:-}" = true ]; then args+=(-DKFIELD_ENABLE_WARNINGS_AS_ERRORS=ON); fi
# Quiet on success; on failure the log's end, where the error is.
mkdir -p "$build"
log=$build/build.log
step() {
  if ! "$@" >"$log" 2>&1; then
    tail -n 150 "$log" >&2
    echo "kfield: '$*' failed (log: $log)" >&2
    exit 1
  fi
}
step cmake -S "$root" -B "$build" "${args[@]}" "$@"
step cmake --build "$build" -- -j"$(nproc)"
