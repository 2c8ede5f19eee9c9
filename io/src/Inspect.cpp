#include "kfield/io/Inspect.hpp"

#include "Format.hpp"
#include "kfield/impl/Printable.hpp"
#include "kfield/impl/Sizes.hpp"
#include "kfield/io/Checkpoint.hpp"
#include "kfield/io/NetworkFile.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <vector>

namespace kfield::io {

namespace {

// kfield's files are a few groups deep and hold a few dozen objects; a file beyond these
// bounds (a hard link to a group above it makes a cycle) is refused, not walked for ever.
constexpr int kMaxDepth = 8;
constexpr std::uint64_t kMaxObjects = 100000;

struct Walk {
  bool verify;
  std::ostringstream out;
  std::uint64_t datasets = 0, bytes = 0, objects = 0;
  std::map<std::string, std::uint64_t> kept;  // rows read of a dataset (of an export: committed)

  void group(const impl::Group& g, const std::string& indent, int depth = 0) {
    if (depth > kMaxDepth)
      g.fail("groups nested deeper than " + std::to_string(kMaxDepth) +
             ": not a file kfield wrote (a link cycle?)");
    for (const std::string& a : g.attributeNames()) {
      out << indent << "@" << kfield::impl::printable(a, 256) << " = "
          << kfield::impl::printable(g.attributeText(a), 4096) << "\n";
    }
    for (const std::string& name : g.members()) {
      if (++objects > kMaxObjects)
        g.fail("more than " + std::to_string(kMaxObjects) + " objects: not a file kfield wrote");
      if (g.isGroup(name)) {
        out << indent << kfield::impl::printable(name, 256) << "/\n";
        group(g.group(name), indent + "  ", depth + 1);
        continue;
      }
      const impl::Dataset d = g.dataset(name);
      const impl::Type type = d.type();
      out << indent << kfield::impl::printable(name, 256) << ": " << impl::typeName(type) << " [";
      const auto dims = d.dims();
      for (std::size_t j = 0; j < dims.size(); ++j) out << (j ? ", " : "") << dims[j];
      out << "]" << (d.checksummed() ? ", Fletcher32" : "") << "\n";
      if (verify) read(d, type);
    }
  }

  // Reads the dataset in pieces of about 8 MiB, so every chunk's checksum is checked.
  void read(const impl::Dataset& d, impl::Type type) {
    ++datasets;
    const auto dims = d.dims();
    const auto limit = kept.find(d.path());
    const std::uint64_t rows = std::min<std::uint64_t>(
        dims.empty() ? 1 : dims[0], limit == kept.end() ? kfield::impl::kSaturated : limit->second);
    const std::uint64_t perRow = rows == 0 ? 0 : d.elements() / rows;
    if (rows == 1) d.requireFits(8);  // read in pieces of whole rows: one row must fit
    const std::uint64_t step =
        std::max<std::uint64_t>(1, (std::uint64_t(1) << 20) / std::max<std::uint64_t>(perRow, 1));
    for (std::uint64_t first = 0; first < rows; first += step) {
      const std::uint64_t n = std::min(step, rows - first);
      d.requireStored(first, n);
      switch (type) {
        case impl::Type::Float64: bytes += piece<double>(d, first, n, perRow); break;
        case impl::Type::Int64: bytes += piece<std::int64_t>(d, first, n, perRow); break;
        case impl::Type::Int32: bytes += piece<std::int32_t>(d, first, n, perRow); break;
        case impl::Type::UInt64: bytes += piece<std::uint64_t>(d, first, n, perRow); break;
        case impl::Type::UInt8: bytes += piece<unsigned char>(d, first, n, perRow); break;
      }
    }
  }

