// Simulation exports as files: kfield shuffles, deflates and checksums snapshot chunks itself
// (on every host thread); the bytes it stores must be the bytes HDF5's own filter pipeline
// stores for the same values, chunk by chunk, at every deflate level.
#include "support/ErrorOf.hpp"
#include "support/FileEdits.hpp"
#include "support/TempFolder.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <kfield/Random.hpp>
#include <kfield/field/Library.hpp>
#include <kfield/field/Programs.hpp>
#include <kfield/impl/Bits.hpp>
#include <kfield/io/Export.hpp>
#include <kfield/io/NetworkFile.hpp>
#include <kfield/io/Restart.hpp>
#include <kfield/sim/Simulation.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace kfield::test {
namespace {

std::vector<unsigned char> rawChunk(hid_t dataset, const std::vector<hsize_t>& offset) {
  hsize_t size = 0;
  EXPECT_GE(H5Dget_chunk_storage_size(dataset, offset.data(), &size), 0);
  std::vector<unsigned char> bytes(size);
  std::uint32_t mask = 0;
  EXPECT_GE(H5Dread_chunk(dataset, H5P_DEFAULT, offset.data(), &mask, bytes.data()), 0);
  EXPECT_EQ(mask, 0u);
  return bytes;
}

// A tuple-valued field: components x devices rows; a count out of range, or a field of other
// rows, is refused naming the file (and nothing is left at PATH).
TEST(ExportFile, TupleFieldsAreComponentBlocksOfDeviceRows) {
  TempFolder dir;
  const Network net = Network::grid(4, 3);
  const std::string path = dir / "pair.h5";
  for (std::int64_t bad : {std::int64_t(0), std::int64_t(-2), (std::int64_t(1) << 20) + 1}) {
    EXPECT_EQ(errorOf([&] { io::SimulationExport(path, net, "pair", 2, "output", 1, bad); }),
              "kfield::io::SimulationExport: " + path + ": components = " + std::to_string(bad) +
                  " (must be 1 to 2^20)");
  }
  io::SimulationExport out(path, net, "pair", 2, "output", 1, 2);
  EXPECT_EQ(errorOf([&] { out.append(3, HostPlane("f", 12, 2)); }),
            "kfield::io::SimulationExport::append: /fields/output: a field of 12 x 2, expected "
            "2 x 12 component rows x 2 samples");
  HostPlane field("f", 24, 2);
  for (std::size_t r = 0; r < 24; ++r) field(r, 0) = double(r), field(r, 1) = -double(r);
  out.append(3, field);
  out.finish();
  editFile(path, [&](hid_t f) {
    const hid_t set = H5Dopen2(f, "/fields/output", H5P_DEFAULT);
    const hid_t space = H5Dget_space(set);
    hsize_t dims[3] = {0, 0, 0};
    ASSERT_EQ(H5Sget_simple_extent_ndims(space), 3);
    H5Sget_simple_extent_dims(space, dims, nullptr);
    EXPECT_EQ(dims[0], 1u);
    EXPECT_EQ(dims[1], 24u);
    EXPECT_EQ(dims[2], 2u);
    std::vector<double> back(48);
    ASSERT_GE(H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, back.data()), 0);
    EXPECT_EQ(back[2 * 13], 13.0);  // component 1 of device 1
    H5Sclose(space);
    H5Dclose(set);
    const hid_t sim = H5Gopen2(f, "/simulation", H5P_DEFAULT);
    const hid_t attribute = H5Aopen(sim, "components", H5P_DEFAULT);
    std::int64_t components = 0;
    H5Aread(attribute, H5T_NATIVE_INT64, &components);
    EXPECT_EQ(components, 2);
    H5Aclose(attribute);
    H5Gclose(sim);
  });
}

std::vector<double> readAll(hid_t file, const char* name, std::vector<hsize_t> expected) {
  const hid_t set = H5Dopen2(file, name, H5P_DEFAULT);
  EXPECT_GE(set, 0) << name;
  const hid_t space = H5Dget_space(set);
  std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)));
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  EXPECT_EQ(dims, expected) << name;
  hsize_t count = 1;
  for (hsize_t d : dims) count *= d;
  std::vector<double> values(count);
  EXPECT_GE(H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
  H5Sclose(space);
  H5Dclose(set);
  return values;
}

