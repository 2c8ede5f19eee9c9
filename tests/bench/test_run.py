#!/usr/bin/env python3
"""bench/run.py's rendering, on Google Benchmark JSON recorded on the development machine
(tests/bench/recorded): its ratios are the recorded medians' quotients, worked out here from
the JSON itself; its fits are least-squares slopes; charts are written where matplotlib is.
Exit 77 (skipped) without matplotlib, except under CI, where it is installed."""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
runner = os.path.join(here, "..", "..", "bench", "run.py")


def check(condition, message):
    if not condition:
        print("FAIL: " + message)
        sys.exit(1)


def medians(path):
    with open(path) as f:
        data = json.load(f)
    return {e["run_name"]: e for e in data["benchmarks"] if e.get("aggregate_name") == "median"}


try:
    import matplotlib  # noqa: F401
    charts = True
except ImportError:
    if os.environ.get("CI") == "true":
        print("FAIL: matplotlib is missing (scripts/setup.sh installs python3-matplotlib)")
        sys.exit(1)
    charts = False

folder = tempfile.mkdtemp(prefix="kfield-bench-run-")
try:
    for name in os.listdir(os.path.join(here, "recorded")):
        shutil.copy(os.path.join(here, "recorded", name), folder)
    command = [sys.executable, runner, "--render", folder] + ([] if charts else ["--no-charts"])
    result = subprocess.run(command, capture_output=True, text=True)
    check(result.returncode == 0, "run.py --render exited %d: %s" % (result.returncode, result.stderr))
    table = open(os.path.join(folder, "summary.md")).read()
    check(table == result.stdout, "summary.md is not what run.py printed")

    # engine / hand loop at 2 OpenMP threads, 10^6 devices, B = 64: from the JSON directly.
    field = medians(os.path.join(folder, "field-t2.json"))
    shape = "OpenMP/program:0/network:0/devices:1000000/samples:64/manual_time"
    engine = field["Rounds/Engine/" + shape]["device_rounds_per_second"]
    hand = field["Rounds/HandWritten/" + shape]["device_rounds_per_second"]
    row = "| OpenMP | 2 | devices 1000000, network 0, program 0, samples 64 | %.4g | %.4g | **%.3f** |" % (
        engine, hand, engine / hand)
    check(row in table, "the engine / hand loop row is not\n" + row + "\nin\n" + table)
    # Serial does not depend on the thread count: its rows come from 1 thread only.
    check("| Serial | 2 |" not in table, "Serial rows at 2 threads")

    # The windowed reverse's memory against rounds: the slope of log bytes on log S.
    grad = medians(os.path.join(folder, "grad-t1.json"))
    points = [(S, grad["Gradient/Reverse/Serial/tape:0/rounds:%d/devices:10000/samples:16/"
                         "iterations:1/manual_time" % S]["reverse_bytes"]) for S in (100, 1000)]
    slope = (math.log(points[1][1]) - math.log(points[0][1])) / (math.log(1000) - math.log(100))
    line = "| Serial | 1 | 2 | **%.3f** |" % slope
    check("### windowed reverse memory vs rounds S (fitted exponent; expected 0.5)" in table,
          "no memory scaling section")
    check(line in table, "the memory exponent row is not " + line)
    check(0.3 < slope < 0.7, "the recorded memory exponent %.3f is not about 1/2" % slope)

    ratios = json.load(open(os.path.join(folder, "ratios.json")))
    titles = [g["title"] for g in ratios["ratios"]]
    for title in ("engine / hand loop", "canonical / read", "ordered / unordered learner step",
                  "reverse / forward time", "windowed / store-all reverse memory"):
        check(title in titles, "no '%s' in ratios.json" % title)
    if charts:
        for png in ("engine-hand-loop.png", "canonical-read.png",
                    "windowed-reverse-memory-vs-rounds-s.png"):
            path = os.path.join(folder, png)
            check(os.path.exists(path) and open(path, "rb").read(8) == b"\x89PNG\r\n\x1a\n",
                  "no chart " + png)

    # Bad input: one line naming it.
    bad = subprocess.run([sys.executable, runner, "--render", os.path.join(folder, "none")],
                         capture_output=True, text=True)
    check(bad.returncode == 2 and "is not a folder" in bad.stderr, "a missing folder: " + bad.stderr)
    with open(os.path.join(folder, "broken.json"), "w") as f:
        f.write("{")
    bad = subprocess.run([sys.executable, runner, "--render", folder, "--no-charts"],
                         capture_output=True, text=True)
    check(bad.returncode == 2 and "broken.json' is not Google Benchmark JSON" in bad.stderr,
          "a broken JSON file: " + bad.stderr)
finally:
    shutil.rmtree(folder)
if not charts:
    print("matplotlib is missing: the charts were not checked")
    sys.exit(77)
print("bench/run.py renders the recorded results")
