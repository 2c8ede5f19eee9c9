"""Reads a kfield simulation export with h5py, as a user would, and checks it against the hop
gradient's closed form: after r rounds a device at grid distance d <= r - 1 from the source
holds d, the others infinity.
    read_export.py FILE WIDTH HEIGHT SAMPLES ROUND...
(kfield run hop-gradient --network grid:WIDTHxHEIGHT --source 0 --samples SAMPLES --out FILE
with snapshots after each ROUND)."""
import math
import os
import sys

try:
    import h5py
    import numpy
except ImportError as missing:
    # Outside CI (a Spack build's tests, a user's machine) a Python without h5py skips the test
    # (ctest: exit 77, "Not Run"); CI installs python3-h5py, so there it fails.
    print("h5py is not importable:", missing)
    sys.exit(1 if os.environ.get("CI") == "true" else 77)

path = sys.argv[1]
width, height, samples = (int(a) for a in sys.argv[2:5])
expected_rounds = [int(a) for a in sys.argv[5:]]
n = width * height
def text(value):
    """A string attribute: kfield stores fixed-length UTF-8 strings, which h5py reads as bytes."""
    return value.decode() if isinstance(value, bytes) else value


with h5py.File(path, "r") as f:
    assert text(f.attrs["format"]) == "kfield", f.attrs["format"]
    assert f.attrs["format_version"] == 2
    assert text(f.attrs["kind"]) == "simulation-export"
    assert text(f["simulation"].attrs["program"]) == "hop-gradient"
    rounds = list(f["simulation/rounds"][:])
    assert rounds == expected_rounds, rounds
    out = f["fields/output"]
    assert list(f["fields"]) == ["output"], list(f["fields"])  # synchronous, still: no clocks, no places
    assert out.shape == (len(rounds), n, samples), out.shape
    # kfield compresses the chunks itself: HDF5's own filters must decode them.
    assert out.fletcher32 and out.shuffle and out.compression == "gzip", out.compression
    net = f["network"]
    assert net.attrs["devices"] == n
    offsets, neighbors = net["offsets"][:], net["neighbors"][:]
    assert len(offsets) == n + 1 and offsets[-1] == len(neighbors) == net.attrs["entries"]
    # Rows hold the device itself and its neighbours, by id: a corner's is 0, 1 and WIDTH.
    assert list(neighbors[offsets[0]:offsets[1]]) == [0, 1, width], neighbors[:offsets[1]]
    positions = net["positions"][:]
    x, y = numpy.arange(n) % width, numpy.arange(n) // width
    assert (positions[:, 0] == x).all() and (positions[:, 1] == y).all()
    for t, r in enumerate(rounds):
        expected = numpy.where(x + y <= r - 1, (x + y).astype(float), math.inf)
        for sample in range(samples):
            got = out[t, :, sample]
            bad = numpy.flatnonzero(got != expected)
            assert bad.size == 0, (r, sample, bad[:5], got[bad[:5]], expected[bad[:5]])
print("h5py read", path, ": rounds", rounds, "fields", out.shape, "as expected")
