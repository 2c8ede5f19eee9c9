#!/usr/bin/env python3
"""kfield's least-squares learner step next to numpy/OpenBLAS's, alternated in one run.

For each thread count T, R times in turn:
  numpy   in a child process (OPENBLAS_NUM_THREADS=T is read when numpy loads) times
          g = 2 X^T (X w - y) / n;  w -= rate g   on float64 X of n x k, w of k;
  kfield  bench_learn times Learner/Step/{Functor,Program}/Sgd/OpenMP at the same k and n
          under OMP_NUM_THREADS=T (4 owners, canonical combine).
The medians over all rounds go to --json (with bench_learn's context and numpy's BLAS) and
to --markdown as a table. Exits 77 (ctest's skip) when numpy is missing, unless CI=true.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

NUMPY_CHILD = r"""
import json, sys, time
import numpy as np
k, n, reps = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(7)
X = rng.uniform(-1.0, 1.0, (n, k))
truth = rng.uniform(-1.0, 1.0, k)
y = X @ truth
w = np.zeros(k)
rate = 0.05
# The step's own check: at w = 0 the gradient is -2 X^T y / n, here against per-column dots.
g0 = 2.0 * (X.T @ (X @ w - y)) / n
for c in (0, k // 2, k - 1):
    expect = -2.0 * float(np.dot(X[:, c], y)) / n
    if abs(g0[c] - expect) > 1e-9 * max(1.0, abs(expect)):
        sys.exit("numpy gradient coordinate %d: %r, expected %r" % (c, g0[c], expect))
times = []
for _ in range(reps + 1):
    start = time.perf_counter()
    g = 2.0 * (X.T @ (X @ w - y)) / n
    w -= rate * g
    times.append(time.perf_counter() - start)
print(json.dumps({"seconds": times[1:], "numpy": np.__version__}))
"""


def fail(message):
    sys.exit("numpy_step.py: " + message)


def numpy_step(k, n, reps, threads):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
    done = subprocess.run([sys.executable, "-c", NUMPY_CHILD, str(k), str(n), str(reps)],
                          env=env, capture_output=True, text=True)
    if done.returncode != 0:
        fail("the numpy step failed: " + done.stderr.strip())
    return json.loads(done.stdout)


def kfield_step(bench, k, n, reps, threads):
    pattern = "^Learner/Step/(Functor|Program)/Sgd/OpenMP/k:%d/samples:%d/" % (k, n)
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    done = subprocess.run([bench, "--benchmark_filter=" + pattern, "--benchmark_format=json",
                           "--benchmark_repetitions=%d" % reps,
                           "--benchmark_report_aggregates_only=true"],
                          env=env, capture_output=True, text=True)
    if done.returncode != 0:
        fail("%s failed (exit %d): %s" % (bench, done.returncode, done.stderr.strip()[-2000:]))
    report = json.loads(done.stdout)
    medians = {}
    for row in report["benchmarks"]:
        if row.get("aggregate_name") == "median":
            kind = "functor" if "/Functor/" in row["name"] else "program"
            scale = {"ms": 1e-3, "us": 1e-6, "ns": 1e-9, "s": 1.0}[row["time_unit"]]
            medians[kind] = row["real_time"] * scale
    if set(medians) != {"functor", "program"}:
        fail("bench_learn has no step at k = %d, samples = %d (filter %s)" % (k, n, pattern))
    return medians, report["context"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", required=True, help="the bench_learn executable")
    parser.add_argument("--k", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=100000)
    parser.add_argument("--threads", default="1,2", help="thread counts, comma-separated")
    parser.add_argument("--rounds", type=int, default=3, help="alternations per thread count")
    parser.add_argument("--reps", type=int, default=5, help="steps timed per side per round")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--markdown", help="write the table here")
    args = parser.parse_args()
    if args.k < 1 or args.samples < 1 or args.rounds < 1 or args.reps < 1:
        fail("--k, --samples, --rounds and --reps must be positive")
    try:
        threads = [int(t) for t in args.threads.split(",")]
    except ValueError:
        fail("--threads %r is not a comma-separated list of counts" % args.threads)
    if any(t < 1 for t in threads):
        fail("--threads %r: every count must be positive" % args.threads)
    try:
        import numpy  # noqa: F401  (only to know it is there; the timing runs in children)
    except ImportError:
        if os.environ.get("CI") == "true":
            fail("numpy is missing (Debian: python3-numpy libopenblas0-pthread)")
        print("numpy_step.py: numpy is missing; skipped")
        return 77
    rows, context, version = [], {}, None
    for t in threads:
        numpy_times, functor, program = [], [], []
        for _ in range(args.rounds):
            result = numpy_step(args.k, args.samples, args.reps, t)
            numpy_times += result["seconds"]
            version = result["numpy"]
            medians, context = kfield_step(args.bench, args.k, args.samples, args.reps, t)
            functor.append(medians["functor"])
            program.append(medians["program"])
        row = {"threads": t, "numpy_s": statistics.median(numpy_times),
               "functor_s": statistics.median(functor), "program_s": statistics.median(program)}
        row["functor_over_numpy"] = row["functor_s"] / row["numpy_s"]
        row["program_over_functor"] = row["program_s"] / row["functor_s"]
        rows.append(row)

    blas = subprocess.run([sys.executable, "-c", "import numpy; numpy.show_config()"],
                          capture_output=True, text=True).stdout
    out = {"context": context, "numpy": version, "numpy_config": blas, "k": args.k,
           "samples": args.samples, "rounds": args.rounds, "reps": args.reps, "rows": rows}
    table = ["| threads | numpy/OpenBLAS (ms) | kfield functor (ms) | functor / numpy "
             "| kfield program (ms) | program / functor |",
             "| --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        table.append("| %d | %.1f | %.1f | %.2f | %.1f | %.2f |" % (
            r["threads"], 1e3 * r["numpy_s"], 1e3 * r["functor_s"], r["functor_over_numpy"],
            1e3 * r["program_s"], r["program_over_functor"]))
    print("\n".join(table))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=2)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("Least-squares step, k = %d, %d samples (medians of %d rounds x %d steps)\n\n"
                    % (args.k, args.samples, args.rounds, args.reps))
            f.write("\n".join(table) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
