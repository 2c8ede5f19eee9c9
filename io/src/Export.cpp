#include "kfield/io/Export.hpp"

#include "Format.hpp"
#include "kfield/io/Restart.hpp"
#include "kfield/impl/Sizes.hpp"

#include <optional>

namespace kfield::io {

struct SimulationExport::Writer {
  explicit Writer(const std::string& path) : out(path, 1) {}
  impl::AtomicFile out;
  std::int64_t devices = 0, components = 1, samples = 0, snapshots = 0;
  std::optional<impl::Dataset> field, rounds, time, positions;
  std::optional<Network> network;  // shares the caller's arrays
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
  if (net.hasLengths()) g.write("lengths", {e}, net.lengths().data(), packed);  // a bare network has none
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
  const impl::File& file = w.out.file();
  impl::writeHeader(file, "simulation-export");
  writeNetwork(file, network);
  const impl::Group sim = file.createGroup("simulation");
  sim.setAttribute("program", program);
  sim.setAttribute("samples", samples);
  sim.setAttribute("components", components);
  const impl::Group fields = file.createGroup("fields");
  const std::uint64_t n = kfield::impl::product({static_cast<std::uint64_t>(network.devices()),
                                         static_cast<std::uint64_t>(components)});
  const auto b = static_cast<std::uint64_t>(samples);
  // One chunk per snapshot (up to 2^20 values): a reader takes one round without the others.
  // Chunks of about 2^17 values (1 MiB), compressed on every host thread.
  impl::Storage snapshots{std::uint64_t(1) << 17, true, deflate, true};
  w.field.emplace(fields.create<double>(field, {0, n, b}, snapshots));
  w.rounds.emplace(sim.create<std::int64_t>("rounds", {0}, {4096, true, 0, true}));
  const auto devices = static_cast<std::uint64_t>(network.devices());
  if (contents.time) w.time.emplace(fields.create<double>("time", {0, devices, b}, snapshots));
  if (contents.positions) {
    w.positions.emplace(fields.create<double>("positions", {0, devices, 2}, snapshots));
  }
  w.devices = network.devices();
  w.components = components;
  w.network = network;
  w.samples = samples;
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
                        std::to_string(more.times.extent(1)) + ", expected " +
                        std::to_string(n) + " devices x " + std::to_string(w.samples) + " samples");
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
  w.field->extend(t + 1);
  w.field->writeRows(field.data(), t, 1);
  w.rounds->extend(t + 1);
  w.rounds->writeRows(&round, t, 1);
  if (w.time) {
    w.time->extend(t + 1);
    w.time->writeRows(more.times.data(), t, 1);
  }
  if (w.positions) {
    std::vector<double> xy(2 * n);
    for (std::size_t d = 0; d < n; ++d) xy[2 * d] = more.positions.first[d], xy[2 * d + 1] = more.positions.second[d];
    w.positions->extend(t + 1);
    w.positions->writeRows(xy.data(), t, 1);
  }
  ++w.snapshots;
}

void SimulationExport::restart(const TracedProgram& program, const SimulationCarry& carry) {
  impl::writeRestart(writer_->out.file(), program, *writer_->network, carry);
}

void SimulationExport::finish() { writer_->out.commit(); }

}  // namespace kfield::io
