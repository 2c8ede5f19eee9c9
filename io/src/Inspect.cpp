#include "kfield/io/Inspect.hpp"

#include "Format.hpp"
#include "kfield/io/Checkpoint.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

namespace kfield::io {

namespace {

struct Walk {
  bool verify;
  std::ostringstream out;
  std::uint64_t datasets = 0, bytes = 0;

  void group(const impl::Group& g, const std::string& indent) {
    for (const std::string& a : g.attributeNames()) {
      out << indent << "@" << a << " = " << g.attributeText(a) << "\n";
    }
    for (const std::string& name : g.members()) {
      if (g.isGroup(name)) {
        out << indent << name << "/\n";
        group(g.group(name), indent + "  ");
        continue;
      }
      const impl::Dataset d = g.dataset(name);
      const impl::Type type = d.type();
      out << indent << name << ": " << impl::typeName(type) << " [";
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
    const std::uint64_t rows = dims.empty() ? 1 : dims[0];
    const std::uint64_t perRow = rows == 0 ? 0 : d.elements() / rows;
    if (rows == 1) d.requireFits(8);  // read in pieces of whole rows: one row must fit
    const std::uint64_t step = std::max<std::uint64_t>(1, (std::uint64_t(1) << 20) / std::max<std::uint64_t>(perRow, 1));
    for (std::uint64_t first = 0; first < rows; first += step) {
      const std::uint64_t n = std::min(step, rows - first);
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

}  // namespace

std::string inspect(const std::string& path, bool verify) {
  const impl::File file = impl::File::open(path);
  const std::string kind = impl::kindOf(file);
  Walk walk{verify, {}, 0, 0};
  walk.out << path << ": kfield " << kind << " (format version " << impl::kFormatVersion << ")\n";
  walk.group(file, "  ");
  if (verify) {
    if (kind == "learner-checkpoint") loadCheckpoint(path);
    walk.out << "verified: " << walk.datasets << " datasets, " << walk.bytes
             << " bytes read, checksums and shapes good\n";
  }
  return walk.out.str();
}

}  // namespace kfield::io