  template <class T>
  static std::uint64_t piece(const impl::Dataset& d, std::uint64_t first, std::uint64_t rows,
                             std::uint64_t perRow) {
    std::vector<T> values(static_cast<std::size_t>(rows * perRow));
    d.read(values.data(), first, rows);
    return sizeof(T) * values.size();
  }
};

// An export against its format (docs/file-format.md): every dataset's type, rank and shape
// against the file's own sizes (N devices, E entries, W components, B samples, T snapshots),
// and the network as a network, before anything else is read.
std::map<std::string, std::uint64_t> verifyExport(const std::string& path, const impl::File& file) {
  const Network net = readNetwork(path);  // types, shapes and rows checked
  const auto n = std::uint64_t(net.devices()), entries = std::uint64_t(net.entries());
  const impl::Group network = file.group("network");
  if (network.intAttribute("devices") != net.devices() ||
      network.intAttribute("entries") != net.entries()) {
    network.fail("@devices " + std::to_string(network.intAttribute("devices")) + " and @entries " +
                 std::to_string(network.intAttribute("entries")) +
                 " do not match its offsets and neighbors (" + std::to_string(n) + " devices, " +
                 std::to_string(entries) + " entries)");
  }
  const impl::Group sim = file.group("simulation");
  const std::int64_t samples = sim.intAttribute("samples"),
                     components = sim.intAttribute("components");
  if (samples < 1) sim.fail("@samples is " + std::to_string(samples) + ", not >= 1");
  if (components < 1 || components > (std::int64_t(1) << 20)) {
    sim.fail("@components is " + std::to_string(components) + ", not 1 to 2^20");
  }
  if (sim.stringAttribute("program").empty()) sim.fail("@program is empty");
  const auto b = std::uint64_t(samples), w = std::uint64_t(components);
  // The snapshots the last recorded commit covers: rows beyond them (a run killed after it
  // appended a snapshot and before it committed it) are not part of the export.
  auto oneDimension = [](const impl::Dataset& d) {
    if (d.dims().size() != 1) d.require(impl::Type::Int64, {d.elements()});
    d.require(impl::Type::Int64, d.dims());
    return d.dims()[0];
  };
  const impl::Dataset commitSet = sim.dataset("commits");
  const std::uint64_t commits = oneDimension(commitSet);
  if (commits == 0) commitSet.fail("records no commit");
  commitSet.requireFits(8);
  const std::vector<std::int64_t> covered = commitSet.readAll<std::int64_t>();
  for (std::size_t c = 1; c < covered.size(); ++c) {
    if (covered[c] < covered[c - 1]) commitSet.fail("decreases at commit " + std::to_string(c));
  }
  if (covered.front() < 0) commitSet.fail("holds a negative count");
  const auto t = static_cast<std::uint64_t>(covered.back());
  std::map<std::string, std::uint64_t> kept{{"/simulation/rounds", t},
                                            {"/fields/output", t},
                                            {"/fields/time", t},
                                            {"/fields/positions", t}};
  const impl::Dataset rounds = sim.dataset("rounds");
  if (oneDimension(rounds) < t)
    rounds.fail("holds " + std::to_string(rounds.dims()[0]) + " rounds, fewer than the " +
                std::to_string(t) + " snapshots committed");
  const impl::Group fields = file.group("fields");
  auto snapshots = [&](const char* name, const std::vector<std::uint64_t>& row) {
    const impl::Dataset d = fields.dataset(name);
    std::vector<std::uint64_t> dims = row;
    dims.insert(dims.begin(), d.dims().empty() ? 0 : std::max(d.dims()[0], t));
    d.require(impl::Type::Float64, dims);
  };
  snapshots("output", {kfield::impl::product({w, n}), b});
  if (fields.has("time")) snapshots("time", {n, b});
  if (fields.has("positions")) snapshots("positions", {n, 2});
  for (const std::string& name : fields.members()) {
    if (name != "output" && name != "time" && name != "positions")
      fields.fail("holds " + kfield::impl::printable(name) + ", not a field of the format");
  }
  if (sim.intAttribute("carry") == 0) return kept;
  if (!file.has("restart"))
    file.fail("no /restart group, though /simulation says it keeps the run's carry");
  const impl::Group restart = file.group("restart");
  if (restart.intAttribute("samples") != samples) {
    restart.fail("@samples is " + std::to_string(restart.intAttribute("samples")) +
                 ", the export's " + std::to_string(samples));
  }
  const impl::LastCarry last = impl::lastCarry(file, restart, b);
  if (std::uint64_t(last.layout[4]) != kfield::impl::product({w, n})) {
    restart.fail("layout: slot " + std::to_string(last.slot) + ": an output of " +
                 std::to_string(last.layout[4]) + " rows, expected " +
                 std::to_string(kfield::impl::product({w, n})));
  }
  // The slot being written when a run was killed is no part of it.
  kept["/restart/carry" + std::to_string(last.slot)] = last.needed;
  kept["/restart/carry" + std::to_string(1 - last.slot)] = 0;
  return kept;
}

}  // namespace

std::string inspect(const std::string& path, bool verify) {
  const impl::File file = impl::File::open(path);
  const std::string kind = impl::kindOf(file);
  Walk walk{verify, {}, 0, 0, 0, {}};
  walk.out << path << ": kfield " << kind << " (format version " << impl::kFormatVersion << ")\n";
  // The file as its kind is read first: shapes checked against the format before the walk
  // reads every value.
  if (verify && kind == "simulation-export") walk.kept = verifyExport(path, file);
  if (verify && kind == "learner-checkpoint") loadCheckpoint(path);
  walk.group(file, "  ");
  if (verify) {
    walk.out << "verified: " << walk.datasets << " datasets, " << walk.bytes
             << " bytes read, checksums and shapes good\n";
  }
  return walk.out.str();
}

}  // namespace kfield::io
