#!/usr/bin/env python3
"""kfield's gradient through rounds next to PyTorch's autograd on the same work.

The work is `kfield grad scaled-distance` on a grid: every round each device takes 0 at its
sample's source, else the least of its neighbors' last values plus scale times the edge length
(1 on a grid); the loss is the sum of squares of the final field, the gradient d(loss)/d(scale).
PyTorch runs the same rounds over a (rows, columns, samples) tensor, the four neighbors as
shifted views and their least elementwise, with `torch.utils.checkpoint` every K rounds and,
with --full-tape, keeping every round. Each run is a process of its own (its peak memory is its own), kfield and PyTorch
alternated R times per thread count; the losses and gradients must be equal (exit 1 if not).
Exit 77 where PyTorch is missing (Debian: python3-torch).

  python3 bench/torch_gradient.py --kfield build/apps/kfield --grid 316x316 --rounds 1000 \\
      --samples 1 --threads 1,2 --reps 3 [--full-tape] [--json F] [--markdown F]
"""
import argparse
import json
import re
import resource
import statistics
import subprocess
import sys
import time


def own_peak_bytes():
    """This process's peak resident bytes: VmHWM starts afresh at exec, where ru_maxrss keeps
    the parent's peak (the parent that spawned it)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def torch_child(a):
    import torch
    from torch.utils.checkpoint import checkpoint

    torch.set_num_threads(a.threads)
    w, h = (int(x) for x in a.grid.split("x"))
    n, b = w * h, a.samples
    stride = max(1, n // max(b, 1))
    source = torch.zeros(n, b, dtype=torch.bool)
    for s in range(b):
        source[(a.source + s * stride) % n, s] = True
    source = source.view(h, w, b)
    zero = torch.zeros((), dtype=torch.float64)

    # The fastest simple PyTorch for a grid: the four neighbors as shifted views of the field
    # padded with +inf, their least taken elementwise. min(d_j) + scale is min(d_j + scale)
    # exactly (rounding is monotone), and the edge length is 1.
    def rounds(d, scale, count):
        for _ in range(count):
            p = torch.nn.functional.pad(d, (0, 0, 1, 1, 1, 1), value=float("inf"))
            least = torch.minimum(torch.minimum(p[:-2, 1:-1], p[2:, 1:-1]),
                                  torch.minimum(p[1:-1, :-2], p[1:-1, 2:]))
            d = torch.where(source, zero, least + scale)
        return d

    scale = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
    start = time.perf_counter()
    d = torch.full((h, w, b), float("inf"), dtype=torch.float64)
    done = 0
    while done < a.rounds:
        k = min(a.checkpoint_every, a.rounds - done) if not a.full_tape else a.rounds
        if a.full_tape:
            d = rounds(d, scale, k)
        else:
            d = checkpoint(lambda d0, s0, k=k: rounds(d0, s0, k), d, scale)
        done += k
    loss = (d * d).sum()
    loss.backward()
    seconds = time.perf_counter() - start
    peak = own_peak_bytes()
    print(json.dumps({"loss": loss.item(), "gradient": scale.grad.item(), "seconds": seconds,
                      "peak_bytes": peak}))


def kfield_run(a, threads):
    out = subprocess.run([a.kfield, "grad", "scaled-distance", "--network", "grid:" + a.grid,
                          "--rounds", str(a.rounds), "--samples", str(a.samples), "--source",
                          str(a.source), "--threads", str(threads)],
                         check=True, capture_output=True, text=True).stdout
    number = r"([-+0-9.eE]+|inf|nan)"
    loss = float(re.search(r"^loss \(sum of squares of the final field\): " + number, out, re.M)[1])
    grad = float(re.search(r"^d\(loss\)/d\(scale\): " + number, out, re.M)[1])
    t = re.search(r"^time: forward " + number + r" s, gradient \(record \+ reverse\) " + number, out, re.M)
    peak = re.search(r"peak resident ([0-9.]+) (B|KiB|MiB|GiB)", out)
    unit = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30}[peak[2]]
    return {"loss": loss, "gradient": grad, "forward_seconds": float(t[1]),
            "seconds": float(t[2]), "peak_bytes": float(peak[1]) * unit}


def torch_run(a, threads, full_tape):
    args = [sys.executable, __file__, "--child", "--grid", a.grid, "--rounds", str(a.rounds),
            "--samples", str(a.samples), "--source", str(a.source), "--threads", str(threads),
            "--checkpoint-every", str(a.checkpoint_every)] + (["--full-tape"] if full_tape else [])
    return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kfield", default="build/apps/kfield")
    p.add_argument("--grid", default="316x316")
    p.add_argument("--rounds", type=int, default=1000)
    p.add_argument("--samples", type=int, default=1)
    p.add_argument("--source", type=int, default=0)
    p.add_argument("--threads", default="1,2")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--checkpoint-every", type=int, default=32)
    p.add_argument("--full-tape", action="store_true")
    p.add_argument("--json")
    p.add_argument("--markdown")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.child:
        a.threads = int(a.threads)
        return torch_child(a)
    if not re.fullmatch(r"[1-9][0-9]*(,[1-9][0-9]*)*", a.threads):
        p.error(f"--threads '{a.threads}' is not a comma-separated list of counts")
    if not re.fullmatch(r"[1-9][0-9]*x[1-9][0-9]*", a.grid):
        p.error(f"--grid '{a.grid}' is not WxH (positive whole numbers)")
    if min(a.rounds, a.samples, a.reps, a.checkpoint_every) < 1 or a.source < 0:
        p.error("--rounds, --samples, --reps and --checkpoint-every must be >= 1, --source >= 0")
    import importlib.util
    if importlib.util.find_spec("torch") is None:  # not imported here: children measure their own
        print("torch_gradient: PyTorch is missing (Debian: python3-torch): skipped")
        return 77
    variants = ["kfield", "torch checkpoint every %d" % a.checkpoint_every]
    if a.full_tape:
        variants.append("torch full tape")
    runs = {}
    for threads in (int(t) for t in a.threads.split(",")):
        for _ in range(a.reps):
            for v in variants:
                r = kfield_run(a, threads) if v == "kfield" else torch_run(a, threads, "full" in v)
                runs.setdefault((v, threads), []).append(r)
    bad = [f"{v} at {t} threads: loss {r['loss']!r}, gradient {r['gradient']!r}"
           for (v, t), rs in runs.items() for r in rs
           if (r["loss"], r["gradient"]) != (runs[("kfield", t)][0]["loss"], runs[("kfield", t)][0]["gradient"])]
    lines = [f"grid {a.grid}, {a.rounds} rounds, {a.samples} sample(s), scaled-distance; "
             f"loss {runs[(variants[0], int(a.threads.split(',')[0]))][0]['loss']!r}, "
             f"gradient {runs[(variants[0], int(a.threads.split(',')[0]))][0]['gradient']!r}",
             "", "| | threads | seconds (gradient) | median | peak memory (MB) |", "|---|---|---|---|---|"]
    for (v, t), rs in runs.items():
        secs = [r["seconds"] for r in rs]
        lines.append(f"| {v} | {t} | {', '.join('%.3g' % s for s in secs)} | {statistics.median(secs):.3g} "
                     f"| {max(r['peak_bytes'] for r in rs) / 1e6:.0f} |")
        if v == "kfield":
            fwd = [r["forward_seconds"] for r in rs]
            lines.append(f"| kfield forward (compiled) | {t} | {', '.join('%.3g' % s for s in fwd)} "
                         f"| {statistics.median(fwd):.3g} | |")
    text = "\n".join(lines)
    print(text)
    if a.markdown:
        open(a.markdown, "w").write(text + "\n")
    if a.json:
        json.dump({"grid": a.grid, "rounds": a.rounds, "samples": a.samples,
                   "runs": {f"{v}|{t}": rs for (v, t), rs in runs.items()}}, open(a.json, "w"), indent=1)
    for b in bad:
        print("torch_gradient: differs from kfield: " + b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
