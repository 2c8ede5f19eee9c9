#!/usr/bin/env python3
"""Pictures of a kfield HDF5 file (what `kfield plot FILE.h5 --out DIR` runs).

A training checkpoint (kfield train): loss.png (the loss and the gradient norm per step) and,
per evaluated network, NAME.png: the learned field beside the exact one and their difference.
A simulation export (kfield run --out): field.png, the last snapshot's field of sample 0 over
the devices' positions (a grid as pixels, other networks as points).
Every picture is WIDTH x HEIGHT pixels as printed; the paths written are printed one per line.
"""
import argparse
import os
import re
import sys

import h5py
import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

DPI = 100
FIELD_SIZE = (15.0, 4.8)  # inches: 1500 x 480 pixels
LOSS_SIZE = (9.0, 4.8)    # 900 x 480
SINGLE_SIZE = (7.2, 6.0)  # 720 x 600


def save(fig, path):
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    print(path)


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def draw(ax, x, y, values, title, grid=None, cmap="viridis", vmin=None, vmax=None):
    finite = np.isfinite(values)
    if grid is not None:
        width, height = grid
        image = np.where(finite, values, np.nan).reshape(height, width)
        shown = ax.imshow(image, origin="lower", cmap=cmap, vmin=vmin, vmax=vmax, interpolation="nearest")
    else:
        size = max(1.0, 6000.0 / max(len(values), 1))
        shown = ax.scatter(x[finite], y[finite], c=values[finite], s=size, cmap=cmap, vmin=vmin, vmax=vmax,
                           linewidths=0)
        if (~finite).any():
            ax.scatter(x[~finite], y[~finite], s=size, c="lightgrey", linewidths=0)
        ax.set_aspect("equal")
    ax.set_title(title, fontsize=10)
    ax.set_xticks([])
    ax.set_yticks([])
    plt.colorbar(shown, ax=ax, fraction=0.046, pad=0.04)


def plot_training(f, out):
    training = f["training"]
    loss = training["loss"][()]
    norm = training["gradient_norm"][()]
    if len(loss):
        fig, ax = plt.subplots(figsize=LOSS_SIZE)
        steps = np.arange(1, len(loss) + 1)
        ax.semilogy(steps, loss, label="loss (mean over scenarios)")
        ax.semilogy(steps, norm, label="|mean gradient|", alpha=0.6)
        ax.set_xlabel("step")
        ax.set_title("kfield train: %d steps" % len(loss))
        ax.legend()
        ax.grid(True, which="both", alpha=0.3)
        fig.tight_layout()
        save(fig, os.path.join(out, "loss.png"))
    for name in sorted(training["fields"]):
        g = training["fields"][name]
        x, y, values = g["x"][()], g["y"][()], g["values"][()]
        expected = g["expected"][()] if "expected" in g else None
        title = text(g.attrs["title"])
        panels = 3 if expected is not None else 1
        fig, axes = plt.subplots(1, panels, figsize=FIELD_SIZE if panels == 3 else SINGLE_SIZE)
        axes = np.atleast_1d(axes)
        shown = np.concatenate([values[np.isfinite(values)], expected[np.isfinite(expected)]]
                               if expected is not None else [values[np.isfinite(values)]])
        low, high = (float(shown.min()), float(shown.max())) if shown.size else (0.0, 1.0)
        draw(axes[0], x, y, values, "learned: " + title, vmin=low, vmax=high)
        if expected is not None:
            draw(axes[1], x, y, expected, "exact (Dijkstra)", vmin=low, vmax=high)
            with np.errstate(invalid="ignore"):  # inf - inf where neither reaches: not drawn
                error = values - expected
            finite = error[np.isfinite(error)]
            bound = float(np.abs(finite).max()) if finite.size and np.abs(finite).max() > 0 else 1.0
            # Centred on zero: white is right, red too long, blue too short.
            draw(axes[2], x, y, error, "learned - exact", cmap="coolwarm", vmin=-bound, vmax=bound)
        fig.tight_layout()
        save(fig, os.path.join(out, name + ".png"))


def plot_export(f, out):
    network = f["network"]
    description = text(network.attrs["description"])
    output = f["fields"]["output"]
    commits = f["simulation"]["commits"][()]
    snapshots = int(commits[-1]) if len(commits) else 0
    if snapshots == 0:
        sys.stderr.write("kfield plot: %s holds no committed snapshot\n" % f.filename)
        sys.exit(2)
    devices = int(network.attrs["devices"])
    values = output[snapshots - 1, 0:devices, 0]
    rounds = int(f["simulation"]["rounds"][snapshots - 1])
    grid = re.match(r"grid (\d+)x(\d+)", description)
    fig, ax = plt.subplots(figsize=SINGLE_SIZE)
    title = "%s after round %d\n%s" % (text(f["simulation"].attrs["program"]), rounds, description)
    if grid:
        draw(ax, None, None, values, title, grid=(int(grid.group(1)), int(grid.group(2))))
    elif "positions" in network:
        positions = network["positions"][()]
        draw(ax, positions[:, 0], positions[:, 1], values, title)
    else:  # no positions: the field along the device ids
        ax.plot(np.arange(devices), values, ".", markersize=2)
        ax.set_xlabel("device")
        ax.set_title(title, fontsize=10)
    fig.tight_layout()
    save(fig, os.path.join(out, "field.png"))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file")
    parser.add_argument("--out", default=".")
    args = parser.parse_args()
    try:
        os.makedirs(args.out, exist_ok=True)
        f = h5py.File(args.file, "r", swmr=True)
    except (OSError, ValueError) as e:
        sys.stderr.write("kfield plot: %s: %s\n" % (args.file, e))
        sys.exit(2)
    with f:
        kind = text(f.attrs.get("kind", b""))
        if kind == "learner-checkpoint" and "training" in f:
            plot_training(f, args.out)
        elif kind == "simulation-export":
            plot_export(f, args.out)
        else:
            sys.stderr.write("kfield plot: %s is a %s: kfield plot draws training checkpoints (kfield train) and "
                             "exports (kfield run --out)\n" % (args.file, kind or "file kfield does not know"))
            sys.exit(2)


if __name__ == "__main__":
    main()
