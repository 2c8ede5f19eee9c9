#!/usr/bin/env python3
"""kfield train end to end, on a config that trains in a second: the loss falls; owners,
threads, spaces, windows, budgets and MPI ranks give one final parameter hash; a run resumed
from a checkpoint, also after kill -9 at a random moment, gives that hash too; the pictures
exist, decode, have their sizes and are not blank.

usage: check_train.py KFIELD WORKDIR [MPIEXEC]   (KFIELD_TRAIN_SEED picks the kill moments)
"""
import json
import os
import random
import re
import subprocess
import sys
import time

KFIELD, WORK = sys.argv[1], sys.argv[2]
MPIEXEC = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
os.makedirs(WORK, exist_ok=True)
failures = []

TINY = {
    "program": {"hidden": [4, 4]},
    "scenarios": {"graphs": 2, "devices": 30, "samples": 6, "extra_rounds": 3},
    "training": {"steps": 12, "rate": 0.02, "checkpoint_every": 4, "owners": 2},
    "evaluation": {"held_out": 1, "scale": 3},
}


def config(name, **changes):
    c = json.loads(json.dumps(TINY))
    for key, value in changes.items():
        section, field = key.split("__")
        c[section][field] = value
    path = os.path.join(WORK, name + ".json")
    with open(path, "w") as f:
        json.dump(c, f)
    return path


def train(cfg, out, *extra, launch=(), env=None):
    args = list(launch) + [KFIELD] + list(extra[:0]) + ["train", cfg, "--out", out, "--no-png"] + list(extra)
    r = subprocess.run(args, capture_output=True, text=True, timeout=300, env=env)
    if r.returncode != 0:
        failures.append("%s: exit %d\n%s%s" % (" ".join(args), r.returncode, r.stdout, r.stderr))
        return None, r.stdout
    m = re.search(r"parameters sha256: ([0-9a-f]{64})", r.stdout)
    if not m:
        failures.append("%s: no parameter hash in\n%s" % (" ".join(args), r.stdout))
        return None, r.stdout
    return m.group(1), r.stdout


def expect(what, got, want):
    if got != want:
        failures.append("%s: parameters sha256 %s, the uninterrupted run's %s" % (what, got, want))


full = config("tiny")
base, text = train(full, os.path.join(WORK, "base.h5"))
m = re.search(r"loss: (\S+) at step 1, (\S+) at step 12", text)
if not m or not float(m.group(2)) < 0.5 * float(m.group(1)):
    failures.append("the loss did not fall to half in 12 steps:\n" + text)
if "held-out 0 (90 devices" not in text or "library distance-gradient mean |error| 0 " not in text:
    failures.append("no held-out report on 90 devices with the exact library line:\n" + text)

# Placement and memory change no bit.
for extra in (["--owners", "3"], ["--owners", "6", "--threads", "1"], ["--threads", "2"],
              ["--space", "serial"], ["--window", "3"], ["--budget", "200000"]):
    got, _ = train(full, os.path.join(WORK, "placed.h5"), *extra)
    expect(" ".join(extra), got, base)

# Resumed from the checkpoint at step 8 of a run that stopped there.
short = config("short", training__steps=8)
train(short, os.path.join(WORK, "short.h5"))
got, text = train(full, os.path.join(WORK, "resumed.h5"), "--resume", os.path.join(WORK, "short.h5"), "--owners", "3")
expect("resumed at step 8 under 3 owners", got, base)
if "resumed at step 8" not in text:
    failures.append("the resumed run does not say where it resumed:\n" + text)

# A checkpoint of another problem, or one past the steps asked, is refused by name (exit 2).
for cfg, message in ((config("wider", program__hidden=[5, 4]), "it was trained with program.hidden[0] = 4, this config has 5"),
                     (config("deeper", program__hidden=[4, 4, 4]), "it was trained with program.hidden[2] = (none)"),
                     (config("fewer", training__steps=5), "it is at step 8, past training.steps = 5")):
    r = subprocess.run([KFIELD, "train", cfg, "--no-png", "--out", os.path.join(WORK, "refused.h5"), "--resume",
                        os.path.join(WORK, "short.h5")], capture_output=True, text=True, timeout=60)
    if r.returncode != 2 or message not in r.stderr:
        failures.append("resuming short.h5 with %s: exit %d, expected 2 and '%s':\n%s" % (cfg, r.returncode, message, r.stderr))

