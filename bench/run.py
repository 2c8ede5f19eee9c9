#!/usr/bin/env python3
"""kfield's benchmark runner: runs the suites with repetitions and random interleaving at each
thread count, keeps Google Benchmark's JSON (with kfield's context) in a results folder, and
renders the headline ratios and scaling fits as a Markdown table and PNG charts.

    python3 bench/run.py --build build --out bench-results/today     # run, then render
    python3 bench/run.py --render bench-results/today                # render again from JSON
    python3 bench/run.py --render DIR --docs docs/benchmarks.md      # and refresh the docs

Ratios (medians of the repetitions; goals from the issues that set them):
  engine / hand loop   bench_field: Rounds/Engine over Rounds/HandWritten, device-rounds/s
  canonical / read     bench_sum: Sum/Canonical over Sum/Read (same bytes), bytes/s
  ordered / unordered  bench_learn: Learner/UnorderedStep time over Learner/Step time
  reverse / forward    bench_grad: Gradient/Reverse (windowed) time over Gradient/Forward's
  windowed / store-all bench_grad: reverse bytes of the windowed reverse over storing all
Scaling: time per round against devices N (bench_field, hop gradient on grids, B = 1), and
the windowed reverse's memory and time against rounds S (bench_grad): fitted exponents.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys

SPACES = ("Serial", "OpenMP", "Cuda")
SUITES = {  # suite -> (binary, filter)
    "field": ("bench_field", "^Rounds/(Engine|HandWritten)/.*program:0/network:0/"),
    "sum": ("bench_sum", "^Sum/(Canonical|Read|ParallelReduce)/"),
    "learn": ("bench_learn", "^Learner/(Step|UnorderedStep)/Functor/"),
    "grad": ("bench_grad", "^Gradient/(Forward|Reverse)/.*devices:10000/"),
}
QUICK = {  # the smallest sizes, for a smoke run
    "field": "^Rounds/(Engine|HandWritten)/.*program:0/network:0/devices:10000/",
    "sum": "^Sum/(Canonical|Read)/Serial/",
    "learn": "^Learner/(Step|UnorderedStep)/Functor/Sgd/.*k:100/",
    "grad": "^Gradient/(Forward|Reverse)/.*rounds:100/devices:10000/",
}
MARK_BEGIN = "<!-- bench/run.py: begin -->"
MARK_END = "<!-- bench/run.py: end -->"


def fail(message):
    print("run.py: " + message, file=sys.stderr)
    sys.exit(2)


def parse_name(run_name):
    """'Rounds/Engine/OpenMP/program:0/devices:10000/manual_time' -> (family, space, args)."""
    parts = run_name.split("/")
    family, space, args = [], None, {}
    for part in parts:
        if part in SPACES and space is None:
            space = part
        elif ":" in part:
            key, value = part.split(":", 1)
            if key not in ("iterations", "repeats", "min_time"):
                args[key] = int(value) if value.lstrip("-").isdigit() else value
        elif part not in ("manual_time", "real_time") and space is None:
            family.append(part)
    return "/".join(family), space, args


def load_runs(folder):
    """Every benchmark in the folder's JSON files: the median aggregate where there are
    repetitions, the single run otherwise. Returns (runs, contexts)."""
    runs, contexts = [], {}
    files = sorted(f for f in os.listdir(folder) if f.endswith(".json") and f != "ratios.json")
    if not files:
        fail("no benchmark JSON in '%s'" % folder)
    for name in files:
        path = os.path.join(folder, name)
        try:
            with open(path) as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            fail("'%s' is not Google Benchmark JSON (%s)" % (path, e))
        if not isinstance(data, dict) or "benchmarks" not in data:
            fail("'%s' has no 'benchmarks' list: not Google Benchmark JSON" % path)
        threads = data.get("context", {}).get("kfield_threads", "")
        contexts[name] = data.get("context", {})
        entries = data["benchmarks"]
        medians = {e["run_name"] for e in entries if e.get("aggregate_name") == "median"}
        for e in entries:
            if e.get("error_occurred"):
                continue
            if e.get("run_type") == "aggregate" and e.get("aggregate_name") != "median":
                continue
            if e.get("run_type") != "aggregate" and e.get("run_name", e["name"]) in medians:
                continue
            family, space, args = parse_name(e.get("run_name", e["name"]))
            if space is None:
                continue
            runs.append({"family": family, "space": space, "args": args, "entry": e,
                         "threads": str(threads or name.rsplit("-t", 1)[-1].split(".")[0]),
                         "file": name})
    # Only OpenMP depends on the thread count: other spaces' rows come from the lowest count.
    lowest = min((r["threads"] for r in runs), key=lambda t: int(t) if t.isdigit() else 0,
                 default="")
    runs = [r for r in runs if r["space"] == "OpenMP" or r["threads"] == lowest]
    return runs, contexts


def seconds(run):
    entry = run["entry"]
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[entry.get("time_unit", "ns")]
    return entry["real_time"] * scale


def pair(runs, num_family, den_family, value, match=lambda a: a, keep=lambda r: True):
    """Rows of value(num) / value(den) for runs matching on space, threads and match(args)."""
    index = {}
    for r in runs:
        if r["family"] == den_family and keep(r):
            index[(r["space"], r["threads"], json.dumps(match(r["args"]), sort_keys=True))] = r
    rows = []
    for r in runs:
        if r["family"] != num_family or not keep(r):
            continue
        key = (r["space"], r["threads"], json.dumps(match(r["args"]), sort_keys=True))
        if key in index:
            d = index[key]
            rows.append({"space": r["space"], "threads": r["threads"], "args": match(r["args"]),
                         "numerator": value(r), "denominator": value(d),
                         "ratio": value(r) / value(d) if value(d) else float("nan")})
    return sorted(rows, key=lambda x: (x["space"], x["threads"], sorted(x["args"].items())))


def counter(name):
    return lambda r: float(r["entry"][name])


def tapes(runs):
    """The reverse's windowed carries (tape 0) and all rounds stored (tape 2) as families."""
    return [dict(r, family="Windowed" if r["args"]["tape"] == 0 else "StoreAll")
            for r in runs if r["family"] == "Gradient/Reverse" and r["args"].get("tape") in (0, 2)]


