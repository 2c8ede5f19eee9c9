"""Reads a kfield simulation export with h5py, as a user would, and checks it against the hop
gradient's closed form: after r rounds a device at grid distance d <= r - 1 from the source
holds d, the others infinity (kfield run hop-gradient --network grid:6x4 --source 0
--rounds 12 --every 5 --samples 2)."""
import math
import sys

import h5py

path = sys.argv[1]
with h5py.File(path, "r") as f:
    assert f.attrs["format"] == "kfield", f.attrs["format"]
    assert f.attrs["format_version"] == 1
    assert f.attrs["kind"] == "simulation-export"
    assert f["simulation"].attrs["program"] == "hop-gradient"
    rounds = list(f["simulation/rounds"][:])
    assert rounds == [5, 10, 12], rounds
    out = f["fields/output"]
    assert out.shape == (3, 24, 2), out.shape
    net = f["network"]
    assert net.attrs["devices"] == 24
    offsets, neighbors = net["offsets"][:], net["neighbors"][:]
    assert len(offsets) == 25 and offsets[-1] == len(neighbors) == net.attrs["entries"]
    # Rows hold the device itself and its neighbours, by id: a corner's is 0, 1 and 6.
    assert list(neighbors[offsets[0]:offsets[1]]) == [0, 1, 6], neighbors[:offsets[1]]
    positions = net["positions"][:]
    for t, r in enumerate(rounds):
        for device in range(24):
            x, y = device % 6, device // 6
            assert tuple(positions[device]) == (x, y), (device, positions[device])
            d = x + y
            expected = float(d) if d <= r - 1 else math.inf
            for sample in range(2):
                got = out[t, device, sample]
                assert got == expected, (r, device, sample, got, expected)
print("h5py read", path, ": rounds", rounds, "fields", out.shape, "as expected")