# Killed (SIGKILL) at a random moment after its first checkpoint: resumed from what is on disk.
rng = random.Random(int(os.environ.get("KFIELD_TRAIN_SEED", "1")))
slow = config("slow", training__steps=40, training__checkpoint_every=3)
want, _ = train(slow, os.path.join(WORK, "slow.h5"))
for attempt in range(3):
    out = os.path.join(WORK, "killed%d.h5" % attempt)
    for stale in (out, out + ".partial"):
        if os.path.exists(stale):
            os.remove(stale)
    p = subprocess.Popen([KFIELD, "train", slow, "--out", out, "--no-png"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while not os.path.exists(out) and time.time() < deadline and p.poll() is None:
        time.sleep(0.005)
    time.sleep(rng.uniform(0.0, 0.4))
    p.kill()
    p.wait()
    got, _ = train(slow, os.path.join(WORK, "after%d.h5" % attempt), "--resume", out)
    expect("resumed after kill -9 (attempt %d)" % attempt, got, want)

if MPIEXEC:
    for ranks in (1, 2, 3):
        got, _ = train(full, os.path.join(WORK, "ranks%d.h5" % ranks), "--owners", "3",
                       launch=(MPIEXEC, "-np", str(ranks)))
        expect("mpiexec -np %d" % ranks, got, base)

# Around obstacles (task b): the loss falls, placement changes no bit, the held-out networks
# have ten times the obstacles and are scored on their free devices.
walled = config("walled", scenarios__obstacles=1)
walled_base, text = train(walled, os.path.join(WORK, "walled.h5"))
m = re.search(r"loss: (\S+) at step 1, (\S+) at step 12", text or "")
if not m or not float(m.group(2)) < 0.5 * float(m.group(1)):
    failures.append("around obstacles, the loss did not fall to half in 12 steps:\n" + str(text))
if not re.search(r"held-out 0 \(90 devices, [0-9]+ on obstacles", text or ""):
    failures.append("no held-out report with obstacles:\n" + str(text))
for extra in (["--owners", "3", "--threads", "1"], ["--space", "serial"]):
    got, _ = train(walled, os.path.join(WORK, "walled-placed.h5"), *extra)
    expect("around obstacles, " + " ".join(extra), got, walled_base)


def image_ok(path, size, said):
    """The PNG was announced, decodes, has the size asked and many colours (not blank)."""
    import matplotlib.image
    import numpy as np
    if path not in said.split():
        failures.append("kfield plot did not say it wrote " + path)
    try:
        image = matplotlib.image.imread(path)
    except Exception as e:  # noqa: BLE001 - any decoding failure is the finding
        failures.append("%s does not decode as PNG: %s" % (path, e))
        return
    if image.shape[:2] != (size[1], size[0]):
        failures.append("%s is %dx%d, not %dx%d" % (path, image.shape[1], image.shape[0], size[0], size[1]))
    colours = len(np.unique(image.reshape(-1, image.shape[-1]), axis=0))
    if colours < 20:
        failures.append("%s has %d colours: blank" % (path, colours))


# Pictures of the training checkpoint.
pictures = os.path.join(WORK, "pictures")
r = subprocess.run([KFIELD, "plot", os.path.join(WORK, "base.h5"), "--out", pictures], capture_output=True, text=True,
                   timeout=120)
if r.returncode != 0:
    failures.append("kfield plot: exit %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
else:
    for name, size in (("loss.png", (900, 480)), ("heldout0.png", (1500, 480))):
        image_ok(os.path.join(pictures, name), size, r.stdout)

# Pictures of simulation exports: a grid as pixels, a random geometric graph as points.
for network in ("grid:24x20", "rgg:300:1.5:4"):
    export = os.path.join(WORK, "export-%s.h5" % network.split(":")[0])
    folder = os.path.join(WORK, "export-%s" % network.split(":")[0])
    subprocess.run([KFIELD, "run", "distance-gradient", "--network", network, "--out", export], check=True,
                   capture_output=True, timeout=60)
    r = subprocess.run([KFIELD, "plot", export, "--out", folder], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        failures.append("kfield plot %s: exit %d\n%s%s" % (export, r.returncode, r.stdout, r.stderr))
        continue
    image_ok(os.path.join(folder, "field.png"), (720, 600), r.stdout)

if failures:
    print("\n\n".join(failures))
    sys.exit(1)
print("kfield train: one parameter hash for owners, threads, spaces, windows, budgets, resumes, kills%s; pictures ok"
      % (" and ranks" if MPIEXEC else ""))