// Moving devices on their own clocks: each snapshot keeps every device's clock and place, as
// the simulation gives them; a snapshot without them is refused, naming the dataset, and
// leaves the file as it was.
TEST(ExportFile, SnapshotsKeepClocksAndPlaces) {
  TempFolder dir;
  const std::string path = dir / "moving.h5";
  const Network net = Network::randomGeometric(60, 1.5, 3);
  const TracedProgram program =
      trace([](Program& p) { return lib::hopGradient(p, p.sense<bool>("source")); }, "hops");
  Motion motion;
  motion.speed = 0.3;
  motion.radius = 1.5;
  BasicSimulation<Kokkos::DefaultHostExecutionSpace> sim(program, net, 2,
                                                         {Schedule{1.0, 0.5, 9}, motion});
  sim.sensor("source").set(0, true);
  io::SimulationExport out(path, net, "hops", 2, "output", 1, 1, {true, true, nullptr, {}});
  std::vector<HostPlane> times;
  std::vector<std::pair<std::vector<double>, std::vector<double>>> places;
  for (int snapshot = 0; snapshot < 2; ++snapshot) {
    sim.run(3);
    times.push_back(sim.times());
    places.push_back(sim.positions());
    out.append(sim.rounds()[0], sim.output(), {times.back(), places.back()});
  }
  EXPECT_EQ(errorOf([&] { out.append(9, sim.output()); }),
            "kfield::io::SimulationExport::append: /fields/time: times of 0 x 0, expected 60 "
            "devices x 2 samples");
  EXPECT_EQ(errorOf([&] {
              out.append(9, sim.output(), {sim.times(), {}});
            }),
            "kfield::io::SimulationExport::append: /fields/positions: positions of 0 x and 0 y "
            "values, expected 60 devices each");
  EXPECT_EQ(out.snapshots(), 2);
  out.finish();
  editFile(path, [&](hid_t f) {
    const std::vector<double> time = readAll(f, "/fields/time", {2, 60, 2});
    const std::vector<double> xy = readAll(f, "/fields/positions", {2, 60, 2});
    for (std::size_t t = 0; t < 2; ++t) {
      for (std::size_t d = 0; d < 60; ++d) {
        for (std::size_t s = 0; s < 2; ++s) {
          EXPECT_EQ(impl::bitsOf(time[(t * 60 + d) * 2 + s]), impl::bitsOf(times[t](d, s)));
        }
        EXPECT_EQ(xy[(t * 60 + d) * 2], places[t].first[d]);
        EXPECT_EQ(xy[(t * 60 + d) * 2 + 1], places[t].second[d]);
      }
    }
    EXPECT_NE(xy[0], xy[120]);  // they moved
    EXPECT_GE(time[0], 2.0);    // the third period's firing
    EXPECT_LT(time[0], 3.0);
  });
}

