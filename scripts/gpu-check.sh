#!/usr/bin/env bash
# The GPU check, for a machine with an NVIDIA GPU (CI has none and does not run it):
#
#   Kokkos_ROOT=<prefix of a CUDA Kokkos> bash scripts/gpu-check.sh [BUILD_DIR]
#
# 1. builds kfield with Kokkos' nvcc_wrapper, KFIELD_REQUIRE_CUDA=ON and warnings as errors;
# 2. runs ctest (kfield_test_Cuda among the rest);
# 3. runs the main job (the hop gradient on a 1000 x 1000 grid until stable), every library
#    program, and the gradient of both learnable ones, on Cuda and on every host space the
#    build has, and compares the digests of their bits;
# 4. runs the headline benchmarks on Cuda: the canonical sum of 10^9 doubles against a read of
#    the same bytes, hop-gradient rounds on 10^7 devices (B = 1 and 64) against the hand loop,
#    a learner step and update, and the reverse.
#
# Kokkos_ROOT is built outside this repository, with Serial (or OpenMP) beside Cuda so there is
# a host space to compare with (docs/building.md, CUDA). Dependencies the machine lacks
# (GoogleTest, Google Benchmark, CLI11, nlohmann-json, hwloc) are found through
# CMAKE_PREFIX_PATH. Everything it writes goes to KFIELD_GPU_CHECK_OUT (default
# BUILD_DIR/gpu-check): the logs, digests.txt, bench-*.json and summary.txt. It exits 0 only when
# every step passed; the benchmarks' figures are reported, not judged.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build-cuda}
out=${KFIELD_GPU_CHECK_OUT:-$build/gpu-check}
jobs=$(nproc)

if [ -z "${Kokkos_ROOT:-}" ]; then
  echo "gpu-check: set Kokkos_ROOT to the prefix of a CUDA-enabled Kokkos" >&2
  exit 2
fi
wrapper=$Kokkos_ROOT/bin/nvcc_wrapper
if [ ! -x "$wrapper" ]; then
  echo "gpu-check: $wrapper is missing: Kokkos_ROOT must be a Kokkos built with CUDA and" \
       "installed with its compiler wrapper (Spack: kokkos+cuda+wrapper)" >&2
  exit 2
fi
mkdir -p "$out"
summary=$out/summary.txt
: >"$summary"
start=$SECONDS
failed=0
say() { echo "gpu-check [$((SECONDS - start)) s]: $*" | tee -a "$summary"; }
fail() { say "FAILED: $*"; failed=1; }

if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader \
    | sed 's/^/GPU: /' | tee -a "$summary"
fi

say "configure and build ($jobs jobs)"
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
if ! cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
     -DKokkos_ROOT="$Kokkos_ROOT" -DCMAKE_CXX_COMPILER="$wrapper" \
     -DKFIELD_REQUIRE_CUDA=ON -DKFIELD_ENABLE_WARNINGS_AS_ERRORS=ON >"$out/configure.log" 2>&1 \
   || ! cmake --build "$build" -j "$jobs" >"$out/build.log" 2>&1; then
  tail -40 "$out/build.log" "$out/configure.log" 2>/dev/null
  fail "the build (configure.log, build.log)"
  exit 1
fi

say "ctest"
if ! ctest --test-dir "$build" --output-on-failure -j "$jobs" --timeout 900 >"$out/ctest.log" 2>&1; then
  grep -E "tests passed|Failed|\*\*\*" "$out/ctest.log" | tail -30
  fail "ctest (ctest.log)"
fi
grep -E "tests passed" "$out/ctest.log" | tee -a "$summary"

# The same bits on every space: one digest per (job, space).
kfield=$build/apps/kfield
spaces=(cuda)
for s in serial openmp; do
  if "$kfield" run hop-gradient --network grid:2x2 --rounds 1 --space "$s" >/dev/null 2>&1; then
    spaces+=("$s")
  fi
done
if [ ${#spaces[@]} -lt 2 ]; then
  fail "this Kokkos has no host space (Serial or OpenMP) to compare Cuda's bits with"
fi
digests=$out/digests.txt
: >"$digests"
compare() {  # compare NAME LINE-PREFIX ARGS...
  local name=$1 prefix=$2 first="" space digest
  shift 2
  for space in "${spaces[@]}"; do
    digest=$("$kfield" "$@" --space "$space" 2>>"$out/jobs.log" | sed -n "s/^$prefix sha256: //p")
    echo "$name $space ${digest:-none}" >>"$digests"
    if [ -z "$digest" ]; then
      fail "$name on $space printed no digest (jobs.log)"
    elif [ -z "$first" ]; then
      first=$digest
    elif [ "$digest" != "$first" ]; then
      fail "$name: $space's bits differ from ${spaces[0]}'s"
    fi
  done
}
say "bits on ${spaces[*]}"
compare main-job field run hop-gradient
for p in hop-gradient distance-gradient broadcast collect-sum election channel gossip-max \
         consensus scaled-distance learned-consensus; do
  compare "$p/grid" field run "$p" --network grid:300x200 --samples 8 --rounds 150
  compare "$p/rgg" field run "$p" --network rgg:50000:1.6:3 --samples 3 --rounds 120
done
for p in scaled-distance learned-consensus; do
  compare "grad/$p" gradient grad "$p" --network grid:100x100 --rounds 300 --samples 4
done
say "$(wc -l <"$digests") digests in digests.txt"

say "benchmarks on Cuda"
bench() {  # bench NAME SUITE FILTER
  if ! "$build/bench/$2" --benchmark_filter="$3" --benchmark_repetitions=3 \
       --benchmark_report_aggregates_only=true --benchmark_out="$out/bench-$1.json" \
       --benchmark_out_format=json >"$out/bench-$1.txt" 2>&1; then
    fail "benchmark $1 (bench-$1.txt)"
  fi
  grep -E "_median" "$out/bench-$1.txt" | tee -a "$summary"
}
bench sum bench_sum "^Sum/(Canonical|Read|ParallelReduce)/Cuda/doubles:1000000000"
bench field bench_field "^Rounds/(Engine|HandWritten)/Cuda/program:0/network:0/devices:10000000/"
bench learn bench_learn "^Learner/(Step|Update)/.*/Cuda/"
bench grad bench_grad "^Gradient/.*/Cuda/.*rounds:1000/devices:100000/"

say "done: $([ $failed -eq 0 ] && echo "every step passed" || echo "some steps FAILED")"
exit $failed
