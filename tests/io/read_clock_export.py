"""Reads, with h5py, the clocks and places of an export of moving devices on their own clocks:
after r periods of period 1 and jitter J every device's clock is its r-th firing, in
[r - 1, r - 1 + J); devices stay in their area and move.
    read_clock_export.py FILE DEVICES SAMPLES JITTER ROUND...
(kfield run ... --async 1:JITTER --move MODEL --samples SAMPLES --out FILE, with snapshots
after each ROUND)."""
import os
import sys

try:
    import h5py
    import numpy
except ImportError as missing:
    print("h5py is not importable:", missing)  # as read_export.py: CI fails, others skip
    sys.exit(1 if os.environ.get("CI") == "true" else 77)

path = sys.argv[1]
n, samples = int(sys.argv[2]), int(sys.argv[3])
jitter = float(sys.argv[4])
expected_rounds = [int(a) for a in sys.argv[5:]]
with h5py.File(path, "r") as f:
    rounds = list(f["simulation/rounds"][:])
    assert rounds == expected_rounds, rounds
    time, places = f["fields/time"], f["fields/positions"]
    assert time.shape == (len(rounds), n, samples), time.shape
    assert places.shape == (len(rounds), n, 2), places.shape
    start = f["network/positions"][:]
    for t, r in enumerate(rounds):
        clocks = time[t]
        assert (clocks >= r - 1).all() and (clocks < r - 1 + jitter).all(), (r, clocks.min(), clocks.max())
        assert len(numpy.unique(clocks)) > n // 2, "the clocks are not the devices' own"
    moved = numpy.abs(places[-1] - start).max(axis=1)
    assert (moved > 0).mean() > 0.9, "the devices did not move"
print("h5py read", path, ": rounds", rounds, "clocks", time.shape, "places", places.shape, "as expected")