// An export's network read by parts: each part is the part cut from the network read whole,
// for networks of positions, of given lengths and of neither; rows that run outside the entries
// are refused naming the file.
TEST(ExportFile, NetworksAreReadByParts) {
  TempFolder dir;
  const std::vector<double> none;
  const Network chain = Network::fromCsr({0, 2, 5, 8, 10}, {0, 1, 0, 1, 2, 1, 2, 3, 2, 3},
                                         {0, 0.5, 0.5, 0, 2, 2, 0, 1.5, 1.5, 0}, {}, {}, "a chain");
  const Network bare =
      Network::fromCsr({0, 2, 5, 8, 10}, {0, 1, 0, 1, 2, 1, 2, 3, 2, 3}, {}, {}, {}, "bare");
  int file = 0;
  for (const Network& net :
       {Network::grid(9, 7, 8), Network::randomGeometric(300, 1.6, 4, DeviceOrder::Hilbert), chain,
        bare}) {
    const std::string path = dir / ("net" + std::to_string(file++) + ".h5");
    io::SimulationExport out(path, net, "network", 1, "output", 1);
    out.append(0, HostPlane("f", net.devices(), 1));
    out.finish();
    const Network whole = io::readNetwork(path);
    const std::int64_t n = whole.devices();
    EXPECT_EQ(io::readNetworkDevices(path), n);
    std::vector<IndexRange> runs{{0, n}, {0, 0}, {n, n}, {0, 1}, {n - 1, n}};
    for (std::int64_t p = 0; p < 3; ++p) runs.push_back({n * p / 3, n * (p + 1) / 3});
    for (const IndexRange& run : runs) {
      const std::string what = whole.description() + ", devices [" + std::to_string(run.begin) +
                               ", " + std::to_string(run.end) + ")";
      const NetworkPart read = io::readNetworkPart(path, run);
      const NetworkPart cut = NetworkPart::of(whole, run);
      EXPECT_EQ(read.ids, cut.ids) << what;
      EXPECT_EQ(read.owned.begin, cut.owned.begin) << what;
      EXPECT_EQ(read.devices, n) << what;
      EXPECT_EQ(read.network.offsets(), cut.network.offsets()) << what;
      EXPECT_EQ(read.network.neighbors(), cut.network.neighbors()) << what;
      EXPECT_EQ(read.network.lengths(), cut.network.lengths()) << what;  // empty for the bare one
      EXPECT_EQ(read.network.x(), cut.network.x()) << what;
      EXPECT_EQ(read.network.y(), cut.network.y()) << what;
      if (run.size() > 0) {
        EXPECT_EQ(read.network.hasLengths(), whole.hasLengths()) << what;
      }
      EXPECT_EQ(read.name, whole.description()) << what;
    }
  }
  const std::string path = dir / "net0.h5";  // the grid: its last row made to run past the entries
  editFile(path, [&](hid_t f) {
    const hid_t set = H5Dopen2(f, "/network/offsets", H5P_DEFAULT);
    std::vector<std::int64_t> offsets(64);
    H5Dread(set, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, offsets.data());
    offsets[63] = 1000000000;
    H5Dwrite(set, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, offsets.data());
    H5Dclose(set);
  });
  const std::string error = errorOf([&] { io::readNetworkPart(path, {50, 63}); });
  EXPECT_NE(error.find(path), std::string::npos) << error;
  EXPECT_NE(error.find("offsets: the rows of devices [50, 63) run from entry "), std::string::npos)
      << error;
  EXPECT_NE(error.find(" to 1000000000, outside the "), std::string::npos) << error;
  EXPECT_EQ(errorOf([&] {
              io::readNetworkPart(path, {0, 20});
            }),
            "no error");  // rows before it are whole
}

