"""A periodic export under faults, as a user meets them: a run killed (SIGKILL) at random moments
keeps every snapshot up to its last commit, `kfield inspect --verify` passes on it, and a run
resumed from it ends with the uninterrupted run's digest; a second writer of the same file is
refused at once and the first one's export is whole.
    export_faults.py KFIELD WORKDIR TRIALS"""
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

try:
    import h5py
except ImportError as missing:
    print("h5py is not importable:", missing)
    sys.exit(1 if os.environ.get("CI") == "true" else 77)

kfield, work, trials = sys.argv[1], sys.argv[2], int(sys.argv[3])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
env = dict(os.environ, KOKKOS_NUM_THREADS="1", OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
job = ["run", "hop-gradient", "--network", "grid:150x150", "--source", "0", "--source", "22499"]
total, every = 1200, 7
digest = re.compile(rb"field sha256: ([0-9a-f]{64})")
failures, passed = [], 0


def run(args, timeout=120):
    return subprocess.run([kfield] + args, capture_output=True, timeout=timeout, env=env)


def check(label, ok, detail=""):
    global passed
    if ok:
        passed += 1
    else:
        failures.append(f"{label}: {detail}")


start = time.monotonic()
whole = run(job + ["--rounds", str(total), "--every", str(every), "--out", os.path.join(work, "whole.h5")])
seconds = time.monotonic() - start
assert whole.returncode == 0, whole.stderr
expected = digest.search(whole.stdout).group(1)

rng = random.Random(7)
killed_with_file = 0
for trial in range(trials):
    path = os.path.join(work, f"killed-{trial}.h5")
    p = subprocess.Popen([kfield] + job + ["--rounds", str(total), "--every", str(every), "--out", path],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    time.sleep(rng.uniform(0.05, seconds))
    p.send_signal(signal.SIGKILL)
    p.wait()
    if not os.path.exists(path):  # killed before its first commit
        check(f"trial {trial}", not os.path.exists(path), "")
        continue
    killed_with_file += 1
    v = run(["inspect", path, "--verify"])
    check(f"trial {trial}: inspect --verify", v.returncode == 0, v.stderr.decode(errors="replace"))
    with h5py.File(path, "r", swmr=True) as f:
        committed = int(f["simulation/commits"][-1])
        rounds = [int(r) for r in f["simulation/rounds"][:committed]]
    taken = list(range(every, total, every)) + [total]
    check(f"trial {trial}: snapshots", rounds == taken[:committed], f"rounds {rounds}")
    left = total - rounds[-1]
    if left == 0:
        continue
    r = run(job + ["--rounds", str(left), "--resume", path])
    m = digest.search(r.stdout)
    check(f"trial {trial}: resumed after round {rounds[-1]}", r.returncode == 0 and m and m.group(1) == expected,
          (r.stderr.decode(errors="replace") + f" digest {m.group(1) if m else None}, expected {expected}"))

# Two writers of one file: the second is refused while the first runs; the first's export is whole.
path = os.path.join(work, "shared.h5")
first = subprocess.Popen([kfield] + job + ["--rounds", str(total), "--every", str(every), "--out", path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
time.sleep(min(0.5, seconds / 3))
second = run(job + ["--rounds", "3", "--out", path])
out, err = first.communicate(timeout=300)
check("second writer refused", second.returncode == 2 and b"another process is writing" in second.stderr,
      second.stderr.decode(errors="replace"))
check("first writer unharmed", first.returncode == 0 and digest.search(out).group(1) == expected, err.decode(errors="replace"))
v = run(["inspect", path, "--verify"])
check("first writer's export verifies", v.returncode == 0, v.stderr.decode(errors="replace"))

print(f"{trials} kills ({killed_with_file} after a commit), run of {seconds:.2f} s")
for f in failures:
    print("FAILED", f)
print(f"{passed} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
