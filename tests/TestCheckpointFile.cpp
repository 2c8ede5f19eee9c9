// Learner checkpoints as files: every field round trips bit for bit, versions are kept, and
// every kind of bad file is refused in one message naming the file and the problem. Bad files
// are made with HDF5's own C API, not kfield's writer.
#include "support/ErrorOf.hpp"
#include "support/FileEdits.hpp"
#include "support/TempFolder.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <kfield/Random.hpp>
#include <kfield/impl/Bits.hpp>
#include <kfield/io/Checkpoint.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>

namespace kfield::test {
namespace {

LearnerState someState() {
  LearnerState s;
  // -0, a NaN with a payload, a subnormal: bits, not values, must come back.
  for (std::uint64_t w :
       {impl::bitsOf(1.5), impl::bitsOf(-0.0), std::uint64_t(0x7ff80000deadbeefull),
        impl::bitsOf(4.9e-322), impl::bitsOf(-3.25e200)}) {
    s.parameters.push_back(w);
  }
  s.parameterCount = 5;
  for (int j = 0; j < 11; ++j) s.state.push_back(wordOf(0.125 * j - 1.0));
  s.step = 42;
  s.rate = wordOf(0.01);
  s.systemIdentity = sha256({1, 2, 3});
  s.learnerIdentity = sha256({4, 5});
  s.ruleIdentity = sha256({6});
  s.numericalContract = learnerNumericalContract();
  s.owners = 3;
  s.sampleWidth = 6;
  s.samples = 4;
  s.sampleHashes = {11, 0xffffffffffffffffull, 0, 7};
  return s;
}

void expectSame(const LearnerState& a, const LearnerState& b) {
  EXPECT_EQ(a.parameterCount, b.parameterCount);
  EXPECT_EQ(a.parameters, b.parameters);
  EXPECT_EQ(a.state, b.state);
  EXPECT_EQ(a.step, b.step);
  EXPECT_EQ(a.rate, b.rate);
  EXPECT_EQ(a.systemIdentity, b.systemIdentity);
  EXPECT_EQ(a.learnerIdentity, b.learnerIdentity);
  EXPECT_EQ(a.ruleIdentity, b.ruleIdentity);
  EXPECT_EQ(a.numericalContract, b.numericalContract);
  EXPECT_EQ(a.owners, b.owners);
  EXPECT_EQ(a.sampleWidth, b.sampleWidth);
  EXPECT_EQ(a.samples, b.samples);
  EXPECT_EQ(a.sampleHashes, b.sampleHashes);
}

std::string loadError(const std::string& path) {
  return errorOf([&] { io::loadCheckpoint(path); });
}

void setIntAttribute(hid_t at, const char* name, std::int64_t value) {
  H5Adelete(at, name);
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate2(at, name, H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, H5T_NATIVE_INT64, &value);
  H5Aclose(a);
  H5Sclose(space);
}

template <class T>
void replaceDataset(hid_t file, const char* path, hid_t type, std::vector<hsize_t> dims,
                    const std::vector<T>& data, hid_t memType, hid_t dcpl = H5P_DEFAULT) {
  H5Ldelete(file, path, H5P_DEFAULT);
  const hid_t space = H5Screate_simple(int(dims.size()), dims.data(), nullptr);
  const hid_t d = H5Dcreate2(file, path, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  H5Dwrite(d, memType, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data());
  H5Dclose(d);
  H5Sclose(space);
}

std::string bytesOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

TEST(CheckpointFile, EveryFieldRoundTripsBitForBit) {
  TempFolder dir;
  const LearnerState s = someState();
  io::saveCheckpoint(dir / "a.h5", s);
  expectSame(io::loadCheckpoint(dir / "a.h5"), s);
  EXPECT_NE(access((dir / "a.h5.partial").c_str(), F_OK), 0) << "the temporary file stays";

  LearnerState empty = s;  // no optimizer state (plain SGD) and one sample
  empty.state.clear();
  empty.samples = 1;
  empty.sampleHashes = {5};
  io::saveCheckpoint(dir / "a.h5", empty);
  expectSame(io::loadCheckpoint(dir / "a.h5"), empty);
}

// kfield train's log and pictures' fields come back as written; a checkpoint without them, or
// with mismatched arrays, is refused by name.
TEST(CheckpointFile, TheTrainingRecordRoundTrips) {
  TempFolder dir;
  io::TrainingRecord t;
  t.config = "{\"training\": {\"steps\": 3}}";
  t.report = "held-out 0: ...\n";
  t.loss = {3.5, 1.25, -0.0};
  t.gradientNorm = {9.0, 4.0, 1e-300};
  io::PositionedField f;
  f.name = "heldout0";
  f.title = "held-out network 0";
  f.x = {0.0, 1.0};
  f.y = {2.0, 3.0};
  f.values = {0.5, std::numeric_limits<double>::infinity()};
  f.expected = {0.25, 7.0};
  t.fields.push_back(f);
  f.name = "plain";
  f.expected.clear();
  t.fields.push_back(f);
  io::CheckpointOptions options;
  options.training = &t;
  io::saveCheckpoint(dir / "t.h5", someState(), options);
  expectSame(io::loadCheckpoint(dir / "t.h5"), someState());
  const io::TrainingRecord back = io::loadTrainingRecord(dir / "t.h5");
  EXPECT_EQ(back.config, t.config);
  EXPECT_EQ(back.report, t.report);
  EXPECT_EQ(back.loss.size(), 3u);
  EXPECT_EQ(impl::bitsOf(back.loss[2]), impl::bitsOf(-0.0));
  EXPECT_EQ(back.gradientNorm, t.gradientNorm);
  ASSERT_EQ(back.fields.size(), 2u);
  EXPECT_EQ(back.fields[0].name, "heldout0");
  EXPECT_EQ(back.fields[0].title, "held-out network 0");
  EXPECT_EQ(back.fields[0].values, t.fields[0].values);
  EXPECT_EQ(back.fields[0].expected, t.fields[0].expected);
  EXPECT_TRUE(back.fields[1].expected.empty());

  io::saveCheckpoint(dir / "plain.h5", someState());
  EXPECT_NE(errorOf([&] { io::loadTrainingRecord(dir / "plain.h5"); }).find("holds no /training"),
            std::string::npos);
  t.gradientNorm.pop_back();
  EXPECT_NE(errorOf([&] {
              io::saveCheckpoint(dir / "bad.h5", someState(), options);
            }).find("the training log has 3 losses and 2 gradient norms"),
            std::string::npos);
  t.gradientNorm.push_back(0.0);
  t.fields[0].y.pop_back();
  EXPECT_NE(errorOf([&] {
              io::saveCheckpoint(dir / "bad.h5", someState(), options);
            }).find("field 'heldout0' has arrays of different sizes"),
            std::string::npos);
}

// kfield writes and checks Fletcher32 chunks itself (faster than HDF5's filter): HDF5's own
// filter must read what it writes, and it must read what HDF5's filter writes. Random bits,
// sizes around HDF5's 360-word blocks and a partial last chunk.
TEST(CheckpointFile, ChecksumsAreHdf5sOwnBothWays) {
  TempFolder dir;
  const std::string path = dir / "h.h5";
  for (std::uint64_t k : {1u, 2u, 3u, 89u, 90u, 91u, 1000u, (1u << 20) + 5}) {
    LearnerState s = someState();
    s.parameters.clear();
    for (std::uint64_t j = 0; j < k; ++j) s.parameters.push_back(mix64(k, j));
    s.parameterCount = std::int64_t(k);
    io::saveCheckpoint(path, s);
    std::vector<std::uint64_t> viaHdf5(k);
    editFile(path, [&](hid_t f) {
      const hid_t d = H5Dopen2(f, "/learner/parameters", H5P_DEFAULT);
      EXPECT_GE(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, viaHdf5.data()), 0)
          << k << " parameters: HDF5's filter refuses kfield's checksums";
      H5Dclose(d);
    });
    EXPECT_EQ(viaHdf5, s.parameters) << k;

    editFile(path, [&](hid_t f) {  // the same values, checksummed by HDF5's filter
      const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
      const hsize_t chunk = std::min<hsize_t>(k, 1000);
      H5Pset_chunk(dcpl, 1, &chunk);
      H5Pset_fletcher32(dcpl);
      replaceDataset<std::uint64_t>(f, "/learner/parameters", H5T_IEEE_F64LE, {k}, s.parameters,
                                    H5T_NATIVE_DOUBLE, dcpl);
      H5Pclose(dcpl);
    });
    EXPECT_EQ(io::loadCheckpoint(path).parameters, s.parameters) << k;
  }
}

TEST(CheckpointFile, KeepsTheLastVersionsNewestFirst) {
  TempFolder dir;
  LearnerState s = someState();
  for (std::int64_t step = 1; step <= 5; ++step) {
    s.step = step;
    io::saveCheckpoint(dir / "c.h5", s, {3});
  }
  EXPECT_EQ(io::loadCheckpoint(dir / "c.h5").step, 5);
  EXPECT_EQ(io::loadCheckpoint(dir / "c.h5.1").step, 4);
  EXPECT_EQ(io::loadCheckpoint(dir / "c.h5.2").step, 3);
  EXPECT_NE(access((dir / "c.h5.3").c_str(), F_OK), 0);
  EXPECT_EQ(errorOf([&] { io::saveCheckpoint(dir / "c.h5", s, {0}); }),
            refusal(dir / "c.h5", "keep = 0 (must be >= 1)"));
}

TEST(CheckpointFile, WhatIsNotACheckpointIsRefusedByName) {
  TempFolder dir;
  EXPECT_EQ(loadError(dir / "none.h5"), refusal(dir / "none.h5", "no such file"));
  EXPECT_EQ(loadError(dir.path()), refusal(dir.path(), "is a directory, not an HDF5 file"));
  writeBytes(dir / "text.h5", "step,parameters\n1,2\n");
  EXPECT_EQ(loadError(dir / "text.h5"), refusal(dir / "text.h5", "not an HDF5 file"));
  writeBytes(dir / "empty.h5", "");
  EXPECT_EQ(loadError(dir / "empty.h5"), refusal(dir / "empty.h5", "not an HDF5 file"));

  const hid_t f = H5Fcreate((dir / "other.h5").c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  H5Fclose(f);
  EXPECT_EQ(loadError(dir / "other.h5"),
            refusal(dir / "other.h5",
                    "an HDF5 file, but not one kfield wrote (no format = \"kfield\" attribute)"));

  const std::string path = dir / "bad.h5";
  io::saveCheckpoint(path, someState());
  editFile(path, [](hid_t f) { setIntAttribute(f, "format_version", 3); });
  EXPECT_EQ(loadError(path),
            refusal(path, "format version 3, newer than the version this kfield reads (2)"));
}

TEST(CheckpointFile, TruncatedFilesAreRefused) {
  TempFolder dir;
  const std::string path = dir / "t.h5";
  io::saveCheckpoint(path, someState());
  const std::string whole = bytesOf(path);
  for (std::size_t keep : {whole.size() / 2, whole.size() - 100, std::size_t(600)}) {
    writeBytes(path, whole.substr(0, keep));
    const std::string message = loadError(path);
    EXPECT_EQ(message.rfind(refusal(path, ""), 0), 0u) << message;
    EXPECT_NE(message.find("truncated or damaged"), std::string::npos) << keep << ": " << message;
  }
}

TEST(CheckpointFile, ChecksumsCatchFlippedBytesInADataset) {
  TempFolder dir;
  const std::string path = dir / "f.h5";
  LearnerState s = someState();
  s.parameters[0] = 0x0123456789abcdefull;  // a pattern to find in the file
  io::saveCheckpoint(path, s);
  std::string bytes = bytesOf(path);
  unsigned char pattern[8];
  impl::storeWord(s.parameters[0], pattern);
  const auto at = bytes.find(std::string(reinterpret_cast<char*>(pattern), 8));
  ASSERT_NE(at, std::string::npos);
  bytes[at + 3] = static_cast<char>(bytes[at + 3] ^ 0x10);
  writeBytes(path, bytes);
  const std::string message = loadError(path);
  EXPECT_EQ(message.rfind(refusal(path,
                                  "/learner/parameters: checksum mismatch (Fletcher32): "
                                  "the file is corrupted"),
                          0),
            0u)
      << message;
}

TEST(CheckpointFile, MissingOrMisshapenDataIsNamed) {
  TempFolder dir;
  const std::string path = dir / "m.h5";
  auto fresh = [&] { io::saveCheckpoint(path, someState()); };

  fresh();
  editFile(path, [](hid_t f) { H5Ldelete(f, "/learner/state", H5P_DEFAULT); });
  EXPECT_EQ(loadError(path),
            refusal(path, "/learner: no dataset /learner/state (the file is not complete)"));

  fresh();
  editFile(path, [](hid_t f) { H5Ldelete(f, "/learner", H5P_DEFAULT); });
  EXPECT_EQ(loadError(path), refusal(path, "no group /learner (the file is not complete)"));

  fresh();
  editFile(path, [](hid_t f) {
    const hid_t g = H5Gopen2(f, "/learner", H5P_DEFAULT);
    H5Adelete(g, "step");
    H5Gclose(g);
  });
  EXPECT_EQ(loadError(path), refusal(path, "/learner: no attribute step"));

  fresh();
  editFile(path, [](hid_t f) {
    replaceDataset<int>(f, "/learner/parameters", H5T_STD_I32LE, {5}, {1, 2, 3, 4, 5},
                        H5T_NATIVE_INT);
  });
  EXPECT_EQ(loadError(path), refusal(path, "/learner/parameters: is int32, expected float64"));

  fresh();
  editFile(path, [](hid_t f) {
    replaceDataset<double>(f, "/learner/parameters", H5T_IEEE_F64LE, {2, 3},
                           std::vector<double>(6, 1.0), H5T_NATIVE_DOUBLE);
  });
  EXPECT_EQ(loadError(path), refusal(path, "/learner/parameters: has shape [2, 3], expected [6]"));

  fresh();
  editFile(path, [](hid_t f) {
    replaceDataset<std::uint64_t>(f, "/learner/sample_hashes", H5T_STD_U64LE, {3}, {1, 2, 3},
                                  H5T_NATIVE_UINT64);
  });
  EXPECT_EQ(loadError(path), refusal(path, "/learner/sample_hashes: has shape [3], expected [4]"));

  fresh();  // a shape no machine holds: refused before anything is allocated
  editFile(path, [](hid_t f) {
    H5Ldelete(f, "/learner/parameters", H5P_DEFAULT);
    const hsize_t huge = hsize_t(1) << 50, chunk = 1024;
    const hid_t space = H5Screate_simple(1, &huge, nullptr);
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, &chunk);
    H5Dclose(H5Dcreate2(f, "/learner/parameters", H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl,
                        H5P_DEFAULT));
    H5Pclose(dcpl);
    H5Sclose(space);
  });
  const std::string huge = loadError(path);
  EXPECT_EQ(huge.rfind(refusal(path,
                               "/learner/parameters: its [1125899906842624] values need 8.0 PiB, "
                               "but this machine's memory is "),
                       0),
            0u)
      << huge;

  fresh();
  editFile(path, [](hid_t f) {
    const hid_t g = H5Gopen2(f, "/learner", H5P_DEFAULT);
    setIntAttribute(g, "step", -3);
    H5Gclose(g);
  });
  EXPECT_EQ(loadError(path), refusal(path, "/learner: attribute step = -3 is negative"));
}

// Run in a child process under another user when the tests run as root (who reads anything).
TEST(CheckpointFile, AnUnreadableFileIsRefused) {
  TempFolder dir;
  const std::string path = dir / "p.h5";
  io::saveCheckpoint(path, someState());
  ASSERT_EQ(chmod(path.c_str(), 0), 0);
  chmod(dir.path().c_str(), 0755);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(fds[0]);
    if (geteuid() == 0 && setuid(65534) != 0) _exit(3);  // nobody
    const std::string message = loadError(path);
    if (write(fds[1], message.data(), message.size()) < 0) _exit(4);
    _exit(0);
  }
  close(fds[1]);
  std::string message;
  char buf[512];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) message.append(buf, std::size_t(n));
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_EQ(message, refusal(path, "permission denied (cannot read it)"));
}

TEST(CheckpointFile, AFolderThatCannotBeWrittenIsNamed) {
  TempFolder dir;
  const std::string path = dir / "no/such/folder/c.h5";
  const std::string message = errorOf([&] { io::saveCheckpoint(path, someState()); });
  EXPECT_EQ(message, refusal(path, "its folder " + dir.path() + "/no/such/folder does not exist"));
}

}  // namespace
}  // namespace kfield::test