TEST(ExportFile, SnapshotChunksAreWhatHdf5sFiltersStore) {
  TempFolder dir;
  const Network net = Network::grid(300, 200);  // 60000 devices x 3 samples: 2 chunks, one partial
  const std::int64_t n = net.devices(), samples = 3;
  HostPlane field("field", n, samples);
  for (std::int64_t i = 0; i < n; ++i) {
    field(i, 0) = double(i % 300 + i / 300);                 // hop counts
    field(i, 1) = std::sqrt(double(i)) * 0.37;               // distances
    field(i, 2) = double(mix64(std::uint64_t(i), 5) >> 11);  // noise
  }
  for (int level : {0, 1, 6, 9}) {
    const std::string path = dir / (std::to_string(level) + "-export.h5");
    io::SimulationExport out(path, net, "test", samples, "output", level);
    out.append(7, field);
    out.finish();
    editFile(path, [&](hid_t f) {
      const hid_t mine = H5Dopen2(f, "/fields/output", H5P_DEFAULT);
      const hid_t dcpl = H5Dget_create_plist(mine);
      EXPECT_EQ(H5Pget_nfilters(dcpl), level == 0 ? 1 : 3) << level;
      // The same values through HDF5's pipeline, in a dataset made with the same properties.
      const hsize_t dims[3] = {1, hsize_t(n), hsize_t(samples)};
      const hid_t space = H5Screate_simple(3, dims, nullptr);
      const hid_t theirs =
          H5Dcreate2(f, "/fields/theirs", H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
      ASSERT_GE(H5Dwrite(theirs, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, field.data()),
                0);
      hsize_t chunk[3] = {0, 0, 0};
      H5Pget_chunk(dcpl, 3, chunk);
      for (hsize_t at = 0; at < hsize_t(n); at += chunk[1]) {
        EXPECT_EQ(rawChunk(mine, {0, at, 0}), rawChunk(theirs, {0, at, 0}))
            << "deflate " << level << ", the chunk at device " << at;
      }
      std::vector<double> back(std::size_t(n * samples));
      EXPECT_GE(H5Dread(mine, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, back.data()), 0);
      EXPECT_EQ(std::memcmp(back.data(), field.data(), back.size() * 8), 0) << level;
      H5Dclose(theirs);
      H5Sclose(space);
      H5Pclose(dcpl);
      H5Dclose(mine);
    });
  }
}

// /restart of a moving run on a schedule keeps the motion and the schedule: loading it gives
// the carry back; a damaged attribute is refused naming the file and the attribute.
TEST(ExportFile, RestartKeepsTheMotionAndTheSchedule) {
  using Space = Kokkos::DefaultHostExecutionSpace;
  TempFolder dir;
  const Network net = Network::randomGeometric(300, 1.5, 2);
  const TracedProgram program = lib::findProgram("hop-gradient")->build(net, {});
  Motion motion;
  motion.model = Motion::Model::Straight, motion.speed = 0.25, motion.radius = 1.5;
  motion.rebuildEvery = 2, motion.seed = 11;
  const Schedule schedule{1.0, 0.5, 4};
  BasicSimulation<Space> sim(program, net, 2, {schedule, motion});
  sim.sensor("source").set(0, true);
  sim.run(5);
  const SimulationCarry carry = sim.carry();
  const std::string path = dir / "moving.h5";
  {
    io::SimulationExport out(path, net, "hop-gradient", 2, "output", 1, 1,
                             {false, false, &program, {}});
    out.append(5, sim.output());
    out.commit(carry);
    out.finish();
  }
  const SimulationCarry back = io::loadRestart(path, program, net, 2);
  ASSERT_TRUE(back.motion && back.schedule);
  EXPECT_EQ(*back.motion, *carry.motion);
  EXPECT_EQ(*back.schedule, *carry.schedule);
  EXPECT_EQ(back.motionState, carry.motionState);
  BasicSimulation<Space> resumed(program, net, 2, {schedule, motion});
  resumed.sensor("source").set(0, true);
  resumed.restore(back);
  resumed.run(3), sim.run(3);
  const HostPlane a = sim.output(), b = resumed.output();
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a.data()[i], b.data()[i]) << i;

  auto damaged = [&](const char* name, auto write) {
    const std::string copy = dir / (std::string(name) + ".h5");
    std::filesystem::copy_file(path, copy, std::filesystem::copy_options::overwrite_existing);
    editFile(copy, [&](hid_t f) {
      const hid_t g = H5Gopen2(f, "/restart", H5P_DEFAULT);
      H5Adelete(g, name);
      write(g, name);
      H5Gclose(g);
    });
    return errorOf([&] { io::loadRestart(copy, program, net, 2); });
  };
  auto text = [](const char* value) {
    return [value](hid_t g, const char* name) {
      const hid_t type = H5Tcopy(H5T_C_S1);
      H5Tset_size(type, std::strlen(value));
      const hid_t space = H5Screate(H5S_SCALAR);
      const hid_t a = H5Acreate2(g, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
      H5Awrite(a, type, value);
      H5Aclose(a), H5Sclose(space), H5Tclose(type);
    };
  };
  auto number = [](double value) {
    return [value](hid_t g, const char* name) {
      const hid_t space = H5Screate(H5S_SCALAR);
      const hid_t a = H5Acreate2(g, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT);
      H5Awrite(a, H5T_NATIVE_DOUBLE, &value);
      H5Aclose(a), H5Sclose(space);
    };
  };
  const std::string at = dir / "";
  EXPECT_NE(damaged("motion_model", text("fly"))
                .find("motion_model is 'fly', not straight, waypoint or velocity"),
            std::string::npos);
  EXPECT_NE(damaged("motion_seed", text("-3"))
                .find("motion_seed is '-3', not a whole number in [0, 2^64)"),
            std::string::npos);
  EXPECT_NE(damaged("motion_radius", number(-1.0))
                .find("motion: radius must be a finite number > 0, got -1"),
            std::string::npos);
  EXPECT_NE(damaged("schedule_jitter", number(3.0))
                .find("schedule: jitter must be in [0, period] = [0, 1], got 3"),
            std::string::npos);
  EXPECT_NE(damaged("schedule_seed", text("x"))
                .find("schedule_seed is 'x', not a whole number in [0, 2^64)"),
            std::string::npos);
  const std::string error = damaged("motion_model", text("fly"));
  EXPECT_EQ(error.rfind("kfield::io: " + at, 0), 0u) << error;
}

}  // namespace
}  // namespace kfield::test