def ratios(runs):
    no_tape = lambda a: {k: v for k, v in a.items() if k != "tape"}
    return [
        ("engine / hand loop", "device-rounds/s", 0.8,
         pair(runs, "Rounds/Engine", "Rounds/HandWritten", counter("device_rounds_per_second"))),
        ("canonical / read", "bytes/s", 0.8,
         pair(runs, "Sum/Canonical", "Sum/Read", counter("bytes_per_second"))),
        ("ordered / unordered learner step", "speed", 0.9,
         pair(runs, "Learner/UnorderedStep/Functor/Sgd", "Learner/Step/Functor/Sgd", seconds) +
         pair(runs, "Learner/UnorderedStep/Functor/Adam", "Learner/Step/Functor/Adam", seconds)),
        ("reverse / forward time", "x the forward", None,
         pair(runs, "Gradient/Reverse", "Gradient/Forward", seconds, match=no_tape,
              keep=lambda r: r["args"].get("tape", 0) == 0)),
        ("windowed / store-all reverse memory", "bytes", None,
         pair(tapes(runs), "Windowed", "StoreAll", counter("reverse_bytes"), match=no_tape)),
    ]


def fit(points):
    """Least-squares slope of log y on log x: the exponent of y ~ x^b."""
    points = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0]
    if len(points) < 2:
        return None
    mx = sum(p[0] for p in points) / len(points)
    my = sum(p[1] for p in points) / len(points)
    sxx = sum((p[0] - mx) ** 2 for p in points)
    return sum((p[0] - mx) * (p[1] - my) for p in points) / sxx if sxx else None


def scaling(runs):
    """(name, x label, y label, expected exponent, {(space, threads): [(x, y)]})."""
    per_round, memory, reverse_time = {}, {}, {}
    for r in runs:
        a, key = r["args"], (r["space"], r["threads"])
        if r["family"] == "Rounds/Engine" and a.get("samples") == 1 and a.get("network") == 0:
            per_round.setdefault(key, []).append(
                (a["devices"], 1.0 / float(r["entry"]["device_rounds_per_second"]) * a["devices"]))
        if r["family"] == "Gradient/Reverse" and a.get("tape") == 0:
            memory.setdefault(key, []).append((a["rounds"], float(r["entry"]["reverse_bytes"])))
            reverse_time.setdefault(key, []).append((a["rounds"], seconds(r)))
    return [("round time vs devices N", "N", "seconds per round", 1.0, per_round),
            ("windowed reverse memory vs rounds S", "S", "bytes", 0.5, memory),
            ("windowed reverse time vs rounds S", "S", "seconds", 1.0, reverse_time)]


