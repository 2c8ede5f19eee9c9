// Sample stores as files: the sequence and its split round trip bit for bit, any owner count
// reads its shares, a learner built from the store is the learner built from the system, and
// bad stores are refused naming the file and the problem. Kfield writes whole-row chunks with
// its own Fletcher32: HDF5's filter must agree both ways.
#include "support/CheckpointSystem.hpp"
#include "support/ErrorOf.hpp"
#include "support/FileEdits.hpp"
#include "support/TempFolder.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <kfield/Random.hpp>
#include <kfield/impl/Bits.hpp>
#include <kfield/io/Checkpoint.hpp>
#include <kfield/io/Inspect.hpp>
#include <kfield/io/SampleStore.hpp>
#include <kfield/learn/Learner.hpp>
#include <kfield/learn/Partition.hpp>

namespace kfield::test {
namespace {

// Least squares under Adam, split unevenly (an empty owner too), with words whose bits must
// come back: -0, a NaN with a payload, a subnormal.
DataParallelSystem storedSystem(std::int64_t k = 4, std::int64_t n = 301) {
  DataParallelSystem sys = leastSquaresSystem(k, n, {0, 40, 40, 200, n}, rules::adam(k), 0.02);
  sys.owners[0][3][1] = impl::bitsOf(-0.0);
  sys.owners[2][7][0] = 0x7ff80000deadbeefull;
  sys.owners[3][0][2] = impl::bitsOf(4.9e-322);
  return sys;
}

DataParallelSystem ruleOf(DataParallelSystem sys) {
  sys.owners.clear();
  return sys;
}

std::vector<Word> flat(const DataParallelSystem& sys) {
  std::vector<Word> words;
  for (const auto& owned : sys.owners) {
    for (const auto& sample : owned) words.insert(words.end(), sample.begin(), sample.end());
  }
  return words;
}

TEST(SampleStore, TheSequenceAndItsSplitRoundTripBitForBit) {
  TempFolder dir;
  const DataParallelSystem sys = storedSystem();
  io::saveSamples(dir / "s.h5", sys);
  const DataParallelSystem back = io::loadSamples(dir / "s.h5", ruleOf(sys));
  EXPECT_EQ(back.owners, sys.owners);
  EXPECT_FALSE(back.heldInPart());
  EXPECT_EQ(systemIdentity(back), systemIdentity(sys));
  for (std::int64_t owners : {1, 2, 3, 7, 301}) {
    EXPECT_EQ(io::loadSamples(dir / "s.h5", ruleOf(sys), owners).owners,
              repartitioned(sys, owners).owners)
        << owners;
  }
  const std::string shown = io::inspect(dir / "s.h5", true);
  for (const char* line : {"kfield sample-store", "@samples = 301", "@sample_width = 5",
                           "@owners = 4", "owner_offsets: int64 [5], Fletcher32",
                           "values: float64 [301, 5], Fletcher32", "verified: 2 datasets"}) {
    EXPECT_NE(shown.find(line), std::string::npos) << line << " in\n" << shown;
  }
  // Samples that the rule carries are replaced by the store's.
  EXPECT_EQ(io::loadSamples(dir / "s.h5", sys, 2).owners, repartitioned(sys, 2).owners);
}

// Many chunks of whole rows, a partial last one; read by HDF5's own filter, and HDF5's
// chunks (another chunk height) read by kfield.
TEST(SampleStore, ChunksAreHdf5sOwnBothWays) {
  TempFolder dir;
  const std::string path = dir / "wide.h5";
  const std::int64_t k = 4095, n = 600;  // 4096 words a sample: 256 rows a chunk, 3 chunks
  DataParallelSystem sys = rules::leastSquaresSystem(k, rules::sgd(k), 0.01);
  sys.owners.resize(3);
  for (std::int64_t j = 0; j < n; ++j) {
    std::vector<Word> sample;
    for (std::int64_t c = 0; c <= k; ++c)
      sample.push_back(mix64(std::uint64_t(j), std::uint64_t(c)));
    sys.owners[std::size_t(j * 3 / n)].push_back(sample);
  }
  io::saveSamples(path, sys);
  const std::vector<Word> words = flat(sys);
  std::vector<Word> viaHdf5(words.size());
  editFile(path, [&](hid_t f) {
    const hid_t d = H5Dopen2(f, "/samples/values", H5P_DEFAULT);
    EXPECT_GE(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, viaHdf5.data()), 0)
        << "HDF5's filter refuses kfield's checksums";
    H5Dclose(d);
  });
  EXPECT_EQ(viaHdf5, words);

  editFile(path, [&](hid_t f) {
    H5Ldelete(f, "/samples/values", H5P_DEFAULT);
    const hsize_t dims[2] = {hsize_t(n), hsize_t(k + 1)}, chunk[2] = {37, hsize_t(k + 1)};
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 2, chunk);
    H5Pset_fletcher32(dcpl);
    const hid_t space = H5Screate_simple(2, dims, nullptr);
    const hid_t d =
        H5Dcreate2(f, "/samples/values", H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, words.data());
    H5Dclose(d);
    H5Sclose(space);
    H5Pclose(dcpl);
  });
  EXPECT_EQ(io::loadSamples(path, ruleOf(sys), 4).owners, repartitioned(sys, 4).owners);
}

