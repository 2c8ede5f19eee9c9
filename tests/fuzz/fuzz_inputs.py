"""Mutation fuzzing of what kfield reads: edge lists and HDF5 exports, mutated at random (seeded)
and crafted, each given to the kfield program as a user would. Every run must end by itself
within seconds, on exit code 0 or 2 (never a signal), a refusal in one line, no byte of the input
echoed raw; and nothing wrong may be accepted:
  - an edge list is accepted exactly when a reference reading of the format accepts it, with
    the same devices and edges;
  - an export `inspect --verify` accepts says what the undamaged one says, and a run resumed
    from it gives the undamaged run's digest; crafted shapes, types and links are refused.
    fuzz_inputs.py KFIELD WORKDIR EDGELIST MUTANTS SECONDS
Prints 'N passed, M failed' and exits 1 on any failure."""
import os
import random
import re
import shutil
import subprocess
import sys
import time

kfield, work, edges_file = sys.argv[1], sys.argv[2], sys.argv[3]
mutants, seconds = int(sys.argv[4]), float(sys.argv[5])
rng = random.Random(int(os.environ.get("KFIELD_FUZZ_SEED", "20261207")))
deadline = time.monotonic() + seconds
env = dict(os.environ, KOKKOS_NUM_THREADS="1", OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
passed, failures = 0, []
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


def run(args, timeout=20):
    try:
        return subprocess.run([kfield] + args, capture_output=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None


def judge(label, p, accepted=None):
    """None when the run behaved; else what was wrong."""
    if p is None:
        return "hung: no exit within 20 s"
    if p.returncode < 0:
        return f"ended on signal {-p.returncode}"
    if p.returncode not in (0, 2):
        return f"exit code {p.returncode}: {p.stderr[-300:]!r}"
    said = p.stdout + p.stderr
    raw = [b for b in said if (b < 0x20 and b not in (9, 10)) or b >= 0x7F]
    if raw:
        return f"wrote {len(raw)} raw non-printable bytes: {said[-200:]!r}"
    if p.returncode == 2 and (not p.stderr.startswith(b"kfield: ") or p.stderr.count(b"\n") != 1):
        return f"a refusal not in one line: {p.stderr[-300:]!r}"
    return accepted(p) if accepted and p.returncode == 0 else None


def record(label, problem):
    global passed
    if problem is None:
        passed += 1
    else:
        failures.append(f"{label}: {problem}")


# ---- edge lists ------------------------------------------------------------------------------
MAX_ID = 2**31 - 1
NUMBER = re.compile(rb"^[0-9.eE+-]+$")


def reference(data):
    """(devices, edges) of an edge list, or None where the format refuses it."""
    edges, seen = {}, False
    for line in data.split(b"\n"):
        if len(line) > 4096:
            return None
        line = line.split(b"#")[0]
        words = line.split()
        if not words:
            continue
        if len(words) not in (2, 3):
            return None
        ids = []
        for w in words[:2]:
            if not w.isdigit() or len(w) > 10 or int(w) >= MAX_ID:
                return None
            ids.append(int(w))
        length = 1.0
        if len(words) == 3:
            if not NUMBER.match(words[2]):
                return None
            try:
                length = float(words[2])
            except ValueError:
                return None
            if not (length >= 0.0 and length != float("inf")):
                return None
        a, b = ids
        if a == b:
            return None
        key = (min(a, b), max(a, b))
        if key in edges and edges[key] != length:
            return None
        edges[key] = length
        seen = True
    if not seen:
        return None
    return max(max(k) for k in edges) + 1, len(edges)


def mutate_text(data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(9)
        at = rng.randrange(len(data) + 1)
        if op == 0 and data:
            data[min(at, len(data) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif op == 2:
            del data[at:at + rng.randint(1, 40)]
        elif op == 3:
            data[at:at] = data[at:at + rng.randint(1, 60)]
        elif op == 4:
            data[at:at] = rng.choice([b" 99999999999 ", b" 2147483647 ", b" -1 ", b" 1e309 ", b" nan ",
                                      b" 0x10 ", b" inf ", b"\x00", b"\xff\xfe", b"\r\n", b"#", b" 7 7\n"])
        elif op == 5:
            data[at:at] = b"1" * rng.choice([4095, 4096, 4097, 9000])
        elif op == 6:
            del data[at:]
        elif op == 7:
            data[at:at] = b"\n%d %d %s\n" % (rng.randrange(5000), rng.randrange(5000), rng.choice([b"", b"0.5", b"2"]))
        else:
            data[at:at] = b"\x1b[2J"
    return bytes(data)


base_edges = open(edges_file, "rb").read()
described = re.compile(rb"\((\d+) devices, (\d+) edges\)")
for i in range(mutants):
    if time.monotonic() > deadline:
        break
    data = mutate_text(base_edges)
    path = os.path.join(work, f"edges-{i}.txt")
    with open(path, "wb") as f:
        f.write(data)
    want = reference(data)
    big = want is not None and want[0] > 10**6  # may be refused for memory: not judged on that

    def accepted(p, want=want):
        m = described.search(p.stdout)
        got = (int(m.group(1)), int(m.group(2))) if m else None
        return None if got == want else f"accepted as {got}, the format says {want}"

    p = run(["run", "hop-gradient", "--network", "edges:" + path, "--rounds", "2"])
    problem = judge(path, p, accepted)
    if problem is None and p.returncode == 2 and want is not None and not big:
        problem = f"refused ({p.stderr.strip()!r}), the format accepts {want}"
    record(path, problem)
    if problem is None:
        os.remove(path)

# Not regular files, and files that never end.
for target in ["/dev/zero", "/dev/null", work]:
    record("edges:" + target, judge(target, run(["run", "hop-gradient", "--network", "edges:" + target, "--rounds", "1"]),
                                    lambda p: "accepted"))
fifo = os.path.join(work, "fifo")
os.mkfifo(fifo)
record("edges:FIFO", judge(fifo, run(["run", "hop-gradient", "--network", "edges:" + fifo, "--rounds", "1"]),
                           lambda p: "accepted"))

# ---- HDF5 exports ----------------------------------------------------------------------------
base = os.path.join(work, "base.h5")
network = ["--network", "grid:12x10", "--source", "0"]
made = run(["run", "hop-gradient"] + network + ["--rounds", "6", "--every", "2", "--out", base])
assert made is not None and made.returncode == 0, made
digest = re.compile(rb"field sha256: ([0-9a-f]+)")


def inspected(path):
    p = run(["inspect", path, "--verify"])
    return p, (p.stdout.split(b"\n", 1)[1] if p and p.returncode == 0 else None)  # after the line naming the file


def resumed(path):
    p = run(["run", "hop-gradient"] + network + ["--rounds", "2", "--resume", path])
    m = digest.search(p.stdout) if p and p.returncode == 0 else None
    return p, (m.group(1) if m else None)


_, base_view = inspected(base)
_, base_digest = resumed(base)
assert base_view and base_digest, "the undamaged export is not read"
whole = open(base, "rb").read()
nonzero = [i for i, b in enumerate(whole) if b]


def judge_file(path, must_refuse=False):
    p, view = inspected(path)
    problem = judge(path + " (inspect --verify)", p,
                    lambda p: "accepted though crafted" if must_refuse else
                    (None if view == base_view else "accepted, and says another thing than the undamaged file"))
    if problem:
        return "inspect --verify: " + problem
    p, got = resumed(path)
    problem = judge(path + " (--resume)", p,
                    lambda p: None if got == base_digest else f"resumed to another field (sha256 {got})")
    return "--resume: " + problem if problem else None


for i in range(mutants):
    if time.monotonic() > deadline:
        break
    data = bytearray(whole)
    kind = rng.randrange(4)
    if kind == 3:
        del data[rng.randrange(len(data)):]  # truncated
    else:
        for _ in range(rng.randint(1, 3)):  # bytes flipped, mostly where something is written
            at = rng.choice(nonzero) if rng.random() < 0.9 else rng.randrange(len(data))
            data[at] ^= 1 << rng.randrange(8)
    path = os.path.join(work, f"export-{i}.h5")
    with open(path, "wb") as f:
        f.write(data)
    problem = judge_file(path)
    record(path, problem)
    if problem is None:
        os.remove(path)

try:
    import h5py
    import numpy
except ImportError as missing:
    print("h5py is not importable (crafted files skipped):", missing)
    h5py = None
if h5py is not None:
    def craft(name, edit):
        path = os.path.join(work, f"crafted-{name}.h5")
        shutil.copy(base, path)
        with h5py.File(path, "r+") as f:
            edit(f)
        return path

    def replace(f, name, **kw):
        del f[name]
        f.create_dataset(name, **kw)

    def negative_rounds(f):
        layout = f["restart/layout"][()]
        layout[:, 6:] = -1
        f["restart/layout"][...] = layout

    crafted = {
        "rounds-int32": lambda f: replace(f, "simulation/rounds", data=f["simulation/rounds"][()].astype("int32")),
        "layout-transposed": lambda f: replace(f, "restart/layout", data=f["restart/layout"][()].T.copy()),
        "carry-short": lambda f: replace(f, "restart/carry0", data=f["restart/carry0"][:10]),
        "carry-int64": lambda f: replace(f, "restart/carry0", data=f["restart/carry0"][()].view("int64")),
        "no-restart": lambda f: f.__delitem__("restart"),
        "no-commits": lambda f: f.__delitem__("simulation/commits"),
        "commits-beyond": lambda f: replace(f, "simulation/commits", data=f["simulation/commits"][()] + 5),
        "output-2^40-rows": lambda f: replace(f, "fields/output", shape=(2**40, 120, 1), chunks=(1, 120, 1), dtype="f8"),
        "offsets-2^40": lambda f: replace(f, "network/offsets", shape=(2**40,), chunks=(4096,), dtype="i8"),
        "samples-2^40": lambda f: f["simulation"].attrs.modify("samples", numpy.int64(2**40)),
        "link-cycle": lambda f: f["network"].__setitem__("loop", f["/"]),
        "vlen-kind": lambda f: f.attrs.__setitem__("kind", "simulation-export"),
        "restart-rounds-negative": negative_rounds,
    }
    for name, edit in crafted.items():
        path = craft(name, edit)
        problem = judge_file(path, must_refuse=True)
        record(path, problem)

print(f"fuzz: {len(base_edges)}-byte edge list and {len(whole)}-byte export mutated")
for f in failures:
    print("FAILED", f)
print(f"{passed} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