def describe_args(args):
    return ", ".join("%s %s" % (k, v) for k, v in sorted(args.items()))


def render(folder, charts=True):
    runs, contexts = load_runs(folder)
    groups, scales = ratios(runs), scaling(runs)
    lines = ["Rendered by `bench/run.py` from %s." % ", ".join("`%s`" % f for f in sorted(contexts))]
    first = next(iter(contexts.values()), {})
    lines.append("Context: kfield %s (revision %s), %s, Kokkos %s (%s), %s; %s CPUs at %s MHz."
                 % (first.get("kfield_version", "?"), first.get("kfield_revision", "?"),
                    first.get("kfield_compiler", "?"), first.get("kokkos_version", "?"),
                    first.get("kokkos_spaces_concurrency", "?"), first.get("hwloc_topology", "?"),
                    first.get("num_cpus", "?"), first.get("mhz_per_cpu", "?")))
    summary = {"ratios": [], "scaling": []}
    for title, unit, goal, rows in groups:
        if not rows:
            continue
        lines += ["", "### %s (%s)%s" % (title, unit, ", goal >= %g" % goal if goal else ""), "",
                  "| space | threads | configuration | numerator | denominator | ratio |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for row in rows:
            lines.append("| %s | %s | %s | %.4g | %.4g | **%.3f** |"
                         % (row["space"], row["threads"], describe_args(row["args"]),
                            row["numerator"], row["denominator"], row["ratio"]))
        summary["ratios"].append({"title": title, "unit": unit, "goal": goal, "rows": rows})
    for title, xlabel, ylabel, expected, series in scales:
        fits = [(k, fit(v), len(v)) for k, v in sorted(series.items()) if len(v) >= 2]
        if not fits:
            continue
        lines += ["", "### %s (fitted exponent; expected %g)" % (title, expected), "",
                  "| space | threads | points | exponent |", "| --- | --- | --- | --- |"]
        for (space, threads), b, n in fits:
            lines.append("| %s | %s | %d | **%.3f** |" % (space, threads, n, b))
            summary["scaling"].append({"title": title, "space": space, "threads": threads,
                                       "points": sorted(series[(space, threads)]), "exponent": b})
    text = "\n".join(lines) + "\n"
    with open(os.path.join(folder, "summary.md"), "w") as f:
        f.write(text)
    with open(os.path.join(folder, "ratios.json"), "w") as f:
        json.dump(summary, f, indent=2)
    if charts:
        draw(folder, groups, scales)
    return text


def draw(folder, groups, scales):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    for title, unit, goal, rows in groups:
        if not rows:
            continue
        fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(rows) + 2), 4))
        varying = sorted({k for r in rows for k in r["args"]
                          if len({json.dumps(x["args"].get(k)) for x in rows}) > 1})
        labels = ["%s %st\n%s" % (r["space"], r["threads"],
                                  ", ".join("%s %s" % (k, r["args"].get(k)) for k in varying))
                  for r in rows]
        ax.bar(range(len(rows)), [r["ratio"] for r in rows], color="#4c72b0")
        top = max([r["ratio"] for r in rows if not math.isnan(r["ratio"])] + [goal or 0])
        ax.set_ylim(0, 1.15 * top if top > 0 else 1)
        if goal:
            ax.axhline(goal, color="#c44e52", linestyle="--", label="goal %g" % goal)
            ax.legend()
        ax.set_xticks(range(len(rows)))
        ax.set_xticklabels(labels, rotation=45, ha="right", fontsize=7)
        ax.set_ylabel("ratio (%s)" % unit)
        ax.set_title(title)
        fig.tight_layout()
        fig.savefig(os.path.join(folder, slug(title) + ".png"), dpi=120)
        plt.close(fig)
    for title, xlabel, ylabel, expected, series in scales:
        usable = {k: sorted(v) for k, v in series.items() if len(v) >= 2}
        if not usable:
            continue
        fig, ax = plt.subplots(figsize=(6, 4))
        for (space, threads), points in sorted(usable.items()):
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            ax.loglog(xs, ys, "o-", label="%s %s threads (exponent %.2f)" % (space, threads, fit(points)))
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title("%s (expected exponent %g)" % (title, expected))
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(folder, slug(title) + ".png"), dpi=120)
        plt.close(fig)


