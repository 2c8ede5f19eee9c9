#include "kfield/io/Export.hpp"

#include "Format.hpp"
#include "kfield/impl/Sizes.hpp"
#include "kfield/io/PartialFile.hpp"
#include "kfield/io/Restart.hpp"

#include <optional>

namespace kfield::io {

struct SimulationExport::Writer {
  explicit Writer(const std::string& path)
      : partial(path), file(impl::File::overwrite(partial.partialPath())) {}
  ~Writer() { file = impl::File::closed(); }  // closed before the partial file goes
  PartialFile partial;                        // declared first: destroyed last
  impl::File file;
  std::int64_t devices = 0, components = 1, samples = 0, snapshots = 0, committed = 0, commits = 0;
  std::optional<impl::Dataset> field, rounds, commitRecord, time, positions;
  std::vector<std::int64_t> pendingRounds;  // appended, not yet committed
  std::optional<Network> network;           // shares the caller's arrays
  const TracedProgram* carryOf = nullptr;
  RunInputs inputs;
  std::optional<impl::RestartSlots> restart;
  bool single = false;  // in HDF5's single-writer mode (after the first commit)
  bool failed = false;  // a write failed: what was committed stays, nothing more is written

  // Runs a write; if it fails, the file is left as its last commit left it.
  template <class F>
  void writing(F&& f) {
    if (failed)
      throw FileError("kfield::io::SimulationExport", partial.path(), "an earlier write failed");
    try {
      f();
    } catch (...) {
      failed = true;
      file.abandon();
      throw;
    }
  }
};

namespace {

void writeNetwork(const impl::Group& root, const Network& net) {
  const impl::Group g = root.createGroup("network");
  g.setAttribute("description", net.description());
  g.setAttribute("devices", net.devices());
  g.setAttribute("entries", net.entries());
  const impl::Storage packed{std::uint64_t(1) << 20, true, 4, false};
  const auto n = static_cast<std::uint64_t>(net.devices());
  const auto e = static_cast<std::uint64_t>(net.entries());
  g.write("offsets", {n + 1}, net.offsets().data(), packed);
  g.write("neighbors", {e}, net.neighbors().data(), packed);
  if (net.hasLengths())
    g.write("lengths", {e}, net.lengths().data(), packed);  // a bare network has none
  if (net.hasPositions()) {
    std::vector<double> xy;
    const auto x = net.x(), y = net.y();
    xy.reserve(2 * n);
    for (std::size_t i = 0; i < n; ++i) xy.push_back(x[i]), xy.push_back(y[i]);
    g.write("positions", {n, 2}, xy.data(), packed);
  }
}

}  // namespace

SimulationExport::SimulationExport(const std::string& path, const Network& network,
                                   const std::string& program, std::int64_t samples,
                                   const std::string& field, int deflate, std::int64_t components,
                                   Contents contents) {
  if (deflate < 0 || deflate > 9) {
    throw FileError("kfield::io::SimulationExport", path,
                    "deflate level " + std::to_string(deflate) + " (must be 0 to 9)");
  }
  if (samples < 1) {
    throw FileError("kfield::io::SimulationExport", path,
                    "samples = " + std::to_string(samples) + " (must be >= 1)");
  }
  if (components < 1 || components > (std::int64_t(1) << 20)) {
    throw FileError("kfield::io::SimulationExport", path,
                    "components = " + std::to_string(components) + " (must be 1 to 2^20)");
  }
  writer_ = std::make_unique<Writer>(path);
  Writer& w = *writer_;
  const impl::File& file = w.file;
  impl::writeHeader(file, "simulation-export");
  writeNetwork(file, network);
  const impl::Group sim = file.createGroup("simulation");
  sim.setAttribute("program", program);
  sim.setAttribute("samples", samples);
  sim.setAttribute("components", components);
  sim.setAttribute("carry", std::int64_t(contents.carryOf ? 1 : 0));
  const impl::Group fields = file.createGroup("fields");
  const std::uint64_t n = kfield::impl::product(
      {static_cast<std::uint64_t>(network.devices()), static_cast<std::uint64_t>(components)});
  const auto b = static_cast<std::uint64_t>(samples);
  // One chunk per snapshot (up to 2^20 values): a reader takes one round without the others.
  // Chunks of about 2^17 values (1 MiB), compressed on every host thread.
  impl::Storage snapshots{std::uint64_t(1) << 17, true, deflate, true};
  snapshots.chunkRows = 1;  // one snapshot deep, also when a snapshot is small
  w.field.emplace(fields.create<double>(field, {0, n, b}, snapshots));
  w.rounds.emplace(sim.create<std::int64_t>("rounds", {0}, {4096, true, 0, true}));
  w.commitRecord.emplace(sim.create<std::int64_t>("commits", {0}, {4096, true, 0, true}));
  const auto devices = static_cast<std::uint64_t>(network.devices());
  if (contents.time) w.time.emplace(fields.create<double>("time", {0, devices, b}, snapshots));
  if (contents.positions) {
    w.positions.emplace(fields.create<double>("positions", {0, devices, 2}, snapshots));
  }
  w.devices = network.devices();
  w.components = components;
  w.network = network;
  w.samples = samples;
  w.carryOf = contents.carryOf;
  w.inputs = contents.inputs;
}

SimulationExport::~SimulationExport() = default;

std::int64_t SimulationExport::snapshots() const { return writer_->snapshots; }

void SimulationExport::append(std::int64_t round, const HostPlane& field, const Snapshot& more) {
  Writer& w = *writer_;
  // Every check before the first write: a refused snapshot leaves the file as it was.
  const auto n = static_cast<std::size_t>(w.devices);
  if (w.time && (more.times.extent(0) != n || std::int64_t(more.times.extent(1)) != w.samples)) {
    throw FileError("kfield::io::SimulationExport::append", w.time->path(),
                    "times of " + std::to_string(more.times.extent(0)) + " x " +
                        std::to_string(more.times.extent(1)) + ", expected " + std::to_string(n) +
                        " devices x " + std::to_string(w.samples) + " samples");
  }
  if (w.positions && (more.positions.first.size() != n || more.positions.second.size() != n)) {
    throw FileError("kfield::io::SimulationExport::append", w.positions->path(),
                    "positions of " + std::to_string(more.positions.first.size()) + " x and " +
                        std::to_string(more.positions.second.size()) + " y values, expected " +
                        std::to_string(n) + " devices each");
  }
  if (std::int64_t(field.extent(0)) != w.components * w.devices ||
      std::int64_t(field.extent(1)) != w.samples) {
    const std::string rows = w.components == 1 ? std::to_string(w.devices) + " devices"
                                               : std::to_string(w.components) + " x " +
                                                     std::to_string(w.devices) + " component rows";
    throw FileError("kfield::io::SimulationExport::append", w.field->path(),
                    "a field of " + std::to_string(field.extent(0)) + " x " +
                        std::to_string(field.extent(1)) + ", expected " + rows + " x " +
                        std::to_string(w.samples) + " samples");
  }
  const auto t = static_cast<std::uint64_t>(w.snapshots);
  w.writing([&] {
    w.field->extend(t + 1);
    w.field->writeRows(field.data(), t, 1);
    if (w.time) {
      w.time->extend(t + 1);
      w.time->writeRows(more.times.data(), t, 1);
    }
    if (w.positions) {
      std::vector<double> xy(2 * n);
      for (std::size_t d = 0; d < n; ++d)
        xy[2 * d] = more.positions.first[d], xy[2 * d + 1] = more.positions.second[d];
      w.positions->extend(t + 1);
      w.positions->writeRows(xy.data(), t, 1);
    }
  });
  w.pendingRounds.push_back(round);
  ++w.snapshots;
}

// A commit, in the order a reader relies on: the carry into the slot the last commit did not
// use, then the snapshots' rounds, then the commit's record (how many snapshots it covers),
// each flushed before the next, so that a kill at any moment leaves the last recorded commit
// whole. The first commit creates /restart, starts HDF5's single-writer mode and renames the
// file into place.
void SimulationExport::commit(const SimulationCarry* carry) {
  Writer& w = *writer_;
  if (w.carryOf && !carry) {
    throw FileError("kfield::io::SimulationExport::commit", w.partial.path(),
                    "this export keeps the run's carry: commit it with the carry (sim.carry())");
  }
  if (w.carryOf && std::int64_t(carry->rounds.size()) != w.samples) {
    throw FileError("kfield::io::SimulationExport::commit", w.partial.path(),
                    "a carry of " + std::to_string(carry->rounds.size()) + " samples, expected " +
                        std::to_string(w.samples));
  }
  const std::int64_t covered = w.snapshots;
  w.writing([&] {
    if (w.carryOf && !w.restart)
      w.restart = impl::createRestart(w.file, *w.carryOf, *w.network, *carry, w.inputs);
    if (w.carryOf) {
      impl::writeCarry(*w.restart, int(w.commits % 2), *carry);
      w.file.flush();
    }
    const auto t = static_cast<std::uint64_t>(w.committed),
               k = static_cast<std::uint64_t>(w.pendingRounds.size());
    if (k > 0) {
      w.rounds->extend(t + k);
      w.rounds->writeRows(w.pendingRounds.data(), t, k);
      w.file.flush();
    }
    w.commitRecord->extend(std::uint64_t(w.commits) + 1);
    w.commitRecord->writeRows(&covered, std::uint64_t(w.commits), 1);
    w.file.flush();
    if (!w.single) {
      w.file.startSwmr();
      w.single = true;
      w.partial.publish();
    } else {
      w.partial.sync();
    }
  });
  ++w.commits;
  w.committed = covered;
  w.pendingRounds.clear();
}

void SimulationExport::finish() {
  Writer& w = *writer_;
  if (w.commits == 0 || !w.pendingRounds.empty()) {
    if (w.carryOf) {
      throw FileError(
          "kfield::io::SimulationExport::finish", w.partial.path(),
          "snapshots not committed with the run's carry: commit(sim.carry()) before finish()");
    }
    commit(nullptr);
  }
  w.writing([&] {
    // Every dataset closed first: HDF5 keeps a file open while any of its objects is.
    w.field.reset(), w.rounds.reset(), w.commitRecord.reset(), w.time.reset(), w.positions.reset();
    w.restart.reset();
    w.file.close();
    w.partial.close();
  });
}

}  // namespace kfield::io