TEST(SampleStore, ALearnerFromTheStoreIsTheLearnerFromTheSystem) {
  TempFolder dir;
  const DataParallelSystem sys = repartitioned(storedSystem(), 3);
  io::saveSamples(dir / "s.h5", sys);
  const LearnerState expected = runFor<Kokkos::DefaultHostExecutionSpace>(sys, 7);
  for (std::int64_t owners : {0, 2, 5}) {
    const LearnerState got = runFor<Kokkos::DefaultHostExecutionSpace>(
        io::loadSamples(dir / "s.h5", ruleOf(sys), owners), 7);
    EXPECT_EQ(wordsOf(got), wordsOf(expected)) << owners;
    EXPECT_EQ(got.learnerIdentity, expected.learnerIdentity) << owners;
    EXPECT_EQ(got.sampleHashes, expected.sampleHashes) << owners;
  }
}

TEST(SampleStore, BadStoresAreRefusedByName) {
  TempFolder dir;
  const std::string path = dir / "s.h5";
  const DataParallelSystem sys = storedSystem();
  io::saveSamples(path, sys);
  auto load = [&](const DataParallelSystem& rule, std::int64_t owners = 0) {
    return errorOf([&] { io::loadSamples(path, rule, owners); });
  };
  DataParallelSystem wider = ruleOf(sys);
  wider.sampleWidth += 1;
  EXPECT_EQ(load(wider), refusal(path,
                                 "/samples: its samples have width 5, the system's sample "
                                 "width is 6"));
  EXPECT_EQ(load(ruleOf(sys), -1),
            "kfield::io::loadSamples: " + path + ": owners = -1 is negative");
  EXPECT_EQ(load(ruleOf(sys), std::int64_t(1) << 60),
            refusal(path,
                    "/samples: owners = 1152921504606846976 is more than its 301 samples: "
                    "every owner needs one"));

  auto setOffsets = [&](std::vector<std::int64_t> offsets) {
    editFile(path, [&](hid_t f) {
      const hid_t d = H5Dopen2(f, "/samples/owner_offsets", H5P_DEFAULT);
      H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, offsets.data());
      H5Dclose(d);
    });
  };
  setOffsets({0, 40, 39, 200, 301});  // a split that goes backwards
  EXPECT_EQ(load(ruleOf(sys)), refusal(path,
                                       "/samples: owner_offsets decrease: owner 1 begins at "
                                       "40, owner 2 at 39"));
  EXPECT_EQ(io::loadSamples(path, ruleOf(sys), 4).owners, repartitioned(sys, 4).owners)
      << "an owner count of its own does not read the saved split";
  setOffsets({0, 40, 40, 200, 300});
  EXPECT_EQ(load(ruleOf(sys)), refusal(path,
                                       "/samples: owner_offsets run from 0 to 300, not from "
                                       "0 to the 301 samples"));

  io::saveCheckpoint(dir / "c.h5", runFor<Kokkos::DefaultHostExecutionSpace>(sys, 1));
  const std::string kind = errorOf([&] { io::loadSamples(dir / "c.h5", ruleOf(sys)); });
  EXPECT_NE(kind.find("learner-checkpoint"), std::string::npos) << kind;

  // A flipped byte inside the samples.
  io::saveSamples(path, sys);
  haddr_t address = 0;
  editFile(path, [&](hid_t f) {
    const hid_t d = H5Dopen2(f, "/samples/values", H5P_DEFAULT);
    const hsize_t origin[2] = {0, 0};
    unsigned mask = 0;
    hsize_t size = 0;
    H5Dget_chunk_info_by_coord(d, origin, &mask, &address, &size);
    H5Dclose(d);
  });
  ASSERT_GT(address, 0u);
  {
    std::FILE* f = std::fopen(path.c_str(), "r+b");
    std::fseek(f, static_cast<long>(address) + 100, SEEK_SET);
    const int byte = std::fgetc(f);
    std::fseek(f, static_cast<long>(address) + 100, SEEK_SET);
    std::fputc(byte ^ 0x10, f);
    std::fclose(f);
  }
  const std::string flipped = load(ruleOf(sys));
  EXPECT_EQ(flipped.rfind(refusal(path, "/samples/values: checksum mismatch (Fletcher32)"), 0), 0u)
      << flipped;

  // A store whose sizes say 2^47 samples (no chunk written): refused before allocating them
  // (in process every share is read, so the whole).
  editFile(path, [](hid_t f) {
    H5Ldelete(f, "/samples/values", H5P_DEFAULT);
    const hsize_t dims[2] = {hsize_t(1) << 47, 5}, chunk[2] = {4096, 5};
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 2, chunk);
    const hid_t space = H5Screate_simple(2, dims, nullptr);
    H5Dclose(
        H5Dcreate2(f, "/samples/values", H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT));
    H5Sclose(space);
    H5Pclose(dcpl);
    const hid_t g = H5Gopen2(f, "/samples", H5P_DEFAULT);
    const std::int64_t n = std::int64_t(1) << 47;
    const hid_t a = H5Aopen(g, "samples", H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_INT64, &n);
    H5Aclose(a);
    H5Gclose(g);
  });
  const std::string huge = load(ruleOf(sys), 2);
  EXPECT_EQ(huge.rfind(refusal(path,
                               "/samples/values: its [140737488355328, 5] values need "
                               "5.0 PiB, but this machine's memory is "),
                       0),
            0u)
      << huge;

  DataParallelSystem part = sys;
  part.ownerSizes = {40, 0, 160, 101};
  EXPECT_NE(errorOf([&] { io::saveSamples(path, part); }).find("held in part"), std::string::npos);
}

}  // namespace
}  // namespace kfield::test