def slug(title):
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def update_docs(docs, text):
    with open(docs) as f:
        current = f.read()
    if MARK_BEGIN not in current or MARK_END not in current:
        fail("'%s' has no '%s' ... '%s' section to replace" % (docs, MARK_BEGIN, MARK_END))
    before, rest = current.split(MARK_BEGIN, 1)
    after = rest.split(MARK_END, 1)[1]
    with open(docs, "w") as f:
        f.write(before + MARK_BEGIN + "\n" + text + MARK_END + after)


def run_suites(build, out, suites, threads, repetitions, quick, filters, min_time):
    os.makedirs(out, exist_ok=True)
    for suite in suites:
        binary, pattern = SUITES[suite]
        if quick:
            pattern = QUICK[suite]
        pattern = filters.get(suite, pattern)
        path = os.path.join(build, "bench", binary)
        if not os.access(path, os.X_OK):
            fail("'%s' is not built (build the benchmarks, or pass --build)" % path)
        for t in threads:
            target = os.path.join(out, "%s-t%d.json" % (suite, t))
            env = dict(os.environ, OMP_NUM_THREADS=str(t), KOKKOS_NUM_THREADS=str(t))
            env.setdefault("OMP_PROC_BIND", "true")
            env.setdefault("OMP_PLACES", "cores")
            command = [path, "--benchmark_filter=" + pattern,
                       "--benchmark_repetitions=%d" % repetitions,
                       "--benchmark_enable_random_interleaving=true",
                       "--benchmark_report_aggregates_only=true",
                       "--benchmark_context=kfield_threads=%d" % t,
                       "--benchmark_out=" + target, "--benchmark_out_format=json"]
            if quick or min_time > 0:
                command.append("--benchmark_min_time=%g" % (min_time if min_time > 0 else 0.01))
            print("run.py: %s at %d thread%s" % (suite, t, "" if t == 1 else "s"), flush=True)
            log = target[:-len(".json")] + ".log"
            with open(log, "w") as output:
                result = subprocess.run(command, env=env, stdout=output, stderr=subprocess.STDOUT)
            if result.returncode != 0:
                fail("%s exited with %d (its own check of an answer failed, or no benchmark "
                     "matched '%s'; see %s)" % (binary, result.returncode, pattern, log))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build", help="the build folder (default: build)")
    parser.add_argument("--out", help="results folder to write (default bench-results/latest)")
    parser.add_argument("--render", metavar="DIR", help="only render DIR's JSON again")
    parser.add_argument("--suites", default="field,sum,learn,grad")
    parser.add_argument("--threads", default="", help="comma-separated (default: 1 and all CPUs)")
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="smallest sizes, short runs")
    parser.add_argument("--filter", action="append", default=[], metavar="SUITE=REGEX",
                        help="run SUITE's benchmarks matching REGEX instead of its default set")
    parser.add_argument("--min-time", type=float, default=0.0,
                        help="--benchmark_min_time for every suite (default: its own)")
    parser.add_argument("--no-charts", action="store_true", help="the table only (no matplotlib)")
    parser.add_argument("--docs", help="replace the marked section of this Markdown file")
    a = parser.parse_args()
    if a.render:
        folder = a.render
        if not os.path.isdir(folder):
            fail("'%s' is not a folder" % folder)
    else:
        suites = a.suites.split(",")
        for s in suites:
            if s not in SUITES:
                fail("--suites: unknown suite '%s' (suites: %s)" % (s, ", ".join(SUITES)))
        try:
            threads = [int(t) for t in a.threads.split(",")] if a.threads else \
                sorted({1, os.cpu_count() or 1})
        except ValueError:
            fail("--threads '%s' is not a comma-separated list of counts" % a.threads)
        if any(t < 1 for t in threads):
            fail("--threads '%s': counts must be >= 1" % a.threads)
        if a.repetitions < 1:
            fail("--repetitions must be >= 1, got %d" % a.repetitions)
        filters = {}
        for f in a.filter:
            suite, _, regex = f.partition("=")
            if suite not in SUITES or not regex:
                fail("--filter '%s' is not SUITE=REGEX with a suite of %s" % (f, ", ".join(SUITES)))
            filters[suite] = regex
        folder = a.out or os.path.join("bench-results", "latest")
        run_suites(a.build, folder, suites, threads, a.repetitions, a.quick, filters, a.min_time)
    if not a.no_charts:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            fail("matplotlib is missing (Debian: python3-matplotlib); --no-charts renders the table alone")
    text = render(folder, charts=not a.no_charts)
    if a.docs:
        update_docs(a.docs, text)
    print(text, end="")


if __name__ == "__main__":
    main()
