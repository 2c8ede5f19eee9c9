#!/usr/bin/env bash
# The GPU check, for a machine with an NVIDIA GPU (CI has none and does not run it):
#
#   Kokkos_ROOT=<prefix of a CUDA Kokkos> bash scripts/gpu-check.sh [BUILD_DIR]
#
# 1. builds kfield with Kokkos' nvcc_wrapper, KFIELD_REQUIRE_CUDA=ON and warnings as errors;
# 2. runs ctest (kfield_test_Cuda among the rest; train.end_to_end trains on the default
#    space, Cuda, and compares the parameter hash with Serial's and OpenMP's);
# 3. runs the hop gradient on a 1000 x 1000 grid until stable, every library
#    program, and the gradient of both learnable ones under kfield repro: on Cuda and on every
#    host space the build has, at 1 and 2 OpenMP threads and in sample chunks, comparing the
#    bits of their results;
# 4. runs the headline benchmarks on Cuda: the canonical sum of 10^9 doubles against a read of
#    the same bytes, hop-gradient rounds on 10^7 devices (B = 1 and 64) against the hand loop,
#    a learner step and update, and the reverse.
#
# Kokkos_ROOT is built outside this repository, with Serial (or OpenMP) beside Cuda so there is
# a host space to compare with (docs/building.md, CUDA). Dependencies the machine lacks
# (GoogleTest, Google Benchmark, CLI11, nlohmann-json, hwloc) are found through
# CMAKE_PREFIX_PATH. Everything it writes goes to KFIELD_GPU_CHECK_OUT (default
# BUILD_DIR/gpu-check): the logs, repro-*.txt and .json, bench-*.json and summary.txt. It exits 0 only when
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

# The same bits on every space: kfield repro runs each job on Cuda, Serial and OpenMP (1 and
# 2 threads) and sample chunkings, and compares the bits.
kfield=$build/apps/kfield
repro() {  # repro NAME JOB...
  local name=$1
  shift
  if "$kfield" repro --max-threads 2 --json "$out/repro-$name.json" -- "$@" \
       >"$out/repro-$name.txt" 2>&1; then
    say "$name: $(tail -1 "$out/repro-$name.txt")"
  else
    tail -3 "$out/repro-$name.txt"
    fail "$name: the bits differ or a run failed (repro-$name.txt)"
  fi
}
if ! "$kfield" info | grep -q "backends.*Cuda.*"; then fail "kfield info lists no Cuda backend"; fi
say "bits: kfield repro on every space"
repro main-job run hop-gradient
for p in hop-gradient distance-gradient broadcast collect-sum election channel gossip-max \
         consensus scaled-distance learned-consensus; do
  repro "$p" run "$p" --network grid:300x200 --samples 2 --rounds 150
done
for p in hop-gradient distance-gradient collect-sum; do
  repro "$p-rgg" run "$p" --network rgg:50000:1.6:3 --samples 2 --rounds 120
done
for p in scaled-distance learned-consensus; do
  repro "grad-$p" grad "$p" --network grid:100x100 --rounds 300 --samples 4
done

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
